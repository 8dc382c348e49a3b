/**
 * One Infersight panel as Grafana panel JSON (see grafana.ts for the dashboard around it): units,
 * thresholds, targets, and the stand-ins for what Grafana lacks (the hex grid becomes a table,
 * tabs become one panel each, a variable band is drawn at its default).
 */
import type { Panel, PanelQuery, Threshold, Unit, Visualization } from './types.js';

/** A Grafana data-source reference. */
export interface GrafanaDatasource {
  readonly type: 'prometheus';
  readonly uid: string;
}

/** Grafana's `gridPos`. */
export interface GridPos {
  readonly h: number;
  readonly w: number;
  readonly x: number;
  readonly y: number;
}

/** A JSON object as Grafana reads it. */
export type Json = Record<string, unknown>;

/** Grafana's unit id for each unit. */
export const GRAFANA_UNITS: Readonly<Record<Unit, string>> = {
  seconds: 's',
  ratio: 'percentunit',
  percent: 'percent',
  bytes: 'bytes',
  tokens: 'short',
  'tokens/s': 'suffix: tok/s',
  'req/s': 'reqps',
  count: 'short',
  dollars: 'currencyUSD',
  'dollars/h': 'suffix: $/h',
  celsius: 'celsius',
  hertz: 'hertz',
  none: 'none',
};

const COLORS: Readonly<Record<Threshold['state'], string>> = { ok: 'green', warning: 'orange', critical: 'red' };

/** Grafana thresholds (mode absolute): green below the first step, then each step's colour. */
export function grafanaThresholds(steps: readonly Threshold[]): Json {
  return { mode: 'absolute', steps: [{ color: 'green', value: null }, ...steps.map((s) => ({ color: COLORS[s.state], value: s.value }))] };
}

/** Grafana's panel type for each visualization (the hex grid has no Grafana equivalent). */
const PANEL_TYPES: Readonly<Record<Visualization, string>> = { stat: 'stat', timeseries: 'timeseries', heatmap: 'heatmap', table: 'table', hexgrid: 'table' };

/** The Grafana panel type a panel is exported as. */
export function grafanaPanelType(viz: Visualization): string {
  return PANEL_TYPES[viz];
}

const HEXGRID_NOTE =
  ' (Grafana has no honeycomb: exported as a table with one row per instance, its health columns coloured by the honeycomb\'s thresholds.)';

/**
 * Grafana's `heatmap` format differences every `le` series of a query as one histogram, so
 * buckets of several layout sources (engines) would be subtracted from one another: the export
 * repeats a heatmap once per value of the `engine` variable, one layout per copy.
 */
const HEATMAP_REPEAT = 'engine';
const HEATMAP_NOTE = ` (Repeated per engine: Grafana's heatmap reads one panel's buckets as one histogram, and engines' bucket bounds differ.)`;

/** Grafana thresholds cannot follow a variable: say where the band is drawn. */
function bandNote(p: Panel): string {
  const b = p.band!;
  const f = (v: number) => (p.unit === 'ratio' ? `${Math.round(v * 1000) / 10} %` : String(v));
  return ` (The band is drawn at the ${b.variable ?? ''} variable's default, ${f(b.from)} to ${f(b.to)}: Grafana thresholds cannot follow a variable.)`;
}

function target(q: PanelQuery, viz: Visualization, ds: GrafanaDatasource): Json {
  const instant = q.instant === true || viz === 'table' || viz === 'hexgrid';
  const format = viz === 'heatmap' ? 'heatmap' : viz === 'table' || viz === 'hexgrid' ? 'table' : 'time_series';
  return { datasource: ds, editorMode: 'code', expr: q.expr, format, instant, legendFormat: q.legend ?? '', range: !instant, refId: q.refId };
}

/** The field name Grafana gives a table query's value column. */
function valueField(refId: string): string {
  return `Value #${refId}`;
}

function tableTransformations(p: Panel, queries: readonly PanelQuery[]): Json[] {
  const joinOn = p.viz === 'hexgrid' ? [p.hexgrid?.joinOn ?? 'instance'] : (p.joinOn ?? ['instance']);
  const join: Json = joinOn.length === 1 ? { id: 'joinByField', options: { byField: joinOn[0], mode: 'outer' } } : { id: 'merge', options: {} };
  const exclude: Record<string, boolean> = { Time: true };
  queries.forEach((_, i) => (exclude[`Time ${i + 1}`] = true));
  if (p.hexgrid !== undefined) exclude[valueField(p.hexgrid.cells)] = true;
  const rename: Record<string, string> = {};
  for (const q of queries) if (q.title !== undefined) rename[valueField(q.refId)] = q.title;
  return [join, { id: 'organize', options: { excludeByName: exclude, indexByName: {}, renameByName: rename } }];
}

