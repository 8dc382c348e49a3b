/**
 * Query templates of the differential test, part 1: selectors with every matcher type, functions
 * over range vectors, aggregations. The timing rules they follow are in queries.ts.
 */

/** Counters the templates run counter functions on. */
export const COUNTERS = ['vllm:generation_tokens_total', 'vllm:request_success_total{finished_reason!="abort"}', 'edge_requests_total', 'vllm:time_to_first_token_seconds_count'];
/** Gauges the templates run gauge functions on. */
export const GAUGES = ['vllm:kv_cache_usage_perc', 'DCGM_FI_DEV_POWER_USAGE{gpu="0"}', 'edge_temperature_celsius', 'edge_sparse_gauge', 'DCGM_FI_DEV_FB_USED', 'edge_magnitude'];
/** Instant vectors the aggregations run on. */
export const VECTORS = ['rate(vllm:generation_tokens_total[5m])', 'vllm:kv_cache_usage_perc', 'DCGM_FI_DEV_POWER_USAGE'];
/** Aggregation groupings (none, by, without). */
export const GROUPINGS = ['', ' by (az)', ' without (instance)', ' by (model_name, az)'];
/** The fleet's time-to-first-token histogram buckets. */
export const TTFT = 'vllm:time_to_first_token_seconds_bucket';

/** Every `f(a, b)` over two lists. */
export const cross = <A, B>(as: readonly A[], bs: readonly B[], f: (a: A, b: B) => string): string[] => as.flatMap((a) => bs.map((b) => f(a, b)));

/** Instant selectors: every matcher type, `__name__` regexes, escaped and non-ASCII label values, empty-matcher edge cases. */
export function selectors(): string[] {
  return [
    'vllm:kv_cache_usage_perc',
    'vllm:kv_cache_usage_perc{az="us-east-1b"}',
    'vllm:kv_cache_usage_perc{az!="us-east-1b"}',
    'vllm:kv_cache_usage_perc{az=~"us-east-1[ab]"}',
    'vllm:kv_cache_usage_perc{az!~"us-east-1[ab]", model_name=~".*Qwen.*"}',
    'vllm:kv_cache_usage_perc{az=~"(?i)US-EAST-1C"}',
    'vllm:kv_cache_usage_perc{az=~""}',
    'vllm:kv_cache_usage_perc{nonexistent=""}',
    'vllm:kv_cache_usage_perc{az!=""}',
    '{__name__=~"vllm:(num_requests_running|kv_cache_usage_perc)", instance=~"ip-10-0-0-1.?:8000"}',
    '{__name__=~"edge_.*", job="edge", path!~"/api/.*"}',
    '{__name__="DCGM_FI_DEV_GPU_UTIL", gpu="1", instance!~".*-0-[0-9]:8000"}',
    'edge_labels_gauge',
    'edge_labels_gauge{text="quote\\"inside"}',
    'edge_labels_gauge{text=~"back\\\\\\\\.*"}',
    'edge_labels_gauge{text=~".*ö.*"}',
    'edge_labels_gauge{text=~"\\\\pL+ \\\\pL+"}',
    'edge_labels_gauge{text=~"[[:alpha:]]\\\\.[[:alpha:]]\\\\.c|\\\\w-\\\\w_\\\\w"}',
    'edge_labels_gauge{text!~"a\\\\.b\\\\.c|x-y_z"}',
    'edge_stopped_gauge',
    'edge_late_gauge',
    'nonexistent_metric',
    'edge_magnitude',
    'edge_build_info',
    'edge_requests_total{code="500"}',
  ];
}

