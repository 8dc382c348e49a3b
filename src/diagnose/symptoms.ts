/**
 * The symptoms a diagnosis explains, each a PromQL signal per component, and how far each regressed
 * against its baseline: P99 of client TTFT, engine inter-token latency and client end-to-end
 * duration (ratio incident / baseline), output tokens per second (baseline / incident: a fall), and
 * the share of failed requests (1 + 20 × its rise, so that 5 points read as doubled).
 */
import type { Reading } from './detector.js';
import type { Symptom } from './types.js';

const p99 = (h: string, layout: string) => `max by (endpoint, component) (histogram_quantile(0.99, sum by (le, endpoint, component, ${layout}) (rate(${h}_bucket{%}[1m]))))`;

/** Each symptom's query template (`%` takes a scope, promql-text.ts). */
export const SYMPTOM_QUERIES: Readonly<Record<Symptom, string>> = {
  ttft: p99('llm_client_time_to_first_token_seconds', 'job'),
  itl: p99('llm_inter_token_latency_seconds', 'engine'),
  e2e: p99('llm_client_request_duration_seconds', 'job'),
  tps: 'sum by (endpoint, component) (rate(llm_generation_tokens_total{%}[1m]))',
  errors: 'sum by (endpoint, component) (rate(llm_client_requests_total{status_class=~"5xx|429", %}[1m])) / sum by (endpoint, component) (rate(llm_client_requests_total{%}[1m]))',
};

/** How far one reading of `symptom` regressed: 1 is unchanged, 2 twice as bad. */
export function regression(symptom: Symptom, r: Reading): number {
  const b = r.baseline;
  const i = r.incident;
  if (b === null || i === null) return 1;
  if (symptom === 'errors') return 1 + 20 * Math.max(0, i - b);
  if (symptom === 'tps') return i > 0 ? b / i : b > 0 ? 10 : 1;
  return b > 0 ? i / b : 1;
}

/** The worst regression of a symptom over its readings, and the reading it is from. */
export function worstRegression(symptom: Symptom, readings: readonly Reading[]): { readonly factor: number; readonly reading?: Reading } {
  let best: { factor: number; reading?: Reading } = { factor: 1 };
  for (const r of readings) {
    const f = regression(symptom, r);
    if (f > best.factor) best = { factor: f, reading: r };
  }
  return best;
}
