/**
 * What the drift runner reads, as PromQL: the judged scores and the input distributions, each per
 * model and component. Input features are data (`InputFeature`): a histogram of the catalog (its
 * buckets become the bins) or the stage-1 flag counters (each flag's share of the sampled
 * responses becomes a two-bin distribution). A query that finds no series (a fleet without a
 * gateway, no stage-1 evaluation yet) simply yields no subjects.
 */
import type { DurationMs } from '../../model/index.js';
import { METRIC } from '../../semconv/index.js';

/** The labels a subject is keyed by besides its dimension or feature. */
export const SUBJECT_LABELS = ['model', 'component'] as const;

/** The scores watched: the recent mean per model, component and dimension (endpoints and exporters averaged). */
export const SCORE_EXPR = `avg by (model, component, dimension) (${METRIC.LLM_QUALITY_SCORE})`;

/**
 * The stage-1 flag counter q-ingest's `QualityMetrics.recordEvaluation` writes (label `flag`), and
 * the sampled-response counter it is a share of.
 */
export const FLAGS_METRIC = 'llm_quality_flags_total';
export const SAMPLED_METRIC = METRIC.LLM_QUALITY_SAMPLED_RESPONSES_TOTAL;

/** One input feature. */
export type InputFeature =
  | { readonly kind: 'histogram'; readonly feature: 'prompt_length' | 'output_length'; readonly metric: string }
  | { readonly kind: 'flags'; readonly metric: string; readonly totalMetric: string };

/** The default features: prompt and output length from the engines' token histograms, and the stage-1 flags. */
export const DEFAULT_INPUT_FEATURES: readonly InputFeature[] = [
  { kind: 'histogram', feature: 'prompt_length', metric: METRIC.LLM_REQUEST_PROMPT_TOKENS },
  { kind: 'histogram', feature: 'output_length', metric: METRIC.LLM_REQUEST_GENERATION_TOKENS },
  { kind: 'flags', metric: FLAGS_METRIC, totalMetric: SAMPLED_METRIC },
];

/** A PromQL duration in whole seconds. */
export function promDuration(ms: DurationMs): string {
  return `${Math.max(1, Math.round(ms / 1000))}s`;
}

/** The windows compared: the recent one ends at the tick, the baseline one ends where the recent one starts. */
export interface InputWindows {
  readonly recentMs: DurationMs;
  readonly baselineMs: DurationMs;
}

/** The default windows: the last 15 minutes against the hour before them. */
export const DEFAULT_INPUT_WINDOWS: InputWindows = { recentMs: 15 * 60_000, baselineMs: 3600_000 };

/** The queries of one feature: `recent` and `baseline` (and their totals for flags). */
export function featureQueries(f: InputFeature, w: InputWindows): { recent: string; baseline: string; recentTotal?: string; baselineTotal?: string } {
  const recent = `[${promDuration(w.recentMs)}]`;
  const baseline = `[${promDuration(w.baselineMs)}] offset ${promDuration(w.recentMs)}`;
  if (f.kind === 'histogram') {
    const q = (range: string) => `sum by (model, component, le) (increase(${f.metric}_bucket${range}))`;
    return { recent: q(recent), baseline: q(baseline) };
  }
  const flags = (range: string) => `sum by (model, component, flag) (increase(${f.metric}${range}))`;
  const totals = (range: string) => `sum by (model, component) (increase(${f.totalMetric}${range}))`;
  return { recent: flags(recent), baseline: flags(baseline), recentTotal: totals(recent), baselineTotal: totals(baseline) };
}
