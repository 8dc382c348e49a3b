/**
 * Query templates of the differential test, part 2: binary and set operators with vector
 * matching, classic-histogram quantiles, label and math functions, time functions, offsets, `@`,
 * subqueries, literals and a few invalid queries. The timing rules they follow are in queries.ts.
 */
import { TTFT } from './query-templates.js';

/** Arithmetic, comparison (with and without `bool`) and set operators; vector matching with on/ignoring/group_left/group_right; matching errors. */
export function binaryOps(): string[] {
  const arith = ['+', '-', '*', '/', '%', '^'];
  const cmp = ['==', '!=', '>', '<', '>=', '<='];
  return [
    ...arith.map((op) => `edge_temperature_celsius ${op} 3`),
    ...arith.map((op) => `2 ${op} edge_temperature_celsius`),
    // 2.42 keeps __name__ through atan2 (dropped since 2.46, prometheus/prometheus#12595): one known difference, the rest name-free.
    'edge_temperature_celsius atan2 3',
    'abs(edge_temperature_celsius) atan2 3',
    '2 atan2 abs(edge_temperature_celsius)',
    'abs(edge_temperature_celsius{room="lab"}) atan2 ignoring(room) abs(edge_temperature_celsius{room="roof"})',
    ...cmp.map((op) => `vllm:kv_cache_usage_perc ${op} 0`),
    ...cmp.map((op) => `vllm:kv_cache_usage_perc ${op} bool 0.1`),
    ...cmp.map((op) => `0 ${op} vllm:kv_cache_usage_perc`),
    '1 + 2 * 3 - 4 / 8', '2 ^ 3 ^ 2', '-2 ^ 2', '10 % 3', '-7 % 3', '1 / 0', '-1 / 0', '0 / 0', '3 > bool 2', '2 == bool 2', '5 atan2 2',
    'vllm:prompt_tokens_total / vllm:generation_tokens_total',
    'rate(vllm:prompt_tokens_total[5m]) / rate(vllm:generation_tokens_total[5m])',
    'vllm:request_success_total / ignoring(finished_reason) group_left vllm:time_to_first_token_seconds_count',
    'vllm:request_success_total / on(instance, job) group_left vllm:time_to_first_token_seconds_count',
    'DCGM_FI_DEV_POWER_USAGE * on(instance) group_left(version) edge_build_info',
    'edge_build_info * on(instance) group_right(version) DCGM_FI_DEV_POWER_USAGE',
    'edge_build_info * on(instance) group_right DCGM_FI_DEV_POWER_USAGE',
    'vllm:kv_cache_usage_perc * on(instance) group_left(version, job) edge_build_info',
    'DCGM_FI_DEV_POWER_USAGE > bool on(instance) group_left avg by (instance) (DCGM_FI_DEV_POWER_USAGE)',
    'DCGM_FI_DEV_POWER_USAGE > on(instance) group_left avg by (instance) (DCGM_FI_DEV_POWER_USAGE)',
    'sum by (az) (vllm:num_requests_running) / ignoring(model_name) group_left sum by (az, model_name) (vllm:num_requests_running)',
    'sum by (az, model_name) (vllm:num_requests_running) / on(az) group_left sum by (az) (vllm:num_requests_running)',
    'DCGM_FI_DEV_POWER_USAGE * on(instance) DCGM_FI_DEV_POWER_USAGE',
    'DCGM_FI_DEV_POWER_USAGE{gpu="0"} - ignoring(gpu, UUID) DCGM_FI_DEV_POWER_USAGE{gpu="1"}',
    'DCGM_FI_DEV_FB_USED{gpu="0"} < ignoring(gpu, UUID) DCGM_FI_DEV_FB_USED{gpu="1"}',
    'vllm:kv_cache_usage_perc and vllm:num_requests_running > 20',
    'vllm:kv_cache_usage_perc and on(az) (vllm:num_requests_running > 15)',
    'vllm:kv_cache_usage_perc unless on(instance) (vllm:kv_cache_usage_perc > 0.2)',
    'vllm:kv_cache_usage_perc > 0.2 or vllm:num_requests_running',
    'edge_temperature_celsius or edge_sparse_gauge',
    'sum(nonexistent_metric) or vector(0)',
    'edge_late_gauge or on() vector(-1)',
    'edge_stopped_gauge unless edge_late_gauge',
    '(edge_requests_total or edge_temperature_celsius) and ignoring(path, code, room) edge_const',
    'edge_magnitude / on() group_left scalar(edge_const)',
    'vllm:kv_cache_usage_perc * scalar(count(vllm:kv_cache_usage_perc))',
    '-vllm:kv_cache_usage_perc',
    '+edge_temperature_celsius',
  ];
}

