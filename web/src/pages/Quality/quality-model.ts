/**
 * The Quality page's sample browser, as data: its filters and the route parameters they become
 * (`GET /api/v1/quality/samples`), and the summaries a list row shows. No React here, so the rules
 * are tested on their own.
 */
import type { EvaluationWire, SampleWire } from '../../../../src/query/index.js';

/** The judged dimensions and the stage-1 flags the filters offer (src/quality/types.ts's lists). */
export const DIMENSIONS = ['accuracy', 'relevance', 'safety', 'professional_tone', 'composite'] as const;
export const FLAGS = ['refusal', 'empty', 'truncated', 'invalid_json', 'pii', 'blocklist', 'language_mismatch', 'length_anomaly'] as const;

/** The browser's filters as the form holds them ('' : not set). */
export interface SampleFilters {
  readonly model: string;
  readonly dimension: string;
  readonly minScore: string;
  readonly maxScore: string;
  readonly flag: string;
}

export const NO_FILTERS: SampleFilters = { model: '', dimension: '', minScore: '', maxScore: '', flag: '' };

/** Pairs one list shows. */
export const LIST_LIMIT = 50;

/** The route's parameters for `filters` over the page's time range (Unix seconds, as the API takes them). */
export function sampleParams(filters: SampleFilters, startMs: number, endMs: number): [string, string][] {
  const out: [string, string][] = [];
  const add = (k: string, v: string): void => {
    if (v.trim() !== '') out.push([k, v.trim()]);
  };
  add('model', filters.model);
  add('dimension', filters.dimension);
  add('min_score', filters.minScore);
  add('max_score', filters.maxScore);
  add('flag', filters.flag);
  out.push(['start', String(startMs / 1000)], ['end', String(endMs / 1000)], ['limit', String(LIST_LIMIT)]);
  return out;
}

/** The flags a pair's stage-1 checks raised, in order, each once. */
export function flagsOf(evaluations: readonly EvaluationWire[]): string[] {
  return [...new Set(evaluations.flatMap((e) => (e.flag === null ? [] : [e.flag])))];
}

/** The judge's score per dimension (the lowest when judged twice), dimensions in the contract's order. */
export function scoresOf(evaluations: readonly EvaluationWire[]): [dimension: string, score: number][] {
  const by = new Map<string, number>();
  for (const e of evaluations) if (e.dimension !== null && e.score !== null) by.set(e.dimension, Math.min(e.score, by.get(e.dimension) ?? 1));
  return DIMENSIONS.filter((d) => by.has(d)).map((d) => [d, by.get(d) as number]);
}

/** The first `n` characters of a text on one line, for the list (the detail view shows it whole). */
export function excerpt(text: string, n = 120): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > n ? `${line.slice(0, n - 1)}…` : line;
}

/** How many evaluations of a sample failed. */
export function failedEvaluations(s: SampleWire): number {
  return s.evaluations.filter((e) => e.error !== null).length;
}
