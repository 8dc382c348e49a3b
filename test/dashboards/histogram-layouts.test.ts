// The layout check on every query of every dashboard, and on cases that must fail: the queries
// the Insights dashboard had before (testdata/mixed-layout-queries.json, as committed in
// docs/dashboards/insights.grafana.json when percentiles summed vLLM's and SGLang's buckets), and
// each way a grouping can lose the layout source.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DASHBOARDS,
  builtinIntervals,
  dashboardPanels,
  defaultValues,
  heatmapBuckets,
  interpolate,
  panelQueries,
  quantile,
  type Dashboard,
} from '../../src/dashboards/index.js';
import { histogramLayoutViolations } from './histogram-layouts.js';

const builtins = builtinIntervals({ rangeMs: 3_600_000, stepMs: 15_000 });

/** A query as the UI runs it: variables at their defaults, built-in intervals filled in. */
function text(d: Dashboard, expr: string): string {
  return interpolate(expr, defaultValues(d), { variables: d.variables, ...builtins });
}

const everyQuery = DASHBOARDS.flatMap((d) => [
  ...dashboardPanels(d).flatMap((p) => panelQueries(p).map((q) => [`${d.id}/${p.id}/${q.refId}`, text(d, q.expr)] as const)),
  ...d.annotations.map((a) => [`${d.id}/annotation/${a.id}`, text(d, a.expr)] as const),
]);

/** The mixing queries the Insights dashboard had, verbatim. */
const before = (JSON.parse(readFileSync(new URL('./testdata/mixed-layout-queries.json', import.meta.url), 'utf8')) as { query: string; expr: string }[]).map(
  (b) => [b.query, text(DASHBOARDS[0], b.expr)] as const,
);

describe('bucket layouts', () => {
  it('checks at least every histogram query of the Insights dashboard', () => {
    expect(everyQuery.filter(([, e]) => e.includes('histogram_quantile')).length).toBeGreaterThanOrEqual(15);
    expect(everyQuery.filter(([, e]) => e.includes('_bucket') && !e.includes('histogram_quantile')).length).toBeGreaterThanOrEqual(2);
  });

  it.each(everyQuery)('%s never adds up buckets of two layouts', (_id, expr) => {
    expect(histogramLayoutViolations(expr)).toEqual([]);
  });

  it.each(before)('the former %s fails', (_id, expr) => {
    expect(histogramLayoutViolations(expr).length).toBeGreaterThan(0);
  });

  const S = '{engine=~".*"}';
  it.each([
    // What the builders write, and what else is safe.
    ['per engine', `histogram_quantile(0.99, sum by (le, engine) (rate(llm_time_to_first_token_seconds_bucket${S}[1m])))`, []],
    ['per replica (one process)', 'histogram_quantile(0.99, sum by (le, replica) (rate(llm_time_to_first_token_seconds_bucket[1m])))', []],
    ['per series, no aggregation', 'histogram_quantile(0.99, rate(llm_time_to_first_token_seconds_bucket[1m]))', []],
    ['per front-door job', 'histogram_quantile(0.9, sum by (le, component, job) (rate(llm_client_time_to_first_token_seconds_bucket[1m])))', []],
    ['the builder, by instance', text(DASHBOARDS[0], quantile('0.99', 'llm_time_to_first_token_seconds', ['instance'])), []],
    ['the builder, front door by component', text(DASHBOARDS[0], quantile('0.99', 'llm_client_request_duration_seconds', ['component'])), []],
    ['a max over quantiles, without', 'max without (engine) (histogram_quantile(0.99, sum by (le, engine) (rate(llm_time_to_first_token_seconds_bucket[1m]))))', []],
    ['a count over all buckets', 'sum by (instance) (rate(llm_time_to_first_token_seconds_bucket{le="+Inf"}[1m]))', []],
    ['heatmap buckets', text(DASHBOARDS[0], heatmapBuckets('llm_request_prompt_tokens')), []],
    ['a label_replace of another label', 'histogram_quantile(0.5, label_replace(sum by (le, engine) (rate(llm_time_to_first_token_seconds_bucket[1m])), "x", "$1", "engine", "(.*)"))', []],
    // What fails.
    ['fleet-wide by le', 'histogram_quantile(0.99, sum by (le) (rate(llm_time_to_first_token_seconds_bucket[1m])))', ['keeps no layout source']],
    ['per instance (vLLM and SGLang share one)', 'histogram_quantile(0.99, sum by (le, instance) (rate(llm_time_to_first_token_seconds_bucket[1m])))', ['keeps no layout source']],
    ['a front door by engine, not job', 'histogram_quantile(0.9, sum by (le, engine) (rate(llm_client_time_to_first_token_seconds_bucket[1m])))', ['keeps no layout source of llm_client']],
    ['without', 'histogram_quantile(0.99, sum without (instance) (rate(llm_time_to_first_token_seconds_bucket[1m])))', ['with without']],
    ['the source dropped by a nested aggregation', 'histogram_quantile(0.99, sum by (le, engine) (sum by (le, instance) (rate(llm_time_to_first_token_seconds_bucket[1m]))))', ['keeps no layout source']],
    ['le dropped by a nested aggregation', 'histogram_quantile(0.99, sum by (le, engine) (sum by (engine) (rate(llm_time_to_first_token_seconds_bucket[1m]))))', ['drops le']],
    ['a heatmap by le', 'sum by (le) (rate(llm_request_prompt_tokens_bucket[1m]))', ['keeps no layout source']],
    ['a one-to-one operation on le only', 'histogram_quantile(0.5, rate(llm_time_to_first_token_seconds_bucket[1m]) / on (le) rate(llm_time_to_first_token_seconds_bucket[5m]))', ['keeps no layout source']],
    ['ignoring the source', 'histogram_quantile(0.5, rate(llm_time_to_first_token_seconds_bucket[1m]) / ignoring (engine) rate(llm_time_to_first_token_seconds_bucket[5m]))', ['ignoring (engine)']],
    ['a label_replace over the source', 'histogram_quantile(0.5, label_replace(sum by (le, engine) (rate(llm_time_to_first_token_seconds_bucket[1m])), "engine", "all", "", ""))', ['writes engine']],
    ['a recorded rate inside histogram_quantile', 'histogram_quantile(0.5, sum by (le) (instance:ttft_bucket:rate1m))', ['keeps no layout source of instance:ttft_bucket:rate1m']],
  ] as const)('%s', (_name, expr, want) => {
    const got = histogramLayoutViolations(expr);
    expect(got.map((v) => v.reason).length, JSON.stringify(got)).toBe(want.length);
    want.forEach((w, i) => expect(got[i].reason).toContain(w));
  });

  it('names the offending aggregation', () => {
    const [v] = histogramLayoutViolations('max(histogram_quantile(0.99, sum by (le, instance) (rate(llm_time_to_first_token_seconds_bucket[1m]))))');
    expect(v.at).toBe('sum by (le, instance) (rate(llm_time_to_first_token_seconds_bucket[1m]))');
  });

  it('takes the layout labels of recorded series from the caller (a rule pack)', () => {
    const expr = 'histogram_quantile(0.5, sum by (le, engine) (engine:ttft_bucket:rate1m))';
    expect(histogramLayoutViolations(expr)).toEqual([]);
    expect(histogramLayoutViolations(expr, () => ['pool'])[0].reason).toContain('one of pool');
  });
});