/** `histogram_quantile` over classic buckets: aggregated and per series, out-of-range quantiles, missing `+Inf`, broken bucket counts. */
export function histograms(): string[] {
  const qs = ['0.99', '0.5', '0.25', '0', '1', '-0.5', '1.5'];
  return [
    ...qs.map((q) => `histogram_quantile(${q}, sum by (le, model_name) (rate(${TTFT}[5m])))`),
    `histogram_quantile(0.9, rate(${TTFT}[5m]))`,
    `histogram_quantile(0.5, sum by (le) (rate(${TTFT}[10m])))`,
    `histogram_quantile(0.9, sum without (instance, az, instance_type) (increase(${TTFT}[5m])))`,
    'histogram_quantile(0.9, rate(edge_request_duration_seconds_bucket[5m]))',
    'histogram_quantile(0.5, sum by (le) (rate(edge_request_duration_seconds_bucket[10m])))',
    'histogram_quantile(0.75, edge_request_duration_seconds_bucket)',
    ...['0.1', '0.5', '0.9'].map((q) => `histogram_quantile(${q}, edge_broken_bucket)`),
    `histogram_quantile(0.5, ${TTFT}{le=~"0.1|1|\\\\+Inf"})`,
    `histogram_quantile(0.5, ${TTFT}{le!="+Inf"})`,
    'rate(vllm:time_to_first_token_seconds_sum[5m]) / rate(vllm:time_to_first_token_seconds_count[5m])',
  ];
}

/** Math and trigonometric functions, clamp/round, label_replace/label_join, sort, absent, scalar/vector, time functions, literals. */
export function labelsAndMath(): string[] {
  const math = ['abs', 'ceil', 'floor', 'exp', 'ln', 'log2', 'log10', 'sqrt', 'sgn', 'round', 'deg', 'rad', 'sin', 'cos', 'tan', 'atan', 'sinh', 'cosh', 'tanh', 'asinh'];
  return [
    ...math.map((f) => `${f}(edge_temperature_celsius)`),
    ...['asin', 'acos', 'atanh', 'acosh'].map((f) => `${f}(edge_temperature_celsius / 10)`),
    'round(edge_temperature_celsius, 0.5)', 'round(edge_temperature_celsius, 3)', 'round(edge_magnitude, 1000)',
    'clamp(edge_temperature_celsius, -1, 1)', 'clamp(edge_temperature_celsius, 1, -1)', 'clamp_min(edge_temperature_celsius, 0)', 'clamp_max(edge_temperature_celsius, 0)',
    'exp(edge_magnitude)', 'ln(edge_magnitude)', 'pi()', 'pi() * 2',
    'label_replace(vllm:kv_cache_usage_perc, "host", "$1", "instance", "(.*):.*")',
    'label_replace(vllm:kv_cache_usage_perc, "host", "$1-$2", "instance", "ip-(\\\\d+)-.*-(\\\\d+):8000")',
    'label_replace(vllm:kv_cache_usage_perc, "host", "$1", "instance", "nomatch(.*)")',
    'label_replace(vllm:kv_cache_usage_perc, "az", "", "az", ".*")',
    'label_replace(vllm:kv_cache_usage_perc, "zone", "${1}x", "az", "us-east-(.*)")',
    'label_replace(edge_temperature_celsius, "__name__", "renamed_$1", "room", "(.*)")',
    'label_replace(rate(edge_requests_total[5m]), "code", "5xx", "code", "5..")',
    'label_join(DCGM_FI_DEV_POWER_USAGE, "id", "/", "instance", "gpu")',
    'label_join(DCGM_FI_DEV_POWER_USAGE, "az", "", "gpu")',
    'label_join(edge_labels_gauge, "joined", "|", "text", "job", "missing")',
    // 3.x accepts any UTF-8 label name; 2.42 only [a-zA-Z_][a-zA-Z0-9_]*: one known difference; invalid UTF-8 fails in both.
    'label_replace(vllm:kv_cache_usage_perc, "invalid-name", "x", "az", ".*")',
    'label_replace(vllm:kv_cache_usage_perc, "\\xff", "x", "az", ".*")',
    'label_replace(vllm:kv_cache_usage_perc, "host", "$host", "instance", "(?P<host>[^:]+):.*")',
    'label_replace(vllm:kv_cache_usage_perc, "src", "", "", "")',
    'label_replace(vllm:kv_cache_usage_perc, "x", "a", "az", "(.*")',
    'count_values("value", edge_magnitude)',
    'count_values("value", edge_temperature_celsius)',
    'count_values("value", rate(edge_requests_total[5m]))',
    'sgn(-edge_const * 0)',
    '-sum(DCGM_FI_DEV_POWER_USAGE)',
    '1 + 2 * 3 ^ 2 % 5', '-(2 ^ 2)', '.5 + 1e3 - 0x10',
    'sort(vllm:kv_cache_usage_perc)',
    'sort_desc(DCGM_FI_DEV_POWER_USAGE{gpu="0"})',
    'sort(edge_temperature_celsius)',
    'absent(nonexistent_metric)',
    'absent(nonexistent_metric{job="x", a=~"b", c="d", c="e"})',
    'absent(vllm:kv_cache_usage_perc)',
    'absent(sum(nonexistent_metric))',
    'absent(edge_late_gauge)',
    'scalar(sum(vllm:num_requests_running))',
    'scalar(vllm:kv_cache_usage_perc)',
    'scalar(nonexistent_metric)',
    'vector(1)', 'vector(time())', 'vector(scalar(edge_const))',
    'time()', 'timestamp(vllm:kv_cache_usage_perc)', 'timestamp(edge_sparse_gauge)', 'timestamp(abs(edge_sparse_gauge))',
    ...['hour', 'minute', 'month', 'year', 'day_of_month', 'day_of_week', 'day_of_year', 'days_in_month'].flatMap((f) => [`${f}()`, `${f}(timestamp(edge_sparse_gauge))`]),
    'minute(vector(1764560000))', 'days_in_month(vector(1709164800))', 'day_of_year(vector(1735603200))',
    '42', '-1.5e3', 'Inf', '-Inf', 'NaN', '0x1F',
  ];
}

