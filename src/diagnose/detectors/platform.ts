/**
 * `platform-overhead` and `load`: what happens around the engines. Platform overhead is the front
 * door's or gateway's own time (routing, auth, retries) growing while the engines' time does not;
 * load is demand that rose with nothing broken, the answer when capacity is simply short.
 */
import { fmt, groupBy, onsetOf, ramp, ratio, scopeOf, type Detector, type Finding } from '../detector.js';

const mean = (h: string) => `sum by (endpoint, component) (rate(${h}_sum{%}[1m])) / sum by (endpoint, component) (rate(${h}_count{%}[1m]))`;

export const platformOverhead: Detector = {
  cause: 'platform-overhead',
  looksAt: "the gateway's or front door's own latency per request (overhead) against the engines' end-to-end latency",
  signals: {
    overhead: { query: mean('llm_client_overhead_latency_seconds') },
    engine: { query: mean('llm_e2e_request_latency_seconds') },
  },
  detect(readings, ctx) {
    const out: Finding[] = [];
    for (const [, [o]] of groupBy(readings.overhead ?? [], ['endpoint', 'component'])) {
      const scope = scopeOf(o, ['endpoint', 'component']);
      const e = (readings.engine ?? []).find((r) => r.labels.component === scope.component);
      const grew = (o.incident ?? 0) - (o.baseline ?? 0);
      const engineRatio = ratio(e?.incident ?? null, e?.baseline ?? null) ?? 1;
      let score = ramp(ratio(o.incident, Math.max(o.baseline ?? 0, 0.005)), 2, 4) * ramp(grew, 0.02, 0.1);
      if (engineRatio > 1.25) score *= 0.3;
      if (score <= 0) continue;
      out.push({
        cause: 'platform-overhead',
        score,
        scope,
        onsetMs: onsetOf(o),
        summary: `The platform adds ${fmt(o.incident)} s per request to ${scope.component ?? 'a component'} (baseline ${fmt(o.baseline)} s) while the engines take ${fmt(e?.incident ?? null)} s as before: look at the gateway (retries, auth, routing, network), not the engines.`,
        evidence: [ctx.evidence('overhead', scope, o), ctx.evidence('engine', scope, e)],
      });
    }
    return out.length > 0 ? out : { ruledOut: "The platform's own time per request held its baseline." };
  },
};

export const load: Detector = {
  cause: 'load',
  looksAt: "a component's front-door request rate against its baseline",
  signals: { demand: { query: 'sum by (endpoint, component) (rate(llm_client_requests_total{%}[2m]))' } },
  detect(readings, ctx) {
    const out: Finding[] = [];
    for (const [, [d]] of groupBy(readings.demand ?? [], ['endpoint', 'component'])) {
      const r = ratio(d.incident, d.baseline);
      // Demand alone is never more than a likely explanation: it stays under the confidence at
      // which a fault is named, so `none` or a broken part outranks it.
      const score = 0.45 * ramp(r, 1.3, 2);
      if (score <= 0) continue;
      const scope = scopeOf(d, ['endpoint', 'component']);
      out.push({
        cause: 'load',
        score,
        scope,
        onsetMs: onsetOf(d),
        summary: `Demand on ${scope.component ?? 'a component'} is ${fmt(r)}× its baseline (${fmt(d.incident)} requests/s) and nothing is broken: add capacity, or let the autoscaler catch up.`,
        evidence: [ctx.evidence('demand', scope, d)],
      });
    }
    return out.length > 0 ? out : { ruledOut: 'Demand stayed near its baseline.' };
  },
};
