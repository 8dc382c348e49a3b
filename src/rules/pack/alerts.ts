/**
 * The pack's infrastructure alerts as typed data: KV-cache pressure, GPU memory, AZ traffic, error
 * classes, throughput against the benchmark and slow cold starts. Every selector uses catalog names
 * (src/semconv) and `up`, Prometheus' own per-target series. Runbooks: docs/runbooks.md.
 */
import type { AlertingRuleSpec } from '../types.js';
import { alerting } from '../slo/generate.js';
import type { RulePackOptions } from './options.js';

/**
 * Builds an alert with the pack's annotations: `summary`, `description` and `runbook`, the runbook
 * base plus `#` and the alert's name in lower case (the anchor of its heading in docs/runbooks.md).
 */
export function packAlert(
  o: Required<RulePackOptions>,
  alert: string,
  expr: string,
  a: { forMs: number; severity: 'page' | 'ticket' | 'info'; summary: string; description: string; labels?: Record<string, string> },
): AlertingRuleSpec {
  return alerting(alert, expr, {
    forMs: a.forMs,
    labels: { severity: a.severity, ...(a.labels ?? {}) },
    annotations: { summary: a.summary, description: a.description, runbook: `${o.runbookBase}#${alert.toLowerCase()}` },
  });
}

const MIN = 60_000;
/** Requests the engines finished (every engine exposes an end-to-end histogram; DJL/LMI has no TTFT one). */
const FINISHED = 'llm_e2e_request_latency_seconds_count';
const DEPLOYMENT = 'az, endpoint, component';

/** `x` as a percentage in a description. */
const pct = (v: number) => `${Math.round(v * 1000) / 10} %`;

/** KV-cache usage inside or above the band for 5 minutes (the pre-scaling signal), and above it. */
export function kvCacheAlerts(o: Required<RulePackOptions>): AlertingRuleSpec[] {
  const usage = 'max by (endpoint, component, replica, instance, az, engine) (llm_kv_cache_usage_ratio)';
  return [
    packAlert(o, 'KVCacheScaleOutSignal', `${usage} >= ${o.kvBand.low}`, {
      forMs: 5 * MIN,
      severity: 'info',
      summary: 'KV cache of {{ $labels.replica }} ({{ $labels.component }}) at {{ $value | humanizePercentage }}: scale out before latency degrades',
      description: `KV-cache usage stayed inside or above the ${pct(o.kvBand.low)}–${pct(o.kvBand.high)} band for 5 minutes. Latency is still fine at this level; it is the early signal to add replicas.`,
    }),
    packAlert(o, 'KVCacheAboveBand', `${usage} > ${o.kvBand.high}`, {
      forMs: 5 * MIN,
      severity: 'ticket',
      summary: 'KV cache of {{ $labels.replica }} ({{ $labels.component }}) above the band at {{ $value | humanizePercentage }}',
      description: `KV-cache usage stayed above ${pct(o.kvBand.high)} for 5 minutes: preemptions and TTFT growth follow as it nears 100 %.`,
    }),
  ];
}

/** A GPU whose framebuffer is nearly full (DCGM: used against used plus free). */
export function gpuAlerts(o: Required<RulePackOptions>): AlertingRuleSpec[] {
  return [
    packAlert(o, 'GPUMemoryNearlyFull', `gpu_memory_used_bytes / (gpu_memory_used_bytes + gpu_memory_free_bytes) > ${o.gpuMemoryRatio}`, {
      forMs: 2 * MIN,
      severity: 'ticket',
      summary: 'GPU {{ $labels.gpu }} of {{ $labels.instance }} has {{ $value | humanizePercentage }} of its memory in use',
      description: `GPU framebuffer use above ${pct(o.gpuMemoryRatio)} for 2 minutes. Engines reserve about 90 % on purpose; above that a foreign process or a leak is taking memory and the next allocation can fail with CUDA OOM.`,
    }),
  ];
}

/** Traffic per engine in an AZ against the endpoint's mean over its AZs. */
const perEngine = `(sum by (endpoint, az) (rate(${FINISHED}[5m])) / count by (endpoint, az) (up{replica!=""} == 1))`;

/** An AZ with engines up and no traffic, and an AZ that takes a skewed share. */
export function azAlerts(o: Required<RulePackOptions>): AlertingRuleSpec[] {
  return [
    packAlert(o, 'AZNoTraffic', `count by (${DEPLOYMENT}) (up{replica!=""} == 1) unless on (${DEPLOYMENT}) (sum by (${DEPLOYMENT}) (rate(${FINISHED}[5m])) > 0)`, {
      forMs: 10 * MIN,
      severity: 'ticket',
      summary: '{{ $labels.component }} ({{ $labels.endpoint }}) has {{ $value }} engine(s) up in {{ $labels.az }} and no traffic there',
      description: 'Engines of this deployment are up and scraped in the AZ, but none finished a request for 10 minutes: the router or the load balancer stopped sending to the AZ.',
    }),
    packAlert(o, 'AZTrafficSkew', `${perEngine} / ignoring (az) group_left avg by (endpoint) (${perEngine}) > ${o.azSkewFactor}`, {
      forMs: 5 * MIN,
      severity: 'ticket',
      summary: '{{ $labels.az }} takes {{ $value | printf "%.1f" }}× the fair share per engine of {{ $labels.endpoint }}',
      description: `Requests per engine in this AZ stayed above ${o.azSkewFactor} times the endpoint's mean over its AZs for 5 minutes (an AZ's share divided by its engines, so an AZ with fewer replicas is not flagged).`,
    }),
  ];
}

