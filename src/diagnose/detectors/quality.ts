/**
 * `quality-drift`: a component's judged answer quality falls (relevance, tone, safety) whatever its
 * latency does. The quality exporter's scores are recent means already, so a fall of a few points
 * against the baseline is the signal.
 */
import { fmt, groupBy, onsetOf, ramp, scopeOf, type Detector, type Finding, type Reading } from '../detector.js';

export const qualityDrift: Detector = {
  cause: 'quality-drift',
  looksAt: 'judged quality scores per component and dimension against their baseline',
  signals: { score: { query: 'avg by (endpoint, component, dimension) (llm_quality_score{%})' } },
  detect(readings, ctx) {
    const out: Finding[] = [];
    for (const dims of groupBy(readings.score ?? [], ['endpoint', 'component']).values()) {
      let worst: Reading | undefined;
      let drop = 0;
      for (const r of dims) {
        const d = (r.baseline ?? 0) - (r.incident ?? r.baseline ?? 0);
        if (d > drop) {
          drop = d;
          worst = r;
        }
      }
      const score = ramp(drop, 0.02, 0.06);
      if (worst === undefined || score <= 0) continue;
      const scope = scopeOf(worst, ['endpoint', 'component']);
      out.push({
        cause: 'quality-drift',
        score,
        scope,
        onsetMs: onsetOf(worst, false),
        summary: `The judged ${worst.labels.dimension ?? 'quality'} score of ${scope.component ?? 'a component'} fell to ${fmt(worst.incident)} (baseline ${fmt(worst.baseline)}): compare recent sampled answers with earlier ones; look for a model, prompt or adapter change.`,
        evidence: [ctx.evidence('score', { ...scope, dimension: worst.labels.dimension ?? '' }, worst)],
      });
    }
    return out.length > 0 ? out : { ruledOut: 'Judged quality scores held their baseline.' };
  },
};
