import { describe, expect, it } from 'vitest';
import type { Dashboard, Panel } from '../../../../src/dashboards/types.js';
import { INSIGHTS } from '../../../../src/dashboards/index.js';
import { INSIGHTS_FIXTURE } from '../../testing/insights-fixture.js';
import {
  NO_MATCH,
  buildPanelQueries,
  effectiveValues,
  panelFollowsSelection,
  panelUsesQuantile,
  quantileVariable,
  referencedVariables,
  resolveBand,
  selectionInstances,
  selectionVariable,
  type PanelContext,
} from './panel-queries.js';

const D = INSIGHTS_FIXTURE;
const panelOf = (d: Dashboard, id: string): Panel => d.rows.flatMap((r) => r.panels).find((p) => p.id === id)!;
const panel = (id: string): Panel => panelOf(D, id);
const ctx = (over: Partial<PanelContext> = {}): PanelContext => ({
  dashboard: D,
  values: {},
  selection: [],
  hexView: 'instance',
  quantile: '0.99',
  tabs: {},
  window: { startMs: 0, endMs: 3_600_000, stepMs: 5000 },
  scrapeIntervalMs: 15_000,
  ...over,
});

describe('buildPanelQueries', () => {
  it('writes the quantile into every latency query', () => {
    const p99 = buildPanelQueries(panel('token-latency'), ctx({ quantile: '0.99' }));
    const p50 = buildPanelQueries(panel('token-latency'), ctx({ quantile: '0.5' }));
    expect(p99.map((q) => q.refId)).toEqual(['ttft', 'itl', 'e2e']);
    expect(p99.every((q) => q.expr.startsWith('histogram_quantile(0.99,'))).toBe(true);
    expect(p50.every((q) => q.expr.startsWith('histogram_quantile(0.5,'))).toBe(true);
  });

  it('fills the built-in intervals from the window and the scrape interval', () => {
    const [q] = buildPanelQueries(panel('kv-usage'), ctx());
    expect(q.expr).not.toContain('$');
    const [rate] = buildPanelQueries(panel('preemptions'), ctx());
    expect(rate.expr).toContain('[60s]');
    const [slow] = buildPanelQueries(panel('preemptions'), ctx({ window: { startMs: 0, endMs: 86_400_000, stepMs: 120_000 } }));
    expect(slow.expr).toContain('[135s]');
    const [inv] = buildPanelQueries(panel('invocations'), ctx({ rangeMs: 3_600_000 }));
    expect(inv.expr).toContain('[3600s]');
  });

  it('takes the queries of the selected tab', () => {
    const qs = buildPanelQueries(panel('token-latency'), ctx({ tabs: { 'token-latency': 'invoke' } }));
    expect(qs.map((q) => q.refId)).toEqual(['client_ttft', 'client_e2e']);
    const unknownTab = buildPanelQueries(panel('token-latency'), ctx({ tabs: { 'token-latency': 'nope' } }));
    expect(unknownTab[0].refId).toBe('ttft');
  });

  it('narrows every panel to the selected instances, but not the hex grid', () => {
    const sel = ctx({ selection: ['chat-prod-i1', 'chat-prod-i3'] });
    const kv = buildPanelQueries(panel('kv-usage'), sel)[0];
    expect(kv.expr).toContain('instance=~"chat-prod-i1|chat-prod-i3"');
    const grid = buildPanelQueries(panel('fleet-hexgrid'), sel);
    expect(grid.every((q) => !q.expr.includes('chat-prod-i1'))).toBe(true);
    expect(grid[0].expr).toContain('instance=~".*"');
  });

  it('narrows to the instances of the selected replicas or endpoints', () => {
    const cellInstances = new Map([
      ['r1', ['10.0.0.1:8000']],
      ['r2', ['10.0.0.1:8000', 'i9']],
    ]);
    const filter = selectionInstances(D, 'replica', ['r1', 'r2'], cellInstances);
    expect(filter).toEqual(['10.0.0.1:8000', 'i9']);
    const kv = buildPanelQueries(panel('kv-usage'), ctx({ hexView: 'replica', selection: ['r1', 'r2'], selectionFilter: filter }))[0];
    expect(kv.expr).toContain('instance=~"10\\\\.0\\\\.0\\\\.1:8000|i9"');
    // Unknown until the grid has loaded: not narrowed yet.
    expect(selectionInstances(D, 'replica', ['r1'], undefined)).toBeUndefined();
    const early = buildPanelQueries(panel('kv-usage'), ctx({ hexView: 'replica', selection: ['r1'] }))[0];
    expect(early.expr).toContain('instance=~".*"');
    // A selection whose cells cover no instance matches nothing.
    expect(selectionInstances(D, 'endpoint', ['gone'], cellInstances)).toEqual([NO_MATCH]);
    expect(selectionInstances(D, 'endpoint', [], cellInstances)).toEqual([]);
  });

  it('applies variables and intersects the selection with a filter value from the URL', () => {
    const q = buildPanelQueries(panel('kv-usage'), ctx({ values: { az: ['us-east-1a'], engine: ['vllm', 'sglang'] } }))[0].expr;
    expect(q).toContain('az=~"us-east-1a"');
    expect(q).toContain('engine=~"vllm|sglang"');
    const both = buildPanelQueries(panel('kv-usage'), ctx({ values: { instance: ['i1', 'i2'] }, selection: ['i2', 'i3'] }))[0].expr;
    expect(both).toContain('instance=~"i2"');
    const none = buildPanelQueries(panel('kv-usage'), ctx({ values: { instance: ['i1'] }, selection: ['i3'] }))[0].expr;
    expect(none).toContain(`instance=~"${NO_MATCH}"`);
  });

  it('marks stat, table and hex-grid queries instant and keeps units, legends, thresholds and references', () => {
    expect(buildPanelQueries(panel('ttft-p99'), ctx())[0]).toMatchObject({ instant: true, unit: 'seconds', thresholds: panel('ttft-p99').thresholds });
    expect(buildPanelQueries(panel('instances'), ctx()).every((q) => q.instant)).toBe(true);
    const grid = buildPanelQueries(panel('fleet-hexgrid'), ctx());
    expect(grid.find((q) => q.refId === 'kv')?.thresholds).toEqual([
      { value: 0.5, state: 'warning' },
      { value: 0.85, state: 'critical' },
    ]);
    const tp = buildPanelQueries(panel('token-throughput'), ctx());
    expect(tp.map((q) => [q.refId, q.unit, q.reference, q.instant])).toEqual([
      ['input', 'tokens/s', false, false],
      ['output', 'tokens/s', false, false],
      ['benchmark', 'tokens/s', true, false],
      ['efficiency', 'ratio', false, false],
    ]);
    expect(tp[0].legend).toBe('{{component}} input');
    expect(tp[0].title).toBe('{{component}} input');
  });

  it('is deterministic', () => {
    const c = ctx({ selection: ['a'], values: { engine: ['vllm'] } });
    for (const row of D.rows) for (const p of row.panels) expect(buildPanelQueries(p, c)).toEqual(buildPanelQueries(p, c));
  });

  it('leaves no variable unfilled in the real Insights dashboard', () => {
    const c = ctx({ dashboard: INSIGHTS, selection: ['i-1'], quantile: '0.5' });
    for (const row of INSIGHTS.rows) {
      for (const p of row.panels) {
        const tabs = p.tabs === undefined ? [undefined] : p.tabs.map((t) => t.id);
        for (const tab of tabs) {
          for (const q of buildPanelQueries(p, { ...c, tabs: tab === undefined ? {} : { [p.id]: tab } })) {
            expect(q.expr, `${p.id}/${q.refId}`).not.toMatch(/\$\w/);
            if (panelFollowsSelection(p, INSIGHTS) && p.viz !== 'hexgrid') expect(q.expr).toContain('i-1');
          }
        }
      }
    }
  });
});

