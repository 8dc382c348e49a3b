/**
 * `slow-instance`: one instance's GPUs run slow (thermal or power throttling, a sick GPU): its
 * replicas are inter-token-latency outliers against their peers of the same component, and DCGM
 * counts throttle time. One instance against its peers, so a fleet-wide shift does not look like it.
 */
import { fmt, groupBy, onsetOf, ramp, ratio, scopeOf, type Detector, type Finding, type Reading } from '../detector.js';

function median(xs: number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export const slowInstance: Detector = {
  cause: 'slow-instance',
  looksAt: "an instance's mean inter-token latency against its peers of the same component, and GPU throttle time",
  signals: {
    itl: {
      query:
        'sum by (endpoint, component, instance) (rate(llm_inter_token_latency_seconds_sum{%}[1m])) / sum by (endpoint, component, instance) (rate(llm_inter_token_latency_seconds_count{%}[1m]))',
    },
    throttle: { query: 'max by (endpoint, instance) (rate(gpu_throttle_seconds_total{%}[1m]))' },
  },
  detect(readings, ctx) {
    const byInstance = new Map<string, { outlier: number; worst?: Reading; peers: number | null }>();
    for (const members of groupBy(readings.itl ?? [], ['endpoint', 'component']).values()) {
      if (members.length < 2) continue;
      for (const r of members) {
        const peers = median(members.filter((x) => x !== r && x.incident !== null).map((x) => x.incident ?? 0));
        const vsPeers = ratio(r.incident, peers) ?? 0;
        const vsSelf = ratio(r.incident, r.baseline) ?? 0;
        const outlier = vsSelf >= 1.3 ? vsPeers : 0;
        const inst = r.labels.instance ?? '';
        const cur = byInstance.get(inst);
        if (cur === undefined || outlier > cur.outlier) byInstance.set(inst, { outlier, worst: r, peers });
      }
    }
    for (const t of readings.throttle ?? []) if (!byInstance.has(t.labels.instance ?? '')) byInstance.set(t.labels.instance ?? '', { outlier: 0, peers: null });
    const out: Finding[] = [];
    for (const [inst, x] of byInstance) {
      const t = (readings.throttle ?? []).find((r) => r.labels.instance === inst);
      const throttled = (t?.incident ?? 0) - (t?.baseline ?? 0);
      // Latency alone can be traffic the instance took from others (an AZ skew); with the GPU's own
      // throttle time it is the instance. Without it the finding stays near the naming threshold.
      const score = 0.55 * ramp(x.outlier, 1.6, 2.5) + 0.45 * ramp(throttled, 0.05, 0.5);
      if (score <= 0) continue;
      const scope = { ...(x.worst?.labels.endpoint === undefined ? {} : { endpoint: x.worst.labels.endpoint }), instance: inst };
      out.push({
        cause: 'slow-instance',
        score,
        scope,
        onsetMs: onsetOf(x.worst ?? t),
        instances: [inst],
        summary: `${inst}'s replicas run ${fmt(x.outlier)}× the inter-token latency of their peers${throttled > 0 ? `, its GPUs throttled ${fmt(throttled * 100)} % of the time` : ''}: drain the instance and check its cooling, power and clocks (nvidia-smi -q -d PERFORMANCE).`,
        evidence: [ctx.evidence('itl', x.worst === undefined ? scope : scopeOf(x.worst, ['endpoint', 'component', 'instance']), x.worst), ctx.evidence('throttle', scope, t)],
      });
    }
    return out.length > 0 ? out : { ruledOut: 'No instance is an inter-token-latency outlier among its peers and no GPU throttles.' };
  },
};
