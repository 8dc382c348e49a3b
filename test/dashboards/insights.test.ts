// The Insights dashboard as data: its ids, help texts and units, and every query parsed by our
// PromQL parser after interpolation (with the defaults, and with a hex cell and several other
// values chosen), checked against the metric catalog and the filter rules. It lives in test/
// because src/dashboards may not import promql.
import { describe, expect, it } from 'vitest';
import {
  ALL,
  DASHBOARDS,
  INSIGHTS,
  SCOPE_FILTERS,
  builtinIntervals,
  dashboardById,
  dashboardPanels,
  defaultValues,
  familyName,
  interpolate,
  panelQueries,
  scopeOf,
  type VariableValues,
} from '../../src/dashboards/index.js';
import { parseExpr, walkExpr, type Expr } from '../../src/promql/index.js';
import { catalogMetric } from '../../src/semconv/index.js';

/** Series Prometheus writes itself, not in the catalog. */
const BUILT_IN_SERIES = new Set(['up']);

/** Series the SLO recording rules write (docs/design/slo-series.md), not in the catalog. */
const SLO_SERIES = new Set([
  ...['5m', '30m', '1h', '2h', '6h', '1d', '3d', '30d'].map((w) => `slo:sli_error:ratio_rate${w}`),
  'slo:objective:ratio',
  'slo:error_budget_remaining:ratio',
]);

const panels = dashboardPanels(INSIGHTS);
const queries = panels.flatMap((p) => panelQueries(p).map((q) => ({ panel: p, q })));
const builtins = builtinIntervals({ rangeMs: 3_600_000, stepMs: 15_000 });

/** Every vector selector of an expression. */
function selectors(e: Expr): Extract<Expr, { type: 'VectorSelector' }>[] {
  const out: Extract<Expr, { type: 'VectorSelector' }>[] = [];
  walkExpr(e, (n) => {
    if (n.type === 'VectorSelector') out.push(n);
  });
  return out;
}

const label = (s: string) => ['__', s, '__'].join('');
/** Sentinel values: after interpolation each filter shows which variable it came from. */
const SENTINELS: VariableValues = Object.fromEntries(['endpoint', 'component', 'engine', 'az', 'instance'].map((n) => [n, label(n)]));

const cases: [string, VariableValues][] = [
  ['the defaults', defaultValues(INSIGHTS)],
  ['a hex cell clicked', { ...defaultValues(INSIGHTS), instance: 'chat-prod-i1' }],
  ['several values with metacharacters', { ...defaultValues(INSIGHTS), az: ['us-east-1a', 'us-east-1b'], endpoint: 'ml.g5.12xlarge', quantile: '0.5' }],
  ['sentinels', { ...defaultValues(INSIGHTS), ...SENTINELS }],
];

