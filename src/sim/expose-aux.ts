/**
 * The simulator's own exporters, written with the catalog's names (they stand in for what
 * Infersight's gateway, fleet view and quality evaluators would produce): the front door
 * (`llm_client_*`), the platform (`llm_replicas`, scaling and cold-start events, the benchmark
 * throughput) and the quality exporter (`llm_quality_*`). One target each per component; Go
 * number formatting.
 */
import { FamilySet } from './families.js';
import type { ComponentRuntime } from './fleet.js';
import { benchmarkOutputTokensPerSec, buildPerfModel } from './perf.js';
import { QUALITY_DIMENSIONS } from './quality.js';

/** The front door of a component. */
export function frontdoorFamilies(c: ComponentRuntime): FamilySet {
  const fs = new FamilySet();
  const f = c.frontdoor;
  const classes = [
    ['2xx', () => f.requests2xx],
    ['4xx', () => f.requests4xx],
    ['429', () => f.requests429],
    ['5xx', () => f.requests5xx],
  ] as const;
  for (const [cls, get] of classes) fs.counter('llm_client_requests_total', 'Requests through the front door, by status class.', get, { status_class: cls });
  fs.counter('llm_client_mid_stream_errors_total', 'Streams that failed after the first chunk was sent.', () => f.midStreamErrors, { error_class: 'engine_error' });
  fs.gauge('llm_client_requests_in_flight', 'Requests the front door is serving right now.', () => f.inFlight);
  fs.histogram('llm_client_time_to_first_token_seconds', 'Client-side time to the first streamed chunk.', f.ttft.upper, () => f.ttft, { le: 'go' });
  fs.histogram('llm_client_request_duration_seconds', 'Client-side end-to-end request duration.', f.duration.upper, () => f.duration, { le: 'go' });
  fs.histogram('llm_client_overhead_latency_seconds', 'Platform overhead: client-side duration minus model latency.', f.overhead.upper, () => f.overhead, { le: 'go' });
  return fs;
}

/**
 * The benchmark output throughput of one replica of `c` (its model on its endpoint's instance type
 * with its GPUs per copy and engine defaults): what a stored benchmark table would hold.
 */
export function componentBenchmarkTps(c: ComponentRuntime): number {
  const perf = buildPerfModel(c.model, c.endpoint.type, c.spec.gpusPerCopy, c.spec.engine, { downloadMBps: 1 });
  return benchmarkOutputTokensPerSec(perf);
}

/**
 * The platform's view of a component: replicas by state, scaling and cold starts, and the
 * benchmark throughput of its model on its instance type (the target carries `instance_type`).
 * The benchmark is stated per wall-clock second, times `speed()` (virtual seconds per wall
 * second, Simulation.speed), because scraped token rates are per wall-clock second too: at
 * `--speed N` both are N times the simulated rate and their ratio stays true.
 */
export function platformFamilies(c: ComponentRuntime, speed: () => number = () => 1): FamilySet {
  const fs = new FamilySet();
  const p = c.platform;
  const benchmark = componentBenchmarkTps(c);
  fs.gauge('llm_benchmark_output_tokens_per_second', 'Benchmark output throughput of one replica of a model on an instance type.', () => benchmark * speed());
  const count = (pred: (phase: string) => boolean) => () => c.replicas.filter((r) => pred(r.phase)).length;
  fs.gauge('llm_replicas', 'Replicas of a deployment, by state.', () => c.active.length, { state: 'desired' });
  fs.gauge('llm_replicas', 'Replicas of a deployment, by state.', count((s) => s === 'ready'), { state: 'ready' });
  fs.gauge('llm_replicas', 'Replicas of a deployment, by state.', count((s) => s !== 'ready' && s !== 'draining' && s !== 'stopped'), { state: 'starting' });
  fs.gauge('llm_replicas', 'Replicas of a deployment, by state.', count((s) => s === 'draining'), { state: 'draining' });
  fs.counter('llm_scaling_events_total', 'Scaling actions, by direction.', () => p.scaleOut, { direction: 'out' });
  fs.counter('llm_scaling_events_total', 'Scaling actions, by direction.', () => p.scaleIn, { direction: 'in' });
  fs.histogram('llm_scaling_duration_seconds', 'From a scaling decision to the new capacity serving.', p.scaleOutDuration.upper, () => p.scaleOutDuration, { le: 'go', labels: { direction: 'out' } });
  fs.histogram('llm_scaling_duration_seconds', 'From a scaling decision to the new capacity serving.', p.scaleInDuration.upper, () => p.scaleInDuration, { le: 'go', labels: { direction: 'in' } });
  fs.histogram('llm_cold_start_duration_seconds', "From a replica's creation to its first served request.", p.coldStart.upper, () => p.coldStart, { le: 'go' });
  fs.histogram('llm_container_start_duration_seconds', 'From container start to a passing health check.', p.containerStart.upper, () => p.containerStart, { le: 'go' });
  fs.counter('llm_insufficient_capacity_errors_total', 'Scale-outs refused because no capacity was available.', () => p.insufficientCapacity);
  return fs;
}

/** The quality exporter of a component. */
export function qualityFamilies(c: ComponentRuntime): FamilySet {
  const fs = new FamilySet();
  const q = c.quality;
  fs.counter('llm_quality_sampled_responses_total', 'Responses sampled for evaluation.', () => q.sampled);
  for (const dim of QUALITY_DIMENSIONS) {
    const d = q.dims[dim];
    fs.gauge('llm_quality_score', 'Mean evaluation score over the recent window, 0-1, by dimension.', () => d.score, { dimension: dim });
    fs.counter('llm_quality_evaluations_total', 'Evaluations completed, by dimension.', () => d.evaluations, { dimension: dim });
    fs.counter('llm_quality_evaluation_errors_total', 'Evaluations that failed, by dimension.', () => d.errors, { dimension: dim });
    fs.histogram('llm_quality_evaluation_duration_seconds', 'Time to evaluate one sampled response.', d.duration.upper, () => d.duration, { le: 'go', labels: { dimension: dim } });
  }
  fs.counter('llm_quality_judge_tokens_total', 'Tokens the evaluation judge consumed, by token type.', () => q.judgeInputTokens, { token_type: 'input' });
  fs.counter('llm_quality_judge_tokens_total', 'Tokens the evaluation judge consumed, by token type.', () => q.judgeOutputTokens, { token_type: 'output' });
  return fs;
}