function tableOverrides(p: Panel, queries: readonly PanelQuery[]): Json[] {
  const health = new Map((p.hexgrid?.health ?? []).map((h) => [h.refId, h.thresholds]));
  const out: Json[] = [];
  for (const q of queries) {
    if (p.hexgrid !== undefined && q.refId === p.hexgrid.cells) continue;
    const properties: Json[] = [];
    if (q.unit !== undefined) properties.push({ id: 'unit', value: GRAFANA_UNITS[q.unit] });
    const steps = q.thresholds ?? health.get(q.refId);
    if (steps !== undefined) {
      properties.push({ id: 'thresholds', value: grafanaThresholds(steps) });
      properties.push({ id: 'custom.cellOptions', value: { type: 'color-background' } });
    }
    if (properties.length > 0) out.push({ matcher: { id: 'byName', options: q.title ?? valueField(q.refId) }, properties });
  }
  return out;
}

function seriesOverrides(queries: readonly PanelQuery[]): Json[] {
  const out: Json[] = [];
  for (const q of queries) {
    const properties: Json[] = [];
    if (q.unit !== undefined) properties.push({ id: 'unit', value: GRAFANA_UNITS[q.unit] });
    if (q.reference === true) properties.push({ id: 'custom.lineStyle', value: { dash: [10, 10], fill: 'dash' } });
    if (properties.length > 0) out.push({ matcher: { id: 'byFrameRefID', options: q.refId }, properties });
  }
  return out;
}

/** The thresholds and their drawing style: a band is a shaded area between its bounds. */
function timeseriesThresholds(p: Panel): { thresholds?: Json; style: string } {
  if (p.band !== undefined) {
    const steps = [
      { color: 'transparent', value: null },
      { color: 'orange', value: p.band.from },
      { color: 'transparent', value: p.band.to },
    ];
    return { thresholds: { mode: 'absolute', steps }, style: 'area' };
  }
  if (p.thresholds !== undefined) return { thresholds: grafanaThresholds(p.thresholds), style: 'line' };
  return { style: 'off' };
}

function options(viz: Visualization): Json {
  switch (viz) {
    case 'stat':
      return { colorMode: 'value', graphMode: 'none', justifyMode: 'auto', orientation: 'auto', reduceOptions: { calcs: ['lastNotNull'], fields: '', values: false }, textMode: 'auto' };
    case 'timeseries':
      return { legend: { displayMode: 'list', placement: 'bottom', showLegend: true }, tooltip: { mode: 'multi', sort: 'desc' } };
    case 'heatmap':
      return {
        calculate: false,
        cellGap: 1,
        color: { mode: 'scheme', scheme: 'Oranges', steps: 64 },
        legend: { show: true },
        rowsFrame: { layout: 'auto' },
        tooltip: { mode: 'single', yHistogram: true },
        yAxis: { axisPlacement: 'left' },
      };
    case 'table':
    case 'hexgrid':
      return { cellHeight: 'sm', showHeader: true };
  }
}

/**
 * One Grafana panel for `p` showing `queries` (a tab's, or the panel's own), titled `title`, at
 * `gridPos` with Grafana id `id`.
 */
export function grafanaPanel(p: Panel, queries: readonly PanelQuery[], title: string, id: number, gridPos: GridPos, ds: GrafanaDatasource): Json {
  const unit = GRAFANA_UNITS[p.unit];
  const defaults: Json = p.viz === 'heatmap' ? {} : { unit };
  let overrides: Json[] = [];
  let transformations: Json[] | undefined;
  if (p.viz === 'timeseries') {
    const t = timeseriesThresholds(p);
    defaults.custom = { drawStyle: 'line', fillOpacity: 0, lineWidth: 1, showPoints: 'never', spanNulls: false, thresholdsStyle: { mode: t.style } };
    if (t.thresholds !== undefined) defaults.thresholds = t.thresholds;
    overrides = seriesOverrides(queries);
  } else if (p.viz === 'stat') {
    defaults.color = { mode: 'thresholds' };
    defaults.thresholds = grafanaThresholds(p.thresholds ?? []);
  } else if (p.viz !== 'heatmap') {
    overrides = tableOverrides(p, queries);
    transformations = tableTransformations(p, queries);
    if (p.thresholds !== undefined) defaults.thresholds = grafanaThresholds(p.thresholds);
  }
  // Grafana's text for a panel without a value: the same words as the UI's empty state.
  if (p.emptyTitle !== undefined) defaults.noValue = p.emptyTitle;
  const heatmapOptions = p.viz === 'heatmap' ? { ...options(p.viz), yAxis: { axisPlacement: 'left', unit } } : options(p.viz);
  return {
    datasource: ds,
    description: p.description + (p.viz === 'hexgrid' ? HEXGRID_NOTE : '') + (p.viz === 'heatmap' ? HEATMAP_NOTE : '') + (p.band?.variable !== undefined ? bandNote(p) : ''),
    fieldConfig: { defaults, overrides },
    gridPos,
    id,
    options: heatmapOptions,
    targets: queries.map((q) => target(q, p.viz, ds)),
    title,
    ...(transformations === undefined ? {} : { transformations }),
    ...(p.viz === 'heatmap' ? { repeat: HEATMAP_REPEAT, repeatDirection: 'h' } : {}),
    type: grafanaPanelType(p.viz),
  };
}
