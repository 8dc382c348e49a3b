/**
 * `throughput-below-benchmark`: a misconfigured engine (a tiny max batch, eager mode instead of CUDA
 * graphs) runs far below the benchmark of its model on its instance type. The signature: requests
 * queue while the running batch does not grow and the KV cache has room, so the engine, not
 * demand or memory, is the limit; each replica's output tokens against its benchmark at the
 * concurrency it runs (`llm_benchmark_efficiency_ratio`, written by src/cost from the benchmark
 * catalog) is the evidence: a healthy engine reads about 1 at any demand.
 */
import { fmt, groupBy, onsetOf, pct, ramp, ratio, scopeOf, type Detector, type Finding } from '../detector.js';

const KEY = ['endpoint', 'component', 'instance_type'];
/** Efficiency against the benchmark at or above which an engine counts as healthy (src/cost reads a healthy one at 0.75–1). */
const HEALTHY_EFFICIENCY = 0.8;

export const throughputBelowBenchmark: Detector = {
  cause: 'throughput-below-benchmark',
  looksAt: 'requests waiting per replica while the running batch does not grow and the KV cache has room; output TPS per replica against the benchmark',
  signals: {
    waiting: { query: 'sum by (endpoint, component, instance_type) (llm_requests_waiting{%})' },
    running: { query: 'sum by (endpoint, component, instance_type) (llm_requests_running{%})' },
    replicas: { query: 'count by (endpoint, component, instance_type) (llm_requests_running{%})' },
    kv: { query: 'max by (endpoint, component, instance_type) (llm_kv_cache_usage_ratio{%})' },
    share: {
      query: 'avg by (endpoint, component, model, instance_type) (llm_benchmark_efficiency_ratio{%})',
    },
  },
  detect(readings, ctx) {
    const out: Finding[] = [];
    for (const [, [w]] of groupBy(readings.waiting ?? [], KEY)) {
      const scope = scopeOf(w, KEY);
      const same = (key: string) => (readings[key] ?? []).find((r) => KEY.every((l) => r.labels[l] === w.labels[l]));
      const run = same('running');
      const reps = same('replicas');
      const n = reps?.last ?? 1;
      const kv = same('kv');
      const tps = same('share');
      const perReplica = (w.incident ?? 0) / Math.max(1, n);
      // Per replica: a scale-out adds running requests without any batch growing.
      const perReplicaRun = (x: number | null, replicas: number | null) => (x === null ? null : x / Math.max(1, replicas ?? 1));
      const batchGrew = (ratio(perReplicaRun(run?.incident ?? null, n), perReplicaRun(run?.baseline ?? null, reps?.baseline ?? null)) ?? 1) > 1.15;
      const kvFull = (kv?.incident ?? 0) >= 0.6;
      let score = ramp(perReplica, 2, 8);
      // An engine at about its benchmark for the concurrency it runs is not misconfigured.
      if (batchGrew || kvFull || (tps?.incident ?? 0) >= HEALTHY_EFFICIENCY) score *= 0.2;
      if (score <= 0) continue;
      out.push({
        cause: 'throughput-below-benchmark',
        score,
        scope,
        onsetMs: onsetOf(w),
        summary: `${fmt(perReplica)} requests wait per replica of ${scope.component ?? 'a component'} while its batch stays at ${fmt(run?.incident ?? null)} running and its KV cache at ${pct(kv?.incident ?? null)}; it generates ${pct(tps?.incident ?? null)} of its benchmark: check max_num_seqs and that CUDA graphs are on (no --enforce-eager).`,
        evidence: [ctx.evidence('waiting', scope, w), ctx.evidence('running', scope, run), ctx.evidence('share', scopeOf(w, ['endpoint', 'component']), tps)],
      });
    }
    return out.length > 0 ? out : { ruledOut: 'No engine queues requests while its batch and KV cache have room.' };
  },
};
