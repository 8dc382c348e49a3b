/**
 * Recording rules for the fleet-wide Insights panels (src/dashboards): the heavy aggregations over
 * every replica, recorded once per interval so that a dashboard over hours reads a few series.
 * Names follow Prometheus' `level:metric:operations`. Bucket rates keep a layout label (`engine` for
 * engine histograms, `job` for the front door's) in their `by`, so a quantile over a recorded series
 * never mixes bucket layouts (docs/design/histogram-layouts.md).
 */
import { recording } from '../slo/generate.js';
import type { RecordingRuleSpec } from '../types.js';

/** `sum by (le, endpoint, component, <source>) (rate(h_bucket[5m]))`, named as the convention asks. */
function bucketRate(histogram: string, source: 'engine' | 'job'): RecordingRuleSpec {
  return recording(`endpoint_component_${source}:${histogram}_bucket:rate5m`, `sum by (le, endpoint, component, ${source}) (rate(${histogram}_bucket[5m]))`);
}

/** The recording rules of the Insights panels. */
export function insightsRecordingRules(): RecordingRuleSpec[] {
  const finished = 'llm_e2e_request_latency_seconds_count';
  const key = 'model, instance_type';
  return [
    bucketRate('llm_time_to_first_token_seconds', 'engine'),
    bucketRate('llm_inter_token_latency_seconds', 'engine'),
    bucketRate('llm_e2e_request_latency_seconds', 'engine'),
    bucketRate('llm_client_time_to_first_token_seconds', 'job'),
    bucketRate('llm_client_request_duration_seconds', 'job'),
    recording('az_endpoint:llm_requests_finished:rate5m', `sum by (az, endpoint) (rate(${finished}[5m]))`),
    recording('endpoint_component_status_class:llm_client_requests:rate5m', 'sum by (endpoint, component, status_class) (rate(llm_client_requests_total[5m]))'),
    recording('component:llm_generation_tokens:rate5m', 'sum by (endpoint, component) (rate(llm_generation_tokens_total[5m]))'),
    recording('component:llm_prompt_tokens:rate5m', 'sum by (endpoint, component) (rate(llm_prompt_tokens_total[5m]))'),
    recording(
      'replica:llm_benchmark_efficiency:ratio_rate5m',
      `sum by (endpoint, component, ${key}, replica) (rate(llm_generation_tokens_total[5m])) / on (${key}) group_left max by (${key}) (llm_benchmark_output_tokens_per_second)`,
    ),
    recording('engine:llm_kv_cache_usage_ratio:max', 'max by (endpoint, component, engine) (llm_kv_cache_usage_ratio)'),
    recording('instance:gpu_memory_used:ratio', 'sum by (instance, az, endpoint) (gpu_memory_used_bytes) / (sum by (instance, az, endpoint) (gpu_memory_used_bytes) + sum by (instance, az, endpoint) (gpu_memory_free_bytes))'),
    recording('instance:gpu_utilization:avg', 'avg by (instance, az, endpoint) (gpu_utilization_ratio)'),
    recording('component_dimension:llm_quality_score:avg', 'avg by (endpoint, component, dimension) (llm_quality_score)'),
  ];
}
