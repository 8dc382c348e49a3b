/**
 * Insights as series, so that rules, dashboards and Alertmanager see them as they see any metric:
 * `llm_diagnosis_insight_open` (1 while an insight is open, a stale marker when it resolves) and
 * `llm_diagnosis_cause_confidence_ratio` (the confidence of each of its three best causes). Both
 * carry `insight`, `symptom` and the scope's labels; the second `cause` too. The runner writes them
 * through `InsightSink`, the output port it declares and `src/server` binds to the store.
 */
import { STALE_NAN, type SeriesSample, type SeriesSink, type UnixMs } from '../../model/index.js';
import { METRIC } from '../../semconv/index.js';
import type { CauseId } from '../types.js';
import type { TrackedInsight } from './tracker.js';

/** 1 while the insight is open (a catalog metric: src/semconv/catalog-diagnosis.ts). */
export const INSIGHT_OPEN_METRIC = METRIC.LLM_DIAGNOSIS_INSIGHT_OPEN;
/** The confidence of one of an open insight's best causes, in [0, 1] (a catalog metric). */
export const CAUSE_CONFIDENCE_METRIC = METRIC.LLM_DIAGNOSIS_CAUSE_CONFIDENCE_RATIO;
/** How many of an insight's causes become series. */
export const CAUSES_AS_SERIES = 3;

/** One sample the runner writes (the derived-data writers' shared shape, src/model). */
export type InsightSample = SeriesSample;

/**
 * Where the runner writes its series: the derived-data writers' shared port (src/model's
 * `SeriesSink`), called once per tick with every sample of the tick. A rejection is logged by the
 * runner and the tick's samples are lost (the next tick writes its own).
 */
export type InsightSink = SeriesSink;

/** Remembers which cause series each open insight has, so that a cause leaving the top three, or a resolved insight, gets its stale marker. */
export class InsightSeries {
  private readonly written = new Map<string, Set<CauseId>>();

  /** The samples of one tick: every open insight's, and stale markers for what ended. */
  samples(tMs: UnixMs, open: readonly TrackedInsight[], resolved: readonly TrackedInsight[]): InsightSample[] {
    const out: InsightSample[] = [];
    const base = (i: TrackedInsight): Record<string, string> => ({ ...i.scope, insight: i.id, symptom: i.symptom });
    for (const i of open) {
      out.push({ labels: { __name__: INSIGHT_OPEN_METRIC, ...base(i) }, tMs, value: 1 });
      const top = i.causes.slice(0, CAUSES_AS_SERIES);
      const before = this.written.get(i.id) ?? new Set<CauseId>();
      const now = new Set(top.map((c) => c.cause));
      for (const c of top) out.push({ labels: { __name__: CAUSE_CONFIDENCE_METRIC, ...base(i), cause: c.cause }, tMs, value: c.confidence });
      for (const c of before) if (!now.has(c)) out.push({ labels: { __name__: CAUSE_CONFIDENCE_METRIC, ...base(i), cause: c }, tMs, value: STALE_NAN });
      this.written.set(i.id, now);
    }
    for (const i of resolved) {
      out.push({ labels: { __name__: INSIGHT_OPEN_METRIC, ...base(i) }, tMs, value: STALE_NAN });
      for (const c of this.written.get(i.id) ?? []) out.push({ labels: { __name__: CAUSE_CONFIDENCE_METRIC, ...base(i), cause: c }, tMs, value: STALE_NAN });
      this.written.delete(i.id);
    }
    return out;
  }
}
