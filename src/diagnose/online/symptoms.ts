/**
 * The symptoms the online runner watches, as data: one PromQL expression per symptom over catalog
 * names, one series per scope (endpoint and component), and when its value counts as a regression.
 * A symptom crosses when its value passes an absolute floor *and* has moved by a factor against its
 * baseline (the expression's highest value over the hour that ended ten minutes ago): the floor
 * keeps a quiet fleet's noise out, the factor keeps out a fleet whose normal is above the floor (the
 * steady demo's SGLang P99 TTFT sits near 3 s), and the hour's highest value keeps out a diurnal
 * rise, which ten minutes never move by half (the demo's two-hour day would, against one instant an
 * hour back: that is half a cycle). An SLO that burns (the rules' `SLOBurnRate*` alerts, src/rules/slo) crosses on its own.
 */
import { goQuote, type DurationMs } from '../../model/index.js';
import type { Scope, Symptom } from '../types.js';

/** The labels an insight's scope is made of: one deployment of one model. */
export const SCOPE_LABELS = ['endpoint', 'component'] as const;

/** One watched symptom. */
export interface SymptomRule {
  readonly symptom: Symptom;
  /** PromQL with one series per scope (`by (endpoint, component)`), its selectors narrowed by `matchers` (PromQL matcher text, '' for the whole fleet). */
  readonly expr: (matchers: string) => string;
  /** `above`: a regression is a rise (latency, errors); `below`: a fall (throughput). */
  readonly direction: 'above' | 'below';
  /** The absolute floor an `above` value must pass (unused for `below`). */
  readonly floor: number;
  /** How far the value must move against the baseline: above `factor ×` it, or below it `/ factor`. */
  readonly factor: number;
}

const BY = `by (${SCOPE_LABELS.join(', ')})`;

/** `name{matchers}`, or the bare name without matchers. */
const sel = (name: string, ...matchers: string[]): string => {
  const m = matchers.filter((x) => x !== '').join(', ');
  return m === '' ? name : `${name}{${m}}`;
};

/** P99 of a catalog histogram per scope; buckets are summed per engine (layouts differ between engines). */
function p99(histogram: string): (matchers: string) => string {
  return (m) => `max ${BY} (histogram_quantile(0.99, sum by (${SCOPE_LABELS.join(', ')}, engine, le) (rate(${sel(`${histogram}_bucket`, m)}[5m]))))`;
}

/**
 * Output tokens per second per sequence in flight, below half its baseline. Not among the defaults:
 * total throughput falls with demand, and the rate per sequence falls with batching at every
 * diurnal peak (on the demo's history it opened six insights on a faultless fleet); the slowdown a
 * user feels is ITL, which the defaults watch. Pass it in `rules` to watch it anyway.
 */
export const TPS_SYMPTOM_RULE: SymptomRule = {
  symptom: 'tps',
  expr: (m) => `sum ${BY} (rate(${sel('llm_generation_tokens_total', m)}[5m])) / sum ${BY} (avg_over_time(${sel('llm_requests_running', m)}[5m]))`,
  direction: 'below',
  floor: 0,
  factor: 2,
};

/** The default rules: P99 TTFT, ITL and end-to-end latency, and the front door's 5xx and 429 share. */
export const DEFAULT_SYMPTOM_RULES: readonly SymptomRule[] = [
  { symptom: 'ttft', expr: p99('llm_time_to_first_token_seconds'), direction: 'above', floor: 1, factor: 1.5 },
  { symptom: 'itl', expr: p99('llm_inter_token_latency_seconds'), direction: 'above', floor: 0.05, factor: 1.5 },
  { symptom: 'e2e', expr: p99('llm_e2e_request_latency_seconds'), direction: 'above', floor: 5, factor: 1.5 },
  {
    symptom: 'errors',
    expr: (m) => `sum ${BY} (rate(${sel('llm_client_requests_total', 'status_class=~"5xx|429"', m)}[5m])) / sum ${BY} (rate(${sel('llm_client_requests_total', m)}[5m]))`,
    direction: 'above',
    floor: 0.02,
    factor: 2,
  },
];

/** The matcher text of a scope (`endpoint="chat", component="a"`). */
export function scopeMatchers(scope: Scope): string {
  return Object.entries(scope).map(([k, v]) => `${k}=${goQuote(v)}`).join(', ');
}

/** The PromQL a symptom is watched with, narrowed to a scope (what the UI charts beside the evidence); undefined for a symptom no rule watches. */
export function symptomQuery(symptom: Symptom, scope: Scope, rules: readonly SymptomRule[] = DEFAULT_SYMPTOM_RULES): string | undefined {
  return rules.find((r) => r.symptom === symptom)?.expr(scopeMatchers(scope));
}

/** The window a symptom's baseline is the highest value of, as offsets back from the tick: from 70 to 10 minutes before it. */
export const BASELINE_WINDOW: { readonly fromMs: DurationMs; readonly toMs: DurationMs } = { fromMs: 70 * 60_000, toMs: 10 * 60_000 };

/** The firing SLO burn-rate alerts of the rules (src/rules/slo), one series per objective and scope. */
export const SLO_BURN_EXPR = 'ALERTS{alertname=~"SLOBurnRate(Fast|Slow)", alertstate="firing"}';

/** The symptom an SLO's `slo` label stands for (`availability` is the errors symptom). */
export function sloSymptom(slo: string): Symptom | undefined {
  if (slo === 'ttft' || slo === 'itl' || slo === 'e2e') return slo;
  return slo === 'availability' ? 'errors' : undefined;
}

/** Whether `value` is a regression against `baseline` under `rule` (null: no data). */
export function crosses(rule: SymptomRule, value: number | null, baseline: number | null): boolean {
  if (value === null || !Number.isFinite(value)) return false;
  if (rule.direction === 'above') return value > rule.floor && (baseline === null || !Number.isFinite(baseline) || value > rule.factor * baseline);
  // A fall needs a baseline to fall from: a deployment with no past throughput has not regressed.
  return baseline !== null && Number.isFinite(baseline) && baseline > 0 && value < baseline / rule.factor;
}
