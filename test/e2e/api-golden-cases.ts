/**
 * The HTTP API golden cases: requests answered by Prometheus 2.42 (captured into
 * test/e2e/testdata/api/ by `npm run update-goldens -- api`) and by Infersight (compared in
 * api-goldens.test.ts), both over the query-client suite's data set.
 */
import { SUITE_T0_MS } from '../../src/query/testing/index.js';

/** How an answer is compared with its golden. */
export type Compare =
  /** The exact bytes of the body (and status, content type). */
  | 'bytes'
  /** The parsed JSON, vector results in any order. */
  | 'json'
  /** Status and `errorType` only: the message comes from the parser, whose wording may differ. */
  | 'errorType'
  /** Status and the JSON's structure (keys and value types), for answers that differ by nature (build info, flags). */
  | 'shape';

/** One request of the golden suite. */
export interface GoldenCase {
  readonly name: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly params: readonly (readonly [string, string])[];
  readonly headers?: Readonly<Record<string, string>>;
  readonly compare: Compare;
  /** Why the comparison is weaker than `bytes`, or what the case pins. */
  readonly note?: string;
}

const T = (offsetS: number): string => String((SUITE_T0_MS + offsetS * 1000) / 1000);

function c(name: string, path: string, params: [string, string][], compare: Compare = 'bytes', extra: Partial<GoldenCase> = {}): GoldenCase {
  return { name, method: 'GET', path, params, compare, ...extra };
}
const q = (name: string, query: string, offsetS = 307, compare: Compare = 'bytes', extra: [string, string][] = []): GoldenCase =>
  c(name, '/api/v1/query', [['query', query], ['time', T(offsetS)], ...extra], compare);
const qr = (name: string, query: string, from: number, to: number, step: string, compare: Compare = 'bytes'): GoldenCase =>
  c(name, '/api/v1/query_range', [['query', query], ['start', T(from)], ['end', T(to)], ['step', step]], compare);
const WINDOW: [string, string][] = [['start', T(0)], ['end', T(600)]];