describe('the Insights dashboard', () => {
  it('is listed and found by id', () => {
    expect(DASHBOARDS.map((d) => d.id)).toContain('insights');
    expect(dashboardById('insights')).toBe(INSIGHTS);
    expect(dashboardById('nope')).toBeUndefined();
  });

  it('has unique ids: rows, panels, panel titles, refIds within a panel, tabs, variables, annotations', () => {
    const unique = (xs: string[]) => expect(new Set(xs).size, xs.join(' ')).toBe(xs.length);
    unique(INSIGHTS.rows.map((r) => r.id));
    unique(panels.map((p) => p.id));
    unique(panels.map((p) => p.title));
    for (const p of panels) {
      unique(panelQueries(p).map((q) => q.refId));
      unique((p.tabs ?? []).map((t) => t.id));
    }
    unique(INSIGHTS.variables.map((v) => v.name));
    unique(INSIGHTS.annotations.map((a) => a.id));
    for (const id of [...panels.map((p) => p.id), INSIGHTS.id]) expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it.each(panels.map((p) => [p.id, p] as const))('%s: description, unit, size, queries', (_id, p) => {
    expect(p.description).toMatch(/^[A-Z].{20,}[.)]$/);
    expect(p.unit).toBeTruthy();
    expect(p.width).toBeGreaterThanOrEqual(1);
    expect(p.width).toBeLessThanOrEqual(24);
    expect(panelQueries(p).length).toBeGreaterThan(0);
    if (p.viz === 'table' || p.viz === 'hexgrid' || p.viz === 'stat') for (const q of panelQueries(p)) expect(q.instant, q.refId).toBe(true);
    if (p.viz === 'hexgrid') {
      const refIds = p.queries.map((q) => q.refId);
      expect(refIds).toContain(p.hexgrid?.cells);
      for (const h of p.hexgrid?.health ?? []) expect(refIds).toContain(h.refId);
      expect(INSIGHTS.variables.find((v) => v.name === p.hexgrid?.filterVariable)?.hidden).toBe(true);
    }
    if (p.band?.variable !== undefined) expect(INSIGHTS.variables.find((v) => v.name === p.band?.variable)?.kind).toBe('text');
    // A panel with a query that only reads what something optional writes (a front door, a
    // benchmark table), with no fallback to engine metrics, says so.
    const optional = panelQueries(p).some((q) => {
      const names = q.expr.match(/\b(llm|gpu)_\w+/g) ?? [];
      return names.length > 0 && names.every((n) => /^llm_(client|benchmark)_/.test(n));
    });
    if (optional) expect(p.emptyHint, `${p.id} needs an emptyHint`).toBeTruthy();
  });

  describe.each(cases)('every query parses with %s', (name, values) => {
    it.each(queries.map(({ panel, q }) => [`${panel.id}/${q.refId}`, q.expr] as const))('%s', (_id, expr) => {
      const text = interpolate(expr, values, { variables: INSIGHTS.variables, ...builtins });
      expect(text).not.toMatch(/\$\w/);
      const ast = parseExpr(text);
      for (const s of selectors(ast)) {
        const family = familyName(s.name);
        expect(catalogMetric(family) !== undefined || BUILT_IN_SERIES.has(family) || SLO_SERIES.has(family), `${s.name} is neither a catalog metric nor a built-in or SLO series`).toBe(true);
        if (name !== 'sentinels') continue;
        // Every filter of the metric's scope is there and comes from its own variable.
        for (const l of SCOPE_FILTERS[scopeOf(s.name)]) {
          const m = s.matchers.find((x) => x.name === l && x.type === '=~');
          expect(m?.value, `${s.name} lacks ${l}=~"$${l}"`).toBe(label(l));
        }
      }
    });

    it.each(INSIGHTS.annotations.map((a) => [a.id, a.expr] as const))('annotation %s', (_id, expr) => {
      parseExpr(interpolate(expr, values, { variables: INSIGHTS.variables, ...builtins }));
    });
  });

  it('filters every per-instance metric by the clicked instance', () => {
    for (const { q } of queries) {
      for (const s of selectors(parseExpr(interpolate(q.expr, { ...defaultValues(INSIGHTS), ...SENTINELS }, { variables: INSIGHTS.variables, ...builtins })))) {
        if (scopeOf(s.name) === 'component' || scopeOf(s.name) === 'reference') continue;
        expect(s.matchers.some((m) => m.name === 'instance' && m.value === label('instance')), `${q.refId}: ${s.name}`).toBe(true);
      }
    }
  });

  it('follows a hex selection in every panel and annotation: per-component series are joined to the selected components', () => {
    const values = { ...defaultValues(INSIGHTS), ...SENTINELS };
    const byInstance = (s: Extract<Expr, { type: 'VectorSelector' }>) => s.matchers.some((m) => m.name === 'instance' && m.value === label('instance'));
    const exprs = [...panels.map((p) => [p.id, panelQueries(p).map((q) => q.expr)] as const), ...INSIGHTS.annotations.map((a) => [`annotation ${a.id}`, [a.expr]] as const)];
    for (const [id, list] of exprs) {
      const asts = list.map((e) => parseExpr(interpolate(e, values, { variables: INSIGHTS.variables, ...builtins })));
      expect(asts.some((a) => selectors(a).some(byInstance)), `${id} ignores the instance variable`).toBe(true);
      for (const a of asts) {
        const sels = selectors(a);
        if (sels.some((s) => scopeOf(s.name) === 'component')) expect(sels.some((s) => s.name === 'up' && byInstance(s)), `${id}: a per-component series not joined to the selection`).toBe(true);
      }
    }
  });

  it('matches a selected value literally', () => {
    const text = interpolate('up{instance_type=~"$instance_type"}', { instance_type: 'ml.g5.12xlarge' }, { variables: [{ name: 'instance_type', label: 'T', kind: 'labelValues' }] });
    const m = selectors(parseExpr(text))[0].matchers.find((x) => x.name === 'instance_type')!;
    expect(m.matches('ml.g5.12xlarge')).toBe(true);
    expect(m.matches('mlxg5x12xlarge')).toBe(false);
    const all = selectors(parseExpr(interpolate('up{az=~"$az"}', { az: ALL }, { variables: INSIGHTS.variables })))[0].matchers.find((x) => x.name === 'az')!;
    expect(all.matches('')).toBe(true);
  });

  it('scopes metrics by the identity labels they carry', () => {
    expect(scopeOf('llm_time_to_first_token_seconds_bucket')).toBe('engine');
    expect(scopeOf('llm_client_requests_total')).toBe('client');
    expect(scopeOf('llm_scaling_events_total')).toBe('component');
    expect(scopeOf('llm_quality_score')).toBe('component');
    expect(scopeOf('llm_cold_start_duration_seconds_count')).toBe('engine');
    expect(scopeOf('llm_cold_start_phase_duration_seconds')).toBe('engine');
    expect(scopeOf('llm_instance_ready')).toBe('engine');
    expect(scopeOf('llm_benchmark_output_tokens_per_second')).toBe('reference');
    // Efficiency against the benchmark is per replica (src/cost), so the component filters apply.
    expect(scopeOf('llm_benchmark_efficiency_ratio')).toBe('component');
    expect(scopeOf('gpu_utilization_ratio')).toBe('host');
    expect(scopeOf('up')).toBe('target');
    expect(scopeOf('slo:error_budget_remaining:ratio')).toBe('component');
    expect(familyName('llm_requests_running')).toBe('llm_requests_running');
    expect(familyName('llm_request_prompt_tokens_count')).toBe('llm_request_prompt_tokens');
  });
});
