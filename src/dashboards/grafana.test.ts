import { describe, expect, it, test } from 'vitest';
import { GRAFANA_UNITS, grafanaThresholds } from './grafana-panels.js';
import { GRAFANA_SCHEMA_VERSION, grafanaJson, toGrafana } from './grafana.js';
import { INSIGHTS } from './insights.js';
import type { Dashboard, Unit } from './types.js';

/** JSON.parse's view of the export: tests read fields directly. */
type J = ReturnType<typeof JSON.parse>;

const g: J = JSON.parse(grafanaJson(INSIGHTS));
const panels: J[] = g.panels;
const byTitle = (title: string): J => panels.find((p) => p.type !== 'row' && p.title === title);

describe('toGrafana(INSIGHTS)', () => {
  it('imports into any Grafana: schema 39+, a DS_PROMETHEUS input used by every query', () => {
    expect(g.schemaVersion).toBeGreaterThanOrEqual(39);
    expect(GRAFANA_SCHEMA_VERSION).toBe(g.schemaVersion);
    expect(g.__inputs).toEqual([expect.objectContaining({ name: 'DS_PROMETHEUS', type: 'datasource', pluginId: 'prometheus' })]);
    expect(g.uid).toBe('infersight-insights');
    expect(g.id).toBeNull();
    for (const p of panels.filter((x) => x.type !== 'row')) {
      expect(p.datasource, p.title).toEqual({ type: 'prometheus', uid: '${DS_PROMETHEUS}' });
      for (const t of p.targets) expect(t.datasource.uid).toBe('${DS_PROMETHEUS}');
    }
  });

  it('is deterministic, with keys sorted', () => {
    expect(grafanaJson(INSIGHTS)).toBe(grafanaJson(INSIGHTS));
    expect(Object.keys(g)).toEqual([...Object.keys(g)].sort());
    expect(Object.keys(panels[1])).toEqual([...Object.keys(panels[1])].sort());
  });

  it('lays panels out on the 24-column grid without overlaps, ids in order', () => {
    expect(panels.map((p) => p.id)).toEqual(panels.map((_, i) => i + 1));
    const cells = new Set<string>();
    for (const p of panels) {
      const { x, y, w, h } = p.gridPos as { x: number; y: number; w: number; h: number };
      expect(x + w, p.title).toBeLessThanOrEqual(24);
      for (let i = x; i < x + w; i++) {
        for (let j = y; j < y + h; j++) {
          expect(cells.has(`${i},${j}`), `${String(p.title)} overlaps at ${i},${j}`).toBe(false);
          cells.add(`${i},${j}`);
        }
      }
    }
    expect(panels.filter((p) => p.type === 'row').map((p) => p.title)).toEqual(INSIGHTS.rows.map((r) => r.title));
  });

  it('turns variables into query, custom and textbox variables', () => {
    const v = Object.fromEntries((g.templating.list as J[]).map((x) => [x.name, x]));
    expect(v.endpoint).toMatchObject({ type: 'query', query: 'label_values(up, endpoint)', includeAll: true, multi: true, allValue: '.*', hide: 0 });
    expect(v.component.query).toBe('label_values(up{endpoint=~"$endpoint"}, component)');
    expect(v.instance).toMatchObject({ type: 'query', hide: 2, allValue: '.*', includeAll: true });
    expect(v.quantile).toMatchObject({ type: 'custom', query: 'P50 : 0.5,P90 : 0.9,P99 : 0.99', current: { text: 'P99', value: '0.99' }, multi: false });
    expect(v.kv_band).toMatchObject({ type: 'textbox', query: '40-50', current: { value: '40-50' } });
  });

  it('exports annotations as Prometheus annotation queries', () => {
    const list: J[] = g.annotations.list;
    expect(list[0].builtIn).toBe(1);
    expect(list.slice(1).map((a) => a.name)).toEqual(INSIGHTS.annotations.map((a) => a.title));
    for (const a of list.slice(1)) expect(a).toMatchObject({ expr: expect.stringMatching(/increase\(|llm_quality_drift_event/), titleFormat: a.name, textFormat: expect.stringContaining('{{component}}'), iconColor: expect.any(String), step: '1m' });
  });

  it('exports the hex grid as a table with a note, joined on instance, health columns coloured', () => {
    const p = byTitle('Fleet health');
    expect(p.type).toBe('table');
    expect(p.description).toContain('Grafana has no honeycomb');
    expect(p.targets.every((t: J) => t.format === 'table' && t.instant === true && t.range === false)).toBe(true);
    expect(p.transformations[0]).toEqual({ id: 'joinByField', options: { byField: 'instance', mode: 'outer' } });
    expect(p.transformations[1].options.excludeByName['Value #cells']).toBe(true);
    const kv = p.fieldConfig.overrides.find((o: J) => o.matcher.options === 'KV-cache usage');
    expect(kv.properties).toContainEqual({ id: 'unit', value: 'percentunit' });
    expect(kv.properties).toContainEqual({ id: 'custom.cellOptions', value: { type: 'color-background' } });
  });

  it('gives every tab its own panel, heatmaps the heatmap format, references a dashed line', () => {
    expect(panels.map((p) => p.title)).toEqual(expect.arrayContaining(['Token latency · Invoke', 'Token latency · Streaming', 'Token latency · Engine']));
    const heat = byTitle('Prompt length');
    expect(heat).toMatchObject({ type: 'heatmap', options: { calculate: false, yAxis: { unit: 'short' } }, repeat: 'engine' });
    expect(heat.targets[0]).toMatchObject({ format: 'heatmap', legendFormat: '{{le}}', range: true, instant: false });
    const tput = byTitle('Token throughput');
    expect(tput.fieldConfig.overrides).toContainEqual({ matcher: { id: 'byFrameRefID', options: 'benchmark' }, properties: [{ id: 'custom.lineStyle', value: { dash: [10, 10], fill: 'dash' } }] });
  });

  it('draws the KV band as a threshold area at its default, and says so', () => {
    const kv = byTitle('KV-cache usage');
    expect(kv.fieldConfig.defaults.custom.thresholdsStyle).toEqual({ mode: 'area' });
    expect(kv.fieldConfig.defaults.thresholds.steps).toEqual([
      { color: 'transparent', value: null },
      { color: 'orange', value: 0.4 },
      { color: 'transparent', value: 0.5 },
    ]);
    expect(kv.description).toContain("kv_band variable's default, 40 % to 50 %");
  });

  it('colours stat panels by their thresholds', () => {
    const ttft = byTitle('TTFT P99');
    expect(ttft).toMatchObject({ type: 'stat', fieldConfig: { defaults: { unit: 's', color: { mode: 'thresholds' } } } });
    expect(ttft.fieldConfig.defaults.thresholds.steps).toEqual([
      { color: 'green', value: null },
      { color: 'orange', value: 2.5 },
      { color: 'red', value: 5 },
    ]);
    expect(ttft.targets[0]).toMatchObject({ instant: true, range: false, format: 'time_series' });
  });
});

describe('units and thresholds', () => {
  test.each<[Unit, string]>([
    ['seconds', 's'],
    ['ratio', 'percentunit'],
    ['percent', 'percent'],
    ['bytes', 'bytes'],
    ['req/s', 'reqps'],
    ['dollars', 'currencyUSD'],
    ['tokens/s', 'suffix: tok/s'],
    ['count', 'short'],
    ['none', 'none'],
  ])('%s → %s', (unit, want) => {
    expect(GRAFANA_UNITS[unit]).toBe(want);
  });

  it('maps states to colours over a green base', () => {
    expect(grafanaThresholds([{ value: 0, state: 'critical' }, { value: 1, state: 'ok' }])).toEqual({
      mode: 'absolute',
      steps: [
        { color: 'green', value: null },
        { color: 'red', value: 0 },
        { color: 'green', value: 1 },
      ],
    });
  });
});

describe('toGrafana options and small dashboards', () => {
  const tiny: Dashboard = {
    id: 'tiny',
    title: 'Tiny',
    description: 'Two panels that do not fit on one line.',
    variables: [],
    rows: [
      {
        id: 'r',
        title: 'R',
        panels: [
          { id: 'a', title: 'A', description: 'a.', viz: 'timeseries', unit: 'seconds', queries: [{ refId: 'A', expr: 'up' }], width: 16, height: 5 },
          { id: 'b', title: 'B', description: 'b.', viz: 'table', unit: 'none', queries: [{ refId: 'A', expr: 'up' }, { refId: 'B', expr: 'up' }], joinOn: ['job', 'instance'], width: 16, height: 4 },
        ],
      },
    ],
    annotations: [],
  };

  it('wraps panels that do not fit and merges tables joined on several labels', () => {
    const t: J = toGrafana(tiny);
    expect(t.panels.map((p: J) => p.gridPos)).toEqual([
      { h: 1, w: 24, x: 0, y: 0 },
      { h: 5, w: 16, x: 0, y: 1 },
      { h: 4, w: 16, x: 0, y: 6 },
    ]);
    expect(t.panels[2].transformations[0]).toEqual({ id: 'merge', options: {} });
  });

  it('uses a given data source uid instead of the import input', () => {
    const t: J = toGrafana(tiny, { datasourceUid: 'infersight' });
    expect(t.__inputs).toEqual([]);
    expect(t.panels[1].datasource).toEqual({ type: 'prometheus', uid: 'infersight' });
  });
});
