/**
 * `quality-drift`: a component's judged answer quality falls (relevance, tone, safety) whatever its
 * latency does. The quality exporter's scores are recent means already, so a fall of a few points
 * against the baseline is the signal.
 */
import { fmt, groupBy, onsetOf, ramp, scopeOf, type Detector, type Finding, type Reading } from '../detector.js';

export const qualityDrift: Detector = {
  cause: 'quality-drift',
  looksAt: 'judged quality scores per component against their baseline, the falls of its dimensions added up',
  signals: { score: { query: 'avg by (endpoint, component, dimension) (llm_quality_score{%})' } },
  detect(readings, ctx) {
    const out: Finding[] = [];
    for (const dims of groupBy(readings.score ?? [], ['endpoint', 'component']).values()) {
      // The judged dimensions' falls added up (composite is their mean, so it is left out): each
      // score wanders by a point or so on its own, a drift moves several together.
      let worst: Reading | undefined;
      let drop = 0;
      let total = 0;
      let fell = 0;
      for (const r of dims) {
        if (r.labels.dimension === 'composite') continue;
        const d = (r.baseline ?? 0) - (r.incident ?? r.baseline ?? 0);
        if (d > 0) total += d;
        if (d >= 0.01) fell++;
        if (d > drop) {
          drop = d;
          worst = r;
        }
      }
      // One dimension alone falling is what a thin sample does at a demand trough (the steady day
      // showed it): it stays under the naming threshold unless another dimension falls with it.
      const score = ramp(total, 0.025, 0.05) * (fell >= 2 ? 1 : 0.45);
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
