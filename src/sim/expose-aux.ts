/**
 * The simulator's own exporters, written with the catalog's names (they stand in for what
 * Infersight's gateway, fleet view and quality evaluators would produce): the front door
 * (`llm_client_*`), the platform (`llm_replicas`, each replica's `llm_replica_state`, scaling and
 * cold-start events) and the quality exporter (`llm_quality_*`). One target each per component; Go
 * number formatting.
 *
 * Identity: the front door and the platform speak for the replicas behind them, so what they
 * measure per replica (a routed request; a replica's start) carries that replica's identity in the
 * series itself (`replicaIdentity`: replica, instance, instance_type, az, engine), as the gateway
 * writes it. Their targets are scraped with `honor_labels: true` (docs/sim.md), so these exposed
 * labels win over the target's; what belongs to the component alone (refusals before routing,
 * replica counts, scaling) carries no exposed identity and takes the target's labels,
 * whose `instance` names the exporter (`frontdoor-<component>`), never a fleet instance.
 */
import { FamilySet } from './families.js';
import type { ComponentRuntime } from './fleet.js';
import type { FrontDoorRoute } from './frontdoor.js';
import { benchmarkOutputTokensPerSec, buildPerfModel } from './perf.js';
import { QUALITY_DIMENSIONS } from './quality.js';
import { START_PHASES, type Replica } from './replica.js';

/**
 * The identity labels a series about one replica carries when an exporter that is not the
 * replica's engine writes it (front door, platform): the gateway's set minus what the target says
 * already (endpoint, component, model). `engine` is the catalog's value (vllm, sglang, djl).
 */
export function replicaIdentity(r: Replica): Record<string, string> {
  return { replica: r.id, instance: r.instance.id, instance_type: r.instance.type.name, az: r.instance.az, engine: r.component.spec.engine };
}

/**
 * The front door of a component: per route (replica) its requests by status class, mid-stream
 * errors, requests in flight and client-side latency; per component the requests it refused before
 * routing (429 from its limits, 503 when no replica was ready). Rebuilt when a route comes or goes.
 */
export function frontdoorFamilies(c: ComponentRuntime): FamilySet {
  const fs = new FamilySet();
  const f = c.frontdoor;
  // What every replica of the component shares, as the gateway labels its refusals.
  const shared = { instance_type: c.endpoint.type.name, engine: c.spec.engine };
  const requests = (get: () => number, labels: Record<string, string>) => fs.counter('llm_client_requests_total', 'Requests through the front door, by status class.', get, labels);
  requests(() => f.refused429, { ...shared, status_class: '429' });
  requests(() => f.refused503, { ...shared, status_class: '5xx' });
  for (const route of f.routes()) routeFamilies(fs, route);
  return fs;
}

function routeFamilies(fs: FamilySet, r: FrontDoorRoute): void {
  const id = replicaIdentity(r.replica);
  const classes = [
    ['2xx', () => r.requests2xx],
    ['4xx', () => r.requests4xx],
    ['429', () => r.requests429],
    ['5xx', () => r.requests5xx],
  ] as const;
  for (const [cls, get] of classes) fs.counter('llm_client_requests_total', 'Requests through the front door, by status class.', get, { ...id, status_class: cls });
  fs.counter('llm_client_mid_stream_errors_total', 'Streams that failed after the first chunk was sent.', () => r.midStreamErrors, { ...id, error_class: 'engine_error' });
  fs.gauge('llm_client_requests_in_flight', 'Requests the front door is serving right now.', () => r.inFlight, id);
  fs.histogram('llm_client_time_to_first_token_seconds', 'Client-side time to the first streamed chunk.', r.ttft.upper, () => r.ttft, { le: 'go', labels: id });
  fs.histogram('llm_client_request_duration_seconds', 'Client-side end-to-end request duration.', r.duration.upper, () => r.duration, { le: 'go', labels: id });
  fs.histogram('llm_client_overhead_latency_seconds', 'Platform overhead: client-side duration minus model latency.', r.overhead.upper, () => r.overhead, { le: 'go', labels: id });
}

/**
 * The benchmark output throughput of one replica of `c` (its model on its endpoint's instance type
 * with its GPUs per copy and engine defaults) at its largest batch. The simulator no longer exports
 * it: the benchmark catalog of src/cost (generated from this perf model) owns
 * `llm_benchmark_output_tokens_per_second`; tests compare scraped rates with it.
 */
export function componentBenchmarkTps(c: ComponentRuntime): number {
  const perf = buildPerfModel(c.model, c.endpoint.type, c.spec.gpusPerCopy, c.spec.engine, { downloadMBps: 1 });
  return benchmarkOutputTokensPerSec(perf);
}