/** Offsets (also negative), `@` (also start()/end()), subqueries (nested too), range-vector results and invalid queries. */
export function timeAndSubqueries(at: number): string[] {
  return [
    'vllm:kv_cache_usage_perc offset 10m',
    'vllm:kv_cache_usage_perc offset -5m',
    'rate(vllm:generation_tokens_total[5m] offset 15m)',
    'sum(rate(edge_requests_total[5m] offset 1m)) by (path)',
    `vllm:kv_cache_usage_perc @ ${at}`,
    `rate(vllm:generation_tokens_total[5m] @ ${at})`,
    `rate(vllm:generation_tokens_total[5m] @ ${at} offset 5m)`,
    'edge_temperature_celsius @ start()',
    'edge_temperature_celsius @ end()',
    `sum(vllm:num_requests_running @ ${at}) - sum(vllm:num_requests_running)`,
    'max_over_time(rate(vllm:generation_tokens_total[1m])[30m:1m])',
    'avg_over_time(vllm:kv_cache_usage_perc[10m:30s])',
    'min_over_time(sum by (az) (rate(vllm:prompt_tokens_total[5m]))[20m:])',
    'max_over_time(deriv(edge_temperature_celsius[5m])[15m:1m] offset 5m)',
    'rate(edge_requests_total[5m:15s])',
    'count_over_time(edge_sparse_gauge[10m:15s])',
    `last_over_time(vllm:kv_cache_usage_perc[5m:1m] @ ${at})`,
    'max_over_time(max_over_time(edge_temperature_celsius[1m])[10m:2m])',
    'stddev_over_time(sum(DCGM_FI_DEV_POWER_USAGE)[20m:1m])',
    'quantile_over_time(0.5, (edge_temperature_celsius > 0)[10m:1m])',
    'increase(vllm:generation_tokens_total[5m]) > bool 1000',
    'edge_sparse_gauge[5m]',
    'edge_temperature_celsius[1m]',
    'vllm:kv_cache_usage_perc{instance="ip-10-0-0-1:8000"}[2m] offset 1m',
    `edge_sparse_gauge[5m] @ ${at}`,
    'edge_stopped_gauge[30m]',
    // A nested subquery's window must not end on its own step grid (it starts on the outer one): 10m30s, not 10m.
    'max_over_time(edge_sparse_gauge[10m30s:1m])[5m:1m]',
    'max_over_time(rate(edge_requests_total[2m])[10m30s:1m])[5m:1m]',
    'vllm:kv_cache_usage_perc offset 1m30s',
    `edge_temperature_celsius @ ${at + 0.5}`,
    'timestamp(edge_sparse_gauge offset 2m)',
    `timestamp(edge_sparse_gauge @ ${at})`,
    'time() - timestamp(edge_sparse_gauge)',
    'time() + vector(1)',
    'changes(edge_temperature_celsius[10m:1m])',
    'resets(edge_requests_total[20m:1m])',
    'absent_over_time(nonexistent_metric[10m:1m])',
    'max_over_time(vllm:kv_cache_usage_perc[1h])',
    'vllm:kv_cache_usage_perc > bool on(instance) vllm:kv_cache_usage_perc offset 5m',
    '"a string"',
    'rate(vllm:kv_cache_usage_perc)',
    'sum(vllm:kv_cache_usage_perc',
    'edge_build_info * on(instance) group_left DCGM_FI_DEV_POWER_USAGE',
    'edge_requests_total + on(instance) group_left edge_const',
    'nonexistent_function(vllm:kv_cache_usage_perc)',
    '{job=~".*"}',
  ];
}

