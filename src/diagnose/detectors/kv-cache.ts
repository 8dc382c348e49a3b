/**
 * `kv-cache-pressure`: a component's KV cache fills towards its limit and the scheduler preempts.
 * The signature is the cache itself (usage near 1, up from the baseline), preemptions, and requests
 * that each hold much more KV (prompt plus answer tokens); queueing
 * and TTFT are its downstream symptoms.
 */
import { fmt, groupBy, onsetOf, pct, ramp, ratio, scopeOf, type Detector } from '../detector.js';

export const kvCachePressure: Detector = {
  cause: 'kv-cache-pressure',
  looksAt: 'KV-cache usage per replica (near full, up from the baseline), preemptions, and tokens (prompt plus answer) per request',
  signals: {
    usage: { query: 'max by (endpoint, component, instance, replica) (llm_kv_cache_usage_ratio{%})' },
    preemptions: { query: 'sum by (endpoint, component) (rate(llm_preemptions_total{%}[2m]))' },
    tokens: {
      query:
        'sum by (endpoint, component) (rate(llm_request_prompt_tokens_sum{%}[2m]) + ignoring (le) rate(llm_request_generation_tokens_sum{%}[2m])) / sum by (endpoint, component) (rate(llm_request_prompt_tokens_count{%}[2m]))',
    },
  },
  detect(readings, ctx) {
    const out = [];
    for (const replicas of groupBy(readings.usage ?? [], ['endpoint', 'component']).values()) {
      // The largest incident point: usage saws up and down as long requests finish, and the peaks are what preempts.
      const worst = replicas.reduce((a, b) => ((b.incidentMax ?? 0) > (a.incidentMax ?? 0) ? b : a));
      const scope = scopeOf(worst, ['endpoint', 'component']);
      const inc = worst.incidentMax ?? 0;
      const base = Math.max(...replicas.map((r) => r.baseline ?? 0));
      const pre = (readings.preemptions ?? []).find((r) => r.labels.component === scope.component);
      const preempting = (pre?.incidentMax ?? 0) > 0.005 && (pre?.baseline ?? 0) < (pre?.incidentMax ?? 0) / 2;
      let score = 0.75 * ramp(inc, 0.6, 0.95) + (preempting ? 0.25 : 0);
      // Usage that was as high in the baseline is how this component runs, not what changed.
      if (inc - base < 0.15) score *= 0.3;
      // Requests that hold far more KV each (prompt plus answer tokens) are the pressure even once
      // a scale-out has spread them over more replicas and usage looks normal again.
      const tok = (readings.tokens ?? []).find((r) => r.labels.component === scope.component);
      const heavier = ratio(tok?.incident ?? null, tok?.baseline ?? null);
      score = Math.max(score, 0.6 * ramp(heavier, 1.8, 2.5));
      if (score <= 0) continue;
      out.push({
        cause: 'kv-cache-pressure' as const,
        score,
        scope,
        onsetMs: onsetOf(worst),
        instances: replicas.filter((r) => (r.incidentMax ?? 0) >= 0.8).map((r) => r.labels.instance ?? ''),
        summary: `KV cache of ${scope.component ?? 'a component'} at ${pct(inc)} (baseline ${pct(base)})${preempting ? `, ${fmt(pre?.incidentMax ?? 0)} preemptions/s` : ''}, ${fmt(tok?.incident ?? null)} tokens per request (baseline ${fmt(tok?.baseline ?? null)}): add replicas or lower max_num_seqs / max_model_len before requests queue.`,
        evidence: [ctx.evidence('usage', scope, worst), ctx.evidence('preemptions', scope, pre), ctx.evidence('tokens', scope, tok)],
      });
    }
    return out.length > 0 ? out : { ruledOut: 'KV-cache usage stayed far from full and nothing was preempted.' };
  },
};