/**
 * The platform's view of a component: replicas by state, scaling, and per replica started since
 * the simulation began its cold-start and container-start durations and the phases of its last
 * start (`nowMs`: virtual time, for a phase still running). Rebuilt when such a replica comes or goes.
 * (The benchmark throughput is no longer here: src/cost's benchmark catalog writes it.)
 */
export function platformFamilies(c: ComponentRuntime, nowMs: () => number): FamilySet {
  const fs = new FamilySet();
  const p = c.platform;
  const count = (pred: (phase: string) => boolean) => () => c.replicas.filter((r) => pred(r.phase)).length;
  fs.gauge('llm_replicas', 'Replicas of a deployment, by state.', () => c.active.length, { state: 'desired' });
  fs.gauge('llm_replicas', 'Replicas of a deployment, by state.', count((s) => s === 'ready'), { state: 'ready' });
  fs.gauge('llm_replicas', 'Replicas of a deployment, by state.', count((s) => s !== 'ready' && s !== 'draining' && s !== 'stopped'), { state: 'starting' });
  fs.gauge('llm_replicas', 'Replicas of a deployment, by state.', count((s) => s === 'draining'), { state: 'draining' });
  fs.counter('llm_scaling_events_total', 'Scaling actions, by direction.', () => p.scaleOut, { direction: 'out' });
  fs.counter('llm_scaling_events_total', 'Scaling actions, by direction.', () => p.scaleIn, { direction: 'in' });
  fs.histogram('llm_scaling_duration_seconds', 'From a scaling decision to the new capacity serving.', p.scaleOutDuration.upper, () => p.scaleOutDuration, { le: 'go', labels: { direction: 'out' } });
  fs.histogram('llm_scaling_duration_seconds', 'From a scaling decision to the new capacity serving.', p.scaleInDuration.upper, () => p.scaleInDuration, { le: 'go', labels: { direction: 'in' } });
  fs.counter('llm_insufficient_capacity_errors_total', 'Scale-outs refused because no capacity was available.', () => p.insufficientCapacity);
  for (const [r, st] of p.starts) {
    const id = replicaIdentity(r);
    fs.histogram('llm_cold_start_duration_seconds', "From a replica's creation to its first served request.", st.coldStart.upper, () => st.coldStart, { le: 'go', labels: id });
    fs.histogram('llm_container_start_duration_seconds', 'From container start to a passing health check.', st.containerStart.upper, () => st.containerStart, { le: 'go', labels: id });
    for (const phase of START_PHASES) {
      fs.gauge('llm_cold_start_phase_duration_seconds', "How long each phase of a replica's last start took (so far, while it runs), by phase.", () => r.startPhaseS(phase, nowMs()), { ...id, phase });
    }
  }
  replicaStateFamily(c, fs);
  return fs;
}

/** The lifecycle states of `llm_replica_state`, in the order they are exposed. */
export const REPLICA_STATES = ['pending', 'starting', 'ready', 'draining', 'restarting'] as const;

/** A replica's state as its platform reports it (`llm_replica_state`); undefined once it stopped. */
export function replicaState(r: Replica): (typeof REPLICA_STATES)[number] | undefined {
  switch (r.phase) {
    case 'waiting-instance':
      return 'pending';
    case 'container':
    case 'downloading':
      return 'starting';
    case 'loading':
    case 'warming':
      // Only a crash sends a replica back to loading: after one it is a restart, not a cold start.
      return r.restarts > 0 ? 'restarting' : 'starting';
    case 'ready':
      return 'ready';
    case 'draining':
      return 'draining';
    default:
      return undefined;
  }
}

/**
 * The platform's per-replica lifecycle gauge, as a container orchestrator knows it (Kubernetes'
 * pod phase and restart reason, SageMaker's copy status): one series per replica and state, 1 for
 * the current one, with the replica and the instance it runs on. It tells a cold start (`up == 0`
 * while weights load) from a crash, which `up` alone cannot.
 */
function replicaStateFamily(c: ComponentRuntime, fs: FamilySet): void {
  fs.gaugeSeries('llm_replica_state', "1 for a replica's current lifecycle state, 0 for the others.", () =>
    c.replicas.flatMap((r) => {
      const now = replicaState(r);
      if (now === undefined) return [];
      return REPLICA_STATES.map((state) => ({ labels: { replica: r.id, instance: r.instance.id, state }, value: state === now ? 1 : 0 }));
    }),
  );
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
