/**
 * Grafana dashboard JSON from a dashboard definition, importable into any Grafana (9.4+): the data
 * source is the `${DS_PROMETHEUS}` input Grafana asks for on import (any Prometheus-compatible
 * source: Infersight itself, Prometheus, VictoriaMetrics, Mimir). The output is deterministic
 * (keys sorted, ids in layout order), so a committed export can be compared with a fresh one.
 *
 * What Grafana lacks is approximated and said in the panel's description: the hex grid becomes a
 * table (one row per instance, health columns coloured), a panel's tabs become one panel each, a
 * band that follows a variable is drawn at the variable's default, and a heatmap repeats per engine
 * (Grafana reads one panel's buckets as one histogram; engines' layouts differ).
 */
import { grafanaPanel, grafanaPanelType, type GrafanaDatasource, type Json } from './grafana-panels.js';
import type { Annotation, Dashboard, Panel, PanelQuery, Variable } from './types.js';

/** Options of `toGrafana`. */
export interface GrafanaOptions {
  /**
   * A data source uid to use instead of the `${DS_PROMETHEUS}` import input (for provisioning a
   * dashboard file next to a known data source). With it, `__inputs` is empty.
   */
  readonly datasourceUid?: string;
}

/** The schema version written; Grafana migrates older ones on load, so this is the floor we target. */
export const GRAFANA_SCHEMA_VERSION = 39;

const INPUT = 'DS_PROMETHEUS';

/** Keys sorted at every level (arrays keep their order), as Grafana's own export writes them. */
function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).sort()) {
    const x = (v as Record<string, unknown>)[k];
    if (x !== undefined) out[k] = sortKeys(x);
  }
  return out;
}

function variable(v: Variable, ds: GrafanaDatasource): Json {
  const hide = v.hidden === true ? 2 : 0;
  const common = { hide, label: v.label, name: v.name, skipUrlSync: false };
  switch (v.kind) {
    case 'labelValues': {
      const q = `label_values(${v.match ?? v.metric ?? ''}, ${v.labelName ?? v.name})`;
      return {
        ...common,
        allValue: '.*',
        current: { selected: true, text: ['All'], value: ['$__all'] },
        datasource: ds,
        definition: q,
        includeAll: true,
        multi: true,
        options: [],
        query: q,
        refresh: 2,
        regex: '',
        sort: 1,
        type: 'query',
      };
    }
    case 'custom': {
      const opts = v.options ?? [];
      const current = opts.find((o) => o.value === v.default) ?? opts[0];
      return {
        ...common,
        current: current === undefined ? {} : { selected: true, text: current.text, value: current.value },
        includeAll: false,
        multi: false,
        options: opts.map((o) => ({ selected: o === current, text: o.text, value: o.value })),
        // Grafana's custom syntax: `text : value` pairs separated by commas.
        query: opts.map((o) => `${o.text} : ${o.value}`).join(','),
        type: 'custom',
      };
    }
    case 'text': {
      const value = v.default ?? '';
      return { ...common, current: { selected: false, text: value, value }, options: [{ selected: true, text: value, value }], query: value, type: 'textbox' };
    }
  }
}

function annotation(a: Annotation, ds: GrafanaDatasource): Json {
  return {
    datasource: ds,
    enable: true,
    expr: a.expr,
    hide: false,
    iconColor: a.color,
    name: a.title,
    step: a.step ?? '1m',
    tagKeys: '',
    textFormat: a.text,
    titleFormat: a.title,
    useValueForTime: false,
  };
}

/** A panel as Grafana panels: one, or one per tab. */
function expand(p: Panel): { title: string; queries: readonly PanelQuery[] }[] {
  if (p.tabs === undefined || p.tabs.length === 0) return [{ title: p.title, queries: p.queries }];
  return p.tabs.map((t) => ({ title: `${p.title} · ${t.title}`, queries: [...p.queries, ...t.queries] }));
}

/** Lays the rows out on Grafana's 24-column grid: a row header, then panels left to right, wrapping. */
function layout(d: Dashboard, ds: GrafanaDatasource): Json[] {
  const out: Json[] = [];
  let id = 0;
  let y = 0;
  for (const row of d.rows) {
    out.push({ collapsed: false, gridPos: { h: 1, w: 24, x: 0, y }, id: ++id, panels: [], title: row.title, type: 'row' });
    y += 1;
    let x = 0;
    let lineHeight = 0;
    for (const p of row.panels) {
      for (const part of expand(p)) {
        const w = Math.min(24, Math.max(1, p.width));
        if (x + w > 24) {
          y += lineHeight;
          x = 0;
          lineHeight = 0;
        }
        out.push(grafanaPanel(p, part.queries, part.title, ++id, { h: p.height, w, x, y }, ds));
        x += w;
        lineHeight = Math.max(lineHeight, p.height);
      }
    }
    y += lineHeight;
  }
  return out;
}

/** The dashboard as Grafana dashboard JSON (a plain object; see `grafanaJson` for the text). */
export function toGrafana(d: Dashboard, opts: GrafanaOptions = {}): Json {
  const ds: GrafanaDatasource = { type: 'prometheus', uid: opts.datasourceUid ?? `\${${INPUT}}` };
  const panels = layout(d, ds);
  const types = [...new Set(d.rows.flatMap((r) => r.panels.map((p) => grafanaPanelType(p.viz))))].sort();
  return sortKeys({
    __inputs:
      opts.datasourceUid === undefined
        ? [{ description: 'A Prometheus-compatible data source: Infersight, Prometheus, VictoriaMetrics, Mimir.', label: 'Prometheus', name: INPUT, pluginId: 'prometheus', pluginName: 'Prometheus', type: 'datasource' }]
        : [],
    __requires: [
      { id: 'grafana', name: 'Grafana', type: 'grafana', version: '9.4.0' },
      { id: 'prometheus', name: 'Prometheus', type: 'datasource', version: '1.0.0' },
      ...types.map((t) => ({ id: t, name: t, type: 'panel', version: '' })),
    ],
    annotations: {
      list: [
        { builtIn: 1, datasource: { type: 'grafana', uid: '-- Grafana --' }, enable: true, hide: true, iconColor: 'rgba(0, 211, 255, 1)', name: 'Annotations & Alerts', type: 'dashboard' },
        ...d.annotations.map((a) => annotation(a, ds)),
      ],
    },
    description: d.description,
    editable: true,
    fiscalYearStartMonth: 0,
    graphTooltip: 1,
    id: null,
    links: [],
    panels,
    refresh: '30s',
    schemaVersion: GRAFANA_SCHEMA_VERSION,
    tags: ['infersight', 'llm'],
    templating: { list: d.variables.map((v) => variable(v, ds)) },
    time: { from: 'now-1h', to: 'now' },
    timepicker: {},
    timezone: 'browser',
    title: `Infersight ${d.title}`,
    uid: `infersight-${d.id}`,
    version: 1,
    weekStart: '',
  }) as Json;
}

/** `toGrafana` as the text of a `.json` file: two-space indent, a final newline. */
export function grafanaJson(d: Dashboard, opts: GrafanaOptions = {}): string {
  return JSON.stringify(toGrafana(d, opts), null, 2) + '\n';
}