/** Every golden case, in file-name order of no importance. */
export const GOLDEN_CASES: readonly GoldenCase[] = [
  // Instant queries: result types, value and timestamp formatting, escaping.
  q('query-selector', 'suite_requests_total'),
  q('query-fractional-time', 'suite_requests_total{instance="a:9000"}', 307.5),
  c('query-rfc3339-time', '/api/v1/query', [['query', 'suite_requests_total{instance="b:9000"}'], ['time', '2023-11-15T00:05:07.25Z']]),
  q('query-escaped-labels', 'suite_short', 200),
  q('query-aggregation', 'sum by (job) (suite_requests_total)', 307, 'json'),
  q('query-drops-name', 'suite_requests_total * 2', 307, 'json'),
  q('query-count-by', 'count by (instance) (suite_gpu_utilization)', 307, 'json'),
  q('query-rate', 'rate(suite_requests_total[1m])', 307, 'json'),
  q('query-range-vector', 'suite_gpu_utilization[1m]', 307, 'json'),
  q('query-empty', 'suite_nonexistent_metric'),
  q('query-scalar-inf', '1/0'),
  q('query-scalar-neg-inf', '-1/0'),
  q('query-scalar-nan', '0/0'),
  q('query-scalar-float-noise', '0.1 + 0.2'),
  q('query-scalar-tiny', '1e-7'),
  q('query-scalar-huge', '2.5e21'),
  q('query-scalar-negative-zero', '-0'),
  q('query-scalar-fractional-time', '1', 307.5),
  q('query-string-fractional-time', '"x"', 307.25),
  q('query-vector-tiny', 'vector(1e-7)', 307.5),
  q('query-vector-huge', 'vector(-2.5e21)'),
  q('query-vector-negative-zero', 'vector(-0)'),
  q('query-string', '"hello <world> & co"'),
  q('query-stats', 'suite_short', 200, 'shape', [['stats', 'all']]),
  q('query-timeout-param', 'suite_short', 200, 'bytes', [['timeout', '1m']]),
  { ...q('query-post-form', 'suite_requests_total{instance="a:9000"}'), method: 'POST' },
  { ...q('query-gzip', 'suite_requests_total'), headers: { 'Accept-Encoding': 'gzip' } },
  // Range queries.
  qr('range-selector', 'suite_requests_total', 0, 60, '15'),
  qr('range-duration-step', 'sum(suite_requests_total)', 0, 120, '30s', 'json'),
  qr('range-lookback-ends', 'suite_short', 90, 450, '1m'),
  qr('range-scalar', '1 + 1', 0, 30, '15'),
  qr('range-fractional-step', 'suite_requests_total{instance="a:9000"}', 0, 10, '1.005'),
  // Parameter errors: Prometheus' texts.
  q('error-parse', 'sum(', 307, 'errorType'),
  q('error-type-check', 'rate(suite_short)', 307, 'errorType'),
  q('error-empty-matchers', '{__name__=~".*"}', 307, 'errorType'),
  c('error-missing-query', '/api/v1/query', [['time', T(0)]], 'errorType'),
  c('error-time', '/api/v1/query', [['query', 'up'], ['time', 'yesterday']]),
  c('error-timeout', '/api/v1/query', [['query', 'up'], ['timeout', 'soon']]),
  c('error-range-start', '/api/v1/query_range', [['query', 'up'], ['start', 'x'], ['end', '1'], ['step', '1']]),
  c('error-range-end', '/api/v1/query_range', [['query', 'up'], ['start', '1'], ['end', '']]),
  c('error-range-end-before-start', '/api/v1/query_range', [['query', 'up'], ['start', '2'], ['end', '1'], ['step', '1']]),
  c('error-range-step-missing', '/api/v1/query_range', [['query', 'up'], ['start', '1'], ['end', '2']]),
  c('error-range-step-zero', '/api/v1/query_range', [['query', 'up'], ['start', '1'], ['end', '2'], ['step', '0']]),
  c('error-range-step-syntax', '/api/v1/query_range', [['query', 'up'], ['start', '1'], ['end', '2'], ['step', '1h1h']]),
  c('error-range-step-overflow', '/api/v1/query_range', [['query', 'up'], ['start', '1'], ['end', '2'], ['step', '1e10']]),
  c('error-range-too-many-points', '/api/v1/query_range', [['query', 'up'], ['start', '0'], ['end', '100000'], ['step', '1']]),
  qr('error-range-string', '"x"', 0, 60, '15', 'errorType'),
  qr('error-range-parse', 'sum(', 0, 60, '15', 'errorType'),
  // Series, labels, label values, metadata.
  c('series', '/api/v1/series', [['match[]', 'suite_requests_total'], ...WINDOW]),
  c('series-no-window', '/api/v1/series', [['match[]', 'suite_short']]),
  c('series-dedup', '/api/v1/series', [['match[]', 'suite_short'], ['match[]', '{instance="c"}'], ...WINDOW]),
  c('series-outside-window', '/api/v1/series', [['match[]', 'suite_short'], ['start', T(-7200)], ['end', T(-3600)]]),
  { ...c('series-post', '/api/v1/series', [['match[]', 'suite_gpu_utilization'], ...WINDOW]), method: 'POST' },
  c('series-no-match', '/api/v1/series', WINDOW),
  c('series-empty-matchers', '/api/v1/series', [['match[]', '{foo=""}']]),
  c('series-bad-match', '/api/v1/series', [['match[]', 'bad{']], 'errorType'),
  c('series-bad-start', '/api/v1/series', [['match[]', 'up'], ['start', 'x']]),
  c('labels', '/api/v1/labels', []),
  c('labels-window', '/api/v1/labels', WINDOW),
  c('labels-match', '/api/v1/labels', [['match[]', 'suite_short'], ...WINDOW]),
  c('labels-bad-match', '/api/v1/labels', [['match[]', 'bad{']], 'errorType'),
  c('label-values', '/api/v1/label/instance/values', []),
  c('label-values-name', '/api/v1/label/__name__/values', WINDOW),
  c('label-values-match', '/api/v1/label/__name__/values', [['match[]', '{instance="a:9000"}']]),
  c('label-values-none', '/api/v1/label/job/values', [['match[]', 'suite_short']]),
  c('label-values-invalid-name', '/api/v1/label/in-valid/values', []),
  c('metadata', '/api/v1/metadata', [], 'errorType', {
    note: "ours lists the unified metric catalog (src/semconv); Prometheus lists what its targets exposed, here nothing",
  }),
  c('metadata-metric', '/api/v1/metadata', [['metric', 'suite_short'], ['limit', '1']]),
  c('metadata-bad-limit', '/api/v1/metadata', [['limit', 'x']]),
  // Exemplars (none stored), formatting.
  c('exemplars', '/api/v1/query_exemplars', [['query', 'suite_short'], ...WINDOW]),
  c('exemplars-no-selector', '/api/v1/query_exemplars', [['query', '1 + 1']]),
  c('exemplars-end-before-start', '/api/v1/query_exemplars', [['query', 'up'], ['start', '2'], ['end', '1']]),
  c('format-query', '/api/v1/format_query', [['query', 'sum(rate(foo{job="a"}[5m]))by(x)']]),
  c('format-query-long', '/api/v1/format_query', [['query', 'sum by (job, instance) (rate(http_requests_total{job="api-server",handler="/api/v1/query"}[5m])) / ignoring(code) group_left sum by (job, instance) (rate(http_requests_total[5m]))']]),
  c('format-query-error', '/api/v1/format_query', [['query', 'sum(']], 'errorType'),
  // Status endpoints: structure only, the numbers are each server's own.
  c('status-buildinfo', '/api/v1/status/buildinfo', [], 'shape'),
  c('status-runtimeinfo', '/api/v1/status/runtimeinfo', [], 'shape'),
  c('status-tsdb', '/api/v1/status/tsdb', [], 'shape'),
];
