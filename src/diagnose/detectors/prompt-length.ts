/**
 * `prompt-length-shift`: a component's prompts got longer (a new client, a longer system prompt, RAG
 * context) while its answers did not. Both lengths are per finished request; when the answers grew
 * as much the workload got heavier as a whole, which the KV-cache detector names instead.
 */
import { fmt, groupBy, onsetOf, ramp, ratio, scopeOf, type Detector, type Finding } from '../detector.js';

export const promptLengthShift: Detector = {
  cause: 'prompt-length-shift',
  looksAt: 'mean prompt tokens per finished request against the baseline, net of any growth of the answers',
  signals: {
    prompt: { query: 'sum by (endpoint, component) (rate(llm_request_prompt_tokens_sum{%}[2m])) / sum by (endpoint, component) (rate(llm_request_prompt_tokens_count{%}[2m]))' },
    output: { query: 'sum by (endpoint, component) (rate(llm_request_generation_tokens_sum{%}[2m])) / sum by (endpoint, component) (rate(llm_request_generation_tokens_count{%}[2m]))' },
  },
  detect(readings, ctx) {
    const out: Finding[] = [];
    for (const [, [p]] of groupBy(readings.prompt ?? [], ['endpoint', 'component'])) {
      const scope = scopeOf(p, ['endpoint', 'component']);
      const o = (readings.output ?? []).find((r) => r.labels.component === scope.component);
      const pr = ratio(p.incident, p.baseline);
      const or = ratio(o?.incident ?? null, o?.baseline ?? null) ?? 1;
      const score = pr === null ? 0 : ramp(pr / Math.max(1, or), 1.3, 1.8);
      if (score <= 0) continue;
      out.push({
        cause: 'prompt-length-shift',
        score,
        scope,
        onsetMs: onsetOf(p),
        summary: `Prompts to ${scope.component ?? 'a component'} average ${fmt(p.incident)} tokens (baseline ${fmt(p.baseline)}) while answers stay at ${fmt(o?.incident ?? null)}: find the client or prompt template that changed, or size prefill capacity (chunked prefill, max_num_batched_tokens) for it.`,
        evidence: [ctx.evidence('prompt', scope, p), ctx.evidence('output', scope, o)],
      });
    }
    return out.length > 0 ? out : { ruledOut: 'Prompt lengths stayed at their baseline (or grew no more than the answers).' };
  },
};