/** Front-door requests by status class per endpoint and component. */
function requestRatio(statusClass: string): string {
  const by = 'sum by (endpoint, component)';
  return `${by} (rate(llm_client_requests_total{status_class="${statusClass}"}[5m])) / ${by} (rate(llm_client_requests_total[5m]))`;
}

/** 429s, 5xx and mid-stream aborts, each on its own. */
export function errorAlerts(o: Required<RulePackOptions>): AlertingRuleSpec[] {
  const by = 'sum by (endpoint, component)';
  return [
    packAlert(o, 'RateLimited429RatioHigh', `${requestRatio('429')} > ${o.ratio429}`, {
      forMs: 5 * MIN,
      severity: 'ticket',
      summary: '{{ $value | humanizePercentage }} of requests to {{ $labels.component }} are refused with 429',
      description: `More than ${pct(o.ratio429)} of front-door requests were rate-limited (429) for 5 minutes: demand exceeds the limits or the capacity behind them. Not a server error: 5xx has its own alert.`,
    }),
    packAlert(o, 'ServerError5xxRatioHigh', `${requestRatio('5xx')} > ${o.ratio5xx}`, {
      forMs: 5 * MIN,
      severity: 'page',
      summary: '{{ $value | humanizePercentage }} of requests to {{ $labels.component }} fail with 5xx',
      description: `More than ${pct(o.ratio5xx)} of front-door requests failed with a 5xx for 5 minutes.`,
    }),
    packAlert(o, 'MidStreamAbortRatioHigh', `${by} (rate(llm_client_mid_stream_errors_total[5m])) / ${by} (rate(llm_client_requests_total{status_class="2xx"}[5m])) > ${o.midStreamAbortRatio}`, {
      forMs: 5 * MIN,
      severity: 'ticket',
      summary: '{{ $value | humanizePercentage }} of streams of {{ $labels.component }} break after the first chunk',
      description: `More than ${pct(o.midStreamAbortRatio)} of successful (200) streams were cut after their first chunk for 5 minutes. Status codes do not show these: the client got a 200 and a truncated answer.`,
    }),
  ];
}

/**
 * Output throughput per replica under a share of its benchmark while requests queue on it and its
 * KV cache is not the limit. Low throughput alone is what a healthy fleet shows at low demand (the
 * demo fleet reads 2–17 % of its benchmark); with a queue and room in the KV cache it is the engine
 * (a small batch, eager mode, a throttled GPU). vLLM and SGLang only: DJL/LMI reports neither
 * generated tokens nor a queue gauge.
 */
export function throughputAlerts(o: Required<RulePackOptions>): AlertingRuleSpec[] {
  const key = 'model, instance_type';
  const tps = `sum by (endpoint, component, ${key}, replica) (rate(llm_generation_tokens_total[5m]))`;
  const share = `${tps} / on (${key}) group_left max by (${key}) (llm_benchmark_output_tokens_per_second)`;
  const queued = `avg by (component, replica) (avg_over_time(llm_requests_waiting[10m])) > ${o.queuedRequests}`;
  const kvRoom = `max by (component, replica) (llm_kv_cache_usage_ratio) < ${o.kvBand.high}`;
  return [
    packAlert(o, 'OutputTPSBelowBenchmark', `(${share} < ${o.benchmarkShare}) and on (component, replica) (${queued}) and on (component, replica) (${kvRoom})`, {
      forMs: 10 * MIN,
      severity: 'ticket',
      summary: '{{ $labels.replica }} ({{ $labels.component }}) generates {{ $value | humanizePercentage }} of its benchmark while requests queue',
      description: `Output tokens per second under ${pct(o.benchmarkShare)} of the benchmark for {{ $labels.model }} on {{ $labels.instance_type }} for 10 minutes, with more than ${o.queuedRequests} requests waiting and the KV cache under ${pct(o.kvBand.high)}: the engine is not using its GPU.`,
    }),
  ];
}

/** A replica that has been starting (instance, container, download, load, warm-up) for too long. */
export function coldStartAlerts(o: Required<RulePackOptions>): AlertingRuleSpec[] {
  const elapsed = 'sum by (endpoint, component, replica, instance, az) (llm_cold_start_phase_duration_seconds)';
  return [
    packAlert(o, 'ColdStartSlow', `(${elapsed} > ${o.coldStartSeconds}) and on (replica) (llm_replica_state{state=~"pending|starting"} == 1)`, {
      forMs: 0,
      severity: 'ticket',
      summary: '{{ $labels.replica }} ({{ $labels.component }}) has been starting for {{ $value | humanizeDuration }}',
      description: `A cold start past ${o.coldStartSeconds} s: the new capacity a scale-out asked for is not serving. The phases (instance launch, container, download, load, warm-up) say where the time goes.`,
    }),
  ];
}
