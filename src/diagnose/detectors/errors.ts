/**
 * `rate-limit-burst` and `engine-errors`: the front door's answers by status class. 429s are the
 * limits refusing demand (not a failure of the engines); 5xx and streams cut after their first
 * chunk are the engines failing. Each is a share of the component's front-door requests, against
 * its baseline share.
 */
import { groupBy, onsetOf, pct, ramp, scopeOf, type Detector, type Finding, type Reading } from '../detector.js';

const share = (cls: string) =>
  `sum by (endpoint, component) (rate(llm_client_requests_total{status_class="${cls}", %}[1m])) / sum by (endpoint, component) (rate(llm_client_requests_total{%}[1m]))`;

/** A share that rose: its incident value, when at least twice the baseline's (else 0). */
function rose(r: Reading | undefined): number {
  const inc = r?.incident ?? 0;
  return inc > 2 * (r?.baseline ?? 0) ? inc : 0;
}

export const rateLimitBurst: Detector = {
  cause: 'rate-limit-burst',
  looksAt: "the share of a component's front-door requests refused with 429",
  signals: { limited: { query: share('429') } },
  detect(readings, ctx) {
    const out: Finding[] = [];
    for (const [, [r]] of groupBy(readings.limited ?? [], ['endpoint', 'component'])) {
      const score = ramp(rose(r), 0.01, 0.08);
      if (score <= 0) continue;
      const scope = scopeOf(r, ['endpoint', 'component']);
      out.push({
        cause: 'rate-limit-burst',
        score,
        scope,
        onsetMs: onsetOf(r),
        summary: `${pct(r.incident)} of requests to ${scope.component ?? 'a component'} are refused with 429 (baseline ${pct(r.baseline)}): demand is above the front-door limit; raise the limit with capacity behind it, or find the client that bursts.`,
        evidence: [ctx.evidence('limited', scope, r)],
      });
    }
    return out.length > 0 ? out : { ruledOut: 'No component refuses more requests with 429 than in the baseline.' };
  },
};

export const engineErrors: Detector = {
  cause: 'engine-errors',
  looksAt: "the share of a component's front-door requests failing with 5xx, and of streams cut after their first chunk",
  signals: {
    failed: { query: share('5xx') },
    aborted: { query: 'sum by (endpoint, component) (rate(llm_client_mid_stream_errors_total{%}[1m])) / sum by (endpoint, component) (rate(llm_client_requests_total{%}[1m]))' },
  },
  detect(readings, ctx) {
    const out: Finding[] = [];
    for (const [, [r]] of groupBy(readings.failed ?? [], ['endpoint', 'component'])) {
      const scope = scopeOf(r, ['endpoint', 'component']);
      const a = (readings.aborted ?? []).find((x) => x.labels.component === scope.component);
      const score = ramp(rose(r) + rose(a), 0.01, 0.05);
      if (score <= 0) continue;
      out.push({
        cause: 'engine-errors',
        score,
        scope,
        onsetMs: onsetOf(rose(r) >= rose(a) ? r : a),
        summary: `${pct(r.incident)} of requests to ${scope.component ?? 'a component'} fail with 5xx and ${pct(a?.incident ?? null)} of streams break mid-way (baseline ${pct(r.baseline)} and ${pct(a?.baseline ?? null)}): read the engine logs of its replicas for the failing requests.`,
        evidence: [ctx.evidence('failed', scope, r), ctx.evidence('aborted', scope, a)],
      });
    }
    return out.length > 0 ? out : { ruledOut: 'No component fails more requests (5xx, broken streams) than in the baseline.' };
  },
};
