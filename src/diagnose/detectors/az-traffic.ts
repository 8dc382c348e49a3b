/**
 * `az-traffic-skew`: the router stops sending an endpoint's traffic to one AZ (engines up there,
 * no requests) and doubles another's. Per endpoint, each AZ's share of the front door's routed
 * requests against its baseline share; an AZ is cold when its share fell to a fraction of what it
 * was, its engines are up, and enough requests were expected there for the silence to mean something.
 */
import { groupBy, onsetOf, pct, ramp, scopeOf, type Detector, type Finding } from '../detector.js';

/** Seconds of the rate window: expected requests = baseline rate × this. */
const WINDOW_S = 60;

export const azTrafficSkew: Detector = {
  cause: 'az-traffic-skew',
  looksAt: "each AZ's share of an endpoint's routed requests against its baseline share (an AZ gone quiet, another doubled)",
  signals: {
    requests: { query: 'sum by (endpoint, az) (rate(llm_client_requests_total{az!="", %}[1m]))' },
    engines: { query: 'count by (endpoint, az) (up{replica!="", %} == 1)' },
  },
  detect(readings, ctx) {
    const out: Finding[] = [];
    for (const azs of groupBy(readings.requests ?? [], ['endpoint']).values()) {
      if (azs.length < 2) continue;
      const baseTotal = azs.reduce((a, r) => a + (r.baseline ?? 0), 0);
      const incTotal = azs.reduce((a, r) => a + (r.last ?? 0), 0);
      if (!(baseTotal > 0) || !(incTotal > 0)) continue;
      for (const r of azs) {
        const baseShare = (r.baseline ?? 0) / baseTotal;
        const incShare = (r.last ?? 0) / incTotal;
        const expected = (r.baseline ?? 0) * WINDOW_S;
        // An AZ whose engines were scaled in gets no traffic by design: only one with engines up counts.
        const up = (readings.engines ?? []).find((x) => x.labels.endpoint === r.labels.endpoint && x.labels.az === r.labels.az)?.last ?? 0;
        if (baseShare <= 0 || up < 1) continue;
        const score = ramp(1 - incShare / baseShare, 0.7, 0.95) * ramp(expected, 20, 60);
        if (score <= 0) continue;
        const scope = scopeOf(r, ['endpoint', 'az']);
        const hot = azs.filter((x) => x !== r).reduce((a, b) => ((b.last ?? 0) / Math.max(1e-9, b.baseline ?? 0) > (a.last ?? 0) / Math.max(1e-9, a.baseline ?? 0) ? b : a));
        out.push({
          cause: 'az-traffic-skew',
          score,
          scope,
          onsetMs: onsetOf(r, false),
          summary: `${scope.az ?? 'An AZ'} gets ${pct(incShare)} of ${scope.endpoint ?? 'the endpoint'}'s requests (baseline ${pct(baseShare)})${hot.labels.az === undefined ? '' : `; ${hot.labels.az} takes its share`}: check the router's or load balancer's AZ weights and health checks.`,
          evidence: [ctx.evidence('requests', scope, r), ctx.evidence('requests', scopeOf(hot, ['endpoint', 'az']), hot), ctx.evidence('engines', scope, (readings.engines ?? []).find((x) => x.labels.az === scope.az && x.labels.endpoint === scope.endpoint))],
        });
      }
    }
    return out.length > 0 ? out : { ruledOut: "Every AZ kept its share of its endpoint's requests." };
  },
};
