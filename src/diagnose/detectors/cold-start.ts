/**
 * `cold-start-storm` (scaling and cold starts): new replicas a scale-out asked for are still
 * starting while a surge of demand makes latency suffer, or a start is slow (download, load, warm-up well past normal).
 * The instance launch is left out of the elapsed time: it is the cloud's, and its usual minutes are
 * not a fault. A scale-out that completed, or one still starting on time while latency holds, is
 * benign scaling and rules the cause out.
 */
import { fmt, groupBy, onsetOf, ramp, ratio, scopeOf, type Detector, type Finding } from '../detector.js';

export const coldStartStorm: Detector = {
  cause: 'cold-start-storm',
  looksAt: 'replicas still starting (pending or starting), how long their container, download, load and warm-up have taken, and client TTFT while they start',
  signals: {
    starting: { query: 'sum by (endpoint, component) (llm_replica_state{state=~"pending|starting", %})' },
    elapsed: {
      query:
        'max by (endpoint, component) (sum by (endpoint, component, replica) (llm_cold_start_phase_duration_seconds{phase!="instance", %}) and on (replica) (llm_replica_state{state="starting", %} == 1))',
    },
    ttft: { query: 'max by (endpoint, component) (histogram_quantile(0.99, sum by (le, endpoint, component, job) (rate(llm_client_time_to_first_token_seconds_bucket{%}[1m]))))' },
    demand: { query: 'sum by (endpoint, component) (rate(llm_client_requests_total{%}[2m]))' },
    scaleOuts: { query: 'sum by (endpoint, component) (increase(llm_scaling_events_total{direction="out", %}[10m]))' },
  },
  detect(readings, ctx) {
    const out: Finding[] = [];
    const benign: string[] = [];
    for (const [, [s]] of groupBy(readings.starting ?? [], ['endpoint', 'component'])) {
      const scope = scopeOf(s, ['endpoint', 'component']);
      const starting = s.incident ?? 0;
      const scaled = (readings.scaleOuts ?? []).find((r) => r.labels.component === scope.component)?.last ?? 0;
      if (starting < 0.5) {
        if (scaled >= 0.5) benign.push(`${scope.component ?? 'a component'} scaled out and its new replicas serve`);
        continue;
      }
      const el = (readings.elapsed ?? []).find((r) => r.labels.component === scope.component);
      const t = (readings.ttft ?? []).find((r) => r.labels.component === scope.component);
      const slow = ramp(el?.last ?? 0, 150, 400);
      const d = (readings.demand ?? []).find((r) => r.labels.component === scope.component);
      // Latency suffering while capacity arrives is this cause only when demand forced the
      // scale-out; otherwise the scale-out is a consequence of whatever else made requests heavier.
      const surge = ramp(ratio(d?.incident ?? null, d?.baseline ?? null), 1.4, 2);
      const suffering = Math.max(ramp(ratio(t?.incident ?? null, t?.baseline ?? null), 1.8, 4), ramp(ratio(d?.incident ?? null, d?.baseline ?? null), 2, 3)) * surge;
      const score = Math.max(0.9 * slow, 0.6 * suffering);
      if (score <= 0) {
        benign.push(`${scope.component ?? 'a component'} has ${fmt(starting)} replica(s) starting on time while latency holds`);
        continue;
      }
      out.push({
        cause: 'cold-start-storm',
        score,
        scope,
        onsetMs: onsetOf(s),
        summary:
          slow > 0
            ? `${fmt(starting)} replica(s) of ${scope.component ?? 'a component'} have been starting for ${fmt(el?.last ?? 0)} s past their instance launch: check model download speed and weight loading (cache the weights on the instance or a faster store).`
            : `${fmt(starting)} replica(s) of ${scope.component ?? 'a component'} are still starting while client TTFT P99 is ${fmt(t?.incident ?? null)} s (baseline ${fmt(t?.baseline ?? null)} s): the scale-out comes too late for the demand; keep warm capacity or scale earlier.`,
        evidence: [ctx.evidence('starting', scope, s), ctx.evidence('elapsed', scope, el), ctx.evidence('ttft', scope, t)],
      });
    }
    if (out.length > 0) return out;
    return { ruledOut: benign.length > 0 ? `Benign scaling: ${benign.join('; ')}.` : 'No replica is starting and none scaled out.' };
  },
};