describe('variables', () => {
  it('finds the quantile and selection variables', () => {
    expect(quantileVariable(D)).toBe('quantile');
    const custom: Dashboard = { ...D, variables: [{ name: 'q', label: 'Q', kind: 'custom', options: [{ value: '0.5', text: 'P50' }] }] };
    expect(quantileVariable(custom)).toBe('q');
    expect(selectionVariable(D)).toBe('instance');
    expect(selectionVariable({ ...D, rows: [] })).toBeUndefined();
  });

  it('fills defaults for custom and text variables', () => {
    const v = effectiveValues(panel('kv-usage'), ctx());
    expect(v.kv_band).toEqual(['40-50']);
    expect(v.az).toEqual([]);
    expect(v.quantile).toEqual(['0.99']);
  });

  it('says which panels follow the selection and use the quantile', () => {
    expect(panelFollowsSelection(panel('kv-usage'), D)).toBe(true);
    expect(panelFollowsSelection(panel('errors'), D)).toBe(false);
    expect(panelUsesQuantile(panel('token-latency'), D)).toBe(true);
    expect(panelUsesQuantile(panel('kv-usage'), D)).toBe(false);
    expect([...referencedVariables('x{a=~"$a",b=~"${b}"}[$__rate_interval]')].sort()).toEqual(['a', 'b']);
  });

  it('resolves the pressure band from its variable', () => {
    const p = panel('kv-usage');
    expect(resolveBand(p, {})).toMatchObject({ from: 0.4, to: 0.5 });
    expect(resolveBand(p, { kv_band: ['60-70'] })).toMatchObject({ from: 0.6, to: 0.7 });
    expect(resolveBand(p, { kv_band: ['junk'] })).toMatchObject({ from: 0.4, to: 0.5 });
    expect(resolveBand(panel('errors'), {})).toBeUndefined();
  });
});