/** Functions over range vectors: counter and gauge functions, every `*_over_time`, series that stop, start late or are sparse. */
export function rangeFunctions(): string[] {
  const overTime = ['avg', 'min', 'max', 'sum', 'count', 'last', 'stddev', 'stdvar', 'present'].map((f) => `${f}_over_time`);
  return [
    ...cross(['rate', 'irate', 'increase', 'resets', 'changes'], COUNTERS, (f, c) => `${f}(${c}[5m])`),
    ...cross(['rate', 'increase'], ['edge_requests_total', 'vllm:prompt_tokens_total'], (f, c) => `${f}(${c}[1m])`),
    ...cross(['delta', 'idelta', 'deriv', 'changes', 'resets'], GAUGES, (f, g) => `${f}(${g}[10m])`),
    ...GAUGES.map((g) => `predict_linear(${g}[10m], 600)`),
    ...cross(overTime, GAUGES, (f, g) => `${f}(${g}[5m])`),
    ...GAUGES.map((g) => `quantile_over_time(0.9, ${g}[10m])`),
    'quantile_over_time(0, edge_temperature_celsius[10m])',
    'quantile_over_time(1, edge_temperature_celsius[10m])',
    'quantile_over_time(1.5, edge_temperature_celsius[10m])',
    'count_over_time(edge_late_gauge[15m])',
    'last_over_time(edge_late_gauge[15m])',
    'changes(edge_late_gauge[15m])',
    'count_over_time(edge_stopped_gauge[15m])',
    'rate(edge_stopped_gauge[15m])',
    'rate(edge_sparse_gauge[1m])',
    'deriv(edge_sparse_gauge[2m])',
    'irate(edge_sparse_gauge[3m])',
    'predict_linear(edge_sparse_gauge[3m], 60)',
    'idelta(edge_requests_total[1m])',
    'absent_over_time(nonexistent_metric[5m])',
    'absent_over_time(nonexistent_metric{job="x", a=~"b.*"}[5m])',
    'absent_over_time(edge_late_gauge[5m])',
    'present_over_time(edge_late_gauge[5m])',
  ];
}

/** Every aggregation operator, with and without grouping, parameters in and out of range. */
export function aggregations(): string[] {
  const simple = ['sum', 'avg', 'min', 'max', 'count', 'group', 'stddev', 'stdvar'];
  return [
    ...cross(simple, VECTORS, (a, v) => `${a}(${v})`),
    ...cross(simple.slice(0, 5), GROUPINGS.slice(1), (a, g) => `${a}${g} (rate(vllm:prompt_tokens_total[5m]))`),
    ...cross(['stddev', 'stdvar', 'group'], GROUPINGS.slice(1), (a, g) => `${a}${g} (DCGM_FI_DEV_POWER_USAGE)`),
    ...GROUPINGS.map((g) => `topk${g} (3, DCGM_FI_DEV_POWER_USAGE)`),
    ...GROUPINGS.map((g) => `bottomk${g} (2, DCGM_FI_DEV_POWER_USAGE)`),
    'topk(5, rate(vllm:generation_tokens_total[5m]))',
    'topk(2, vllm:num_requests_running)',
    'bottomk(3, vllm:num_requests_running)',
    'quantile(NaN, DCGM_FI_DEV_POWER_USAGE)',
    'topk(3, edge_temperature_celsius)',
    'bottomk(1, edge_temperature_celsius)',
    'topk(scalar(count(edge_temperature_celsius)) - 1, edge_temperature_celsius)',
    ...cross(['0.5', '0.9', '0', '1', '-1', '2'], ['', ' by (az)'], (q, g) => `quantile${g} (${q}, DCGM_FI_DEV_POWER_USAGE)`),
    'count_values("running", vllm:num_requests_running)',
    'count_values by (az) ("running", vllm:num_requests_running)',
    'count_values("gpu_temp", DCGM_FI_DEV_GPU_TEMP)',
    'sum by (le) (edge_request_duration_seconds_bucket)',
    'sum without (le) (edge_request_duration_seconds_bucket)',
    'avg(edge_magnitude)',
    'sum(edge_magnitude)',
    'stddev(edge_magnitude)',
    'sum by (job) ({__name__=~"edge_.*"})',
    'count by (__name__) ({job="edge"})',
    'max by (instance) (DCGM_FI_DEV_GPU_TEMP) - min by (instance) (DCGM_FI_DEV_GPU_TEMP)',
  ];
}

