/**
 * `sloRuleGroups(specs)`: objectives turned into Prometheus rule groups, the series contract of
 * docs/slo.md (recording rules per window, the objective, the error budget remaining) and the
 * multi-window, multi-burn-rate alerts of the Google SRE workbook (chapter 5, "Alerting on SLOs").
 */
import { formatPromDuration } from '../../config/index.js';
import type { AlertingRuleSpec, RecordingRuleSpec, RuleGroupSpec, RuleSpec } from '../types.js';
import { formatNumber, scopeMatchers, selector, sliRates, thresholdUnmatchedExpr } from './sli.js';
import { DEFAULT_PERIOD_MS, sloHistogram, sloSpecProblems, type SloSpec } from './spec.js';

/** The windows the error ratio is recorded over besides the period: the SRE workbook's alert windows. */
export const SLO_WINDOWS = ['5m', '30m', '1h', '2h', '6h', '1d', '3d'] as const;

/** The burn-rate alert pairs (long window, short window, burn factor), page first: the workbook's table 5-8. */
export const BURN_RATES = [
  { alert: 'SLOBurnRateFast', severity: 'page', long: '1h', short: '5m', factor: 14.4 },
  { alert: 'SLOBurnRateFast', severity: 'page', long: '6h', short: '30m', factor: 6 },
  { alert: 'SLOBurnRateSlow', severity: 'ticket', long: '1d', short: '2h', factor: 3 },
  { alert: 'SLOBurnRateSlow', severity: 'ticket', long: '3d', short: '6h', factor: 1 },
] as const;

/** Options of `sloRuleGroups`. */
export interface SloRuleOptions {
  /** The `file` of the generated groups (rule groups are identified by file and name). */
  readonly file?: string;
  /** Where the runbooks live: each alert's `runbook` annotation is this plus `#` and the alert's name in lower case. */
  readonly runbookBase?: string;
  /** Interval of the period group (the 30-day ratio and the budget change slowly); default 5m. */
  readonly periodIntervalMs?: number;
}

/** The default `runbookBase`: the runbooks page of the docs, relative to the repository. */
export const DEFAULT_RUNBOOK_BASE = 'docs/runbooks.md';

const NO_POSITION = { line: 0, column: 0 } as const;

/** A recording rule of generated data (no position in a file). */
export function recording(record: string, expr: string, labels: Readonly<Record<string, string>> = {}): RecordingRuleSpec {
  return { kind: 'recording', record, expr, labels, position: NO_POSITION };
}

/** An alerting rule of generated data. */
export function alerting(
  alert: string,
  expr: string,
  o: { forMs?: number; keepFiringForMs?: number; labels: Readonly<Record<string, string>>; annotations: Readonly<Record<string, string>> },
): AlertingRuleSpec {
  return { kind: 'alerting', alert, expr, forMs: o.forMs ?? 0, keepFiringForMs: o.keepFiringForMs ?? 0, labels: o.labels, annotations: o.annotations, position: NO_POSITION };
}

/** A rule group of generated data. */
export function group(name: string, file: string, rules: readonly RuleSpec[], intervalMs?: number): RuleGroupSpec {
  return { name, file, intervalMs, queryOffsetMs: undefined, limit: 0, rules, position: NO_POSITION };
}

/** The labels an objective stamps on its series: `slo`, `objective` and, for latency, `threshold_seconds`. */
export function objectiveLabels(s: SloSpec): Record<string, string> {
  return {
    slo: s.slo,
    objective: formatNumber(s.objective),
    ...(s.thresholdSeconds === undefined ? {} : { threshold_seconds: formatNumber(s.thresholdSeconds) }),
  };
}

/** The error budget, 1 - objective, rounded so that 0.99 gives 0.01 and not 0.010000000000000009. */
export function errorBudget(s: SloSpec): number {
  return Number((1 - s.objective).toPrecision(12));
}

/** A selector of one of `s`'s recorded series: its objective labels and scope. */
function own(name: string, s: SloSpec): string {
  const labels = Object.entries(objectiveLabels(s)).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
  return selector(name, [...labels, ...scopeMatchers(s)]);
}

/** A readable, unique group name for an objective. */
function groupName(s: SloSpec): string {
  const parts = ['slo', s.slo, formatNumber(s.objective)];
  if (s.thresholdSeconds !== undefined) parts.push(`${formatNumber(s.thresholdSeconds)}s`);
  if (s.endpoint !== undefined) parts.push(s.endpoint);
  if (s.component !== undefined) parts.push(s.component);
  return parts.join(':');
}

/** What the SLI is, in words, for alert descriptions. */
function sliWords(s: SloSpec): string {
  if (s.slo === 'availability') return 'requests answered without a 5xx';
  const what = s.slo === 'ttft' ? 'time to first token' : s.slo === 'itl' ? 'inter-token intervals' : 'end-to-end requests';
  return `${what} within ${formatNumber(s.thresholdSeconds ?? NaN)} s (${sloHistogram(s) ?? ''})`;
}

/** The recording rules of one objective's main group: the 5m rates, then the error ratio per window. */
function windowRules(s: SloSpec): RecordingRuleSpec[] {
  const labels = objectiveLabels(s);
  const rates = sliRates(s, '5m');
  const out = [recording('slo:sli_requests:rate5m', rates.total, labels), recording('slo:sli_errors:rate5m', rates.bad, labels)];
  out.push(recording('slo:sli_error:ratio_rate5m', `${own('slo:sli_errors:rate5m', s)} / ${own('slo:sli_requests:rate5m', s)}`, labels));
  for (const w of SLO_WINDOWS.slice(1)) out.push(recording(`slo:sli_error:ratio_rate${w}`, windowRatio(s, w), labels));
  return out;
}

/**
 * The error ratio over a window from the recorded 5m rates: bad events over all events, both summed
 * over the window (request-weighted, unlike an average of ratios). Reading one recorded series per
 * scope instead of every raw bucket over days keeps a 3d or 30d window cheap.
 */
function windowRatio(s: SloSpec, w: string): string {
  return `sum_over_time(${own('slo:sli_errors:rate5m', s)}[${w}]) / sum_over_time(${own('slo:sli_requests:rate5m', s)}[${w}])`;
}

/** The burn-rate and bucket-bound alerts of one objective. */
function alertRules(s: SloSpec, runbookBase: string): AlertingRuleSpec[] {
  const budget = errorBudget(s);
  const words = sliWords(s);
  const out: AlertingRuleSpec[] = [];
  for (const alert of ['SLOBurnRateFast', 'SLOBurnRateSlow'] as const) {
    const pairs = BURN_RATES.filter((b) => b.alert === alert);
    const expr = pairs
      .map((b) => {
        const limit = `${b.factor} * ${formatNumber(budget)}`;
        return `(${own(`slo:sli_error:ratio_rate${b.long}`, s)} > ${limit} and ${own(`slo:sli_error:ratio_rate${b.short}`, s)} > ${limit})`;
      })
      .join(' or ');
    const fast = alert === 'SLOBurnRateFast';
    out.push(
      alerting(alert, expr, {
        labels: { severity: pairs[0].severity, slo: s.slo },
        annotations: {
          summary: `{{ $labels.slo }} SLO of {{ $labels.component }} ({{ $labels.endpoint }}) is burning its error budget ${fast ? 'fast' : 'steadily'}`,
          description: `Bad events over the long window: {{ $value | humanizePercentage }} (good: ${words}); objective {{ $labels.objective }}, error budget ${formatNumber(budget)}. Burning at ${pairs.map((p) => `${p.factor}× over ${p.long}`).join(' or ')}${fast ? `: the budget of ${formatPromDuration(s.periodMs ?? DEFAULT_PERIOD_MS)} goes in days` : `: the budget will not last the ${formatPromDuration(s.periodMs ?? DEFAULT_PERIOD_MS)} period`}.`,
          runbook: `${runbookBase}#${alert.toLowerCase()}`,
        },
      }),
    );
  }
  // Templates see the expression's result labels, not the rule's own: the kind is written in.
  const unmatched = thresholdUnmatchedExpr(s);
  if (unmatched !== undefined) {
    out.push(
      alerting('SLOThresholdNotABucketBound', unmatched, {
        forMs: 15 * 60_000,
        labels: { severity: 'ticket', ...objectiveLabels(s) },
        annotations: {
          summary: `${s.slo} SLO threshold ${formatNumber(s.thresholdSeconds ?? NaN)} s is not a bucket bound of {{ $labels.job }}{{ $labels.engine }} for {{ $labels.component }}`,
          description: `The histogram ${sloHistogram(s) ?? ''} of this source has no bucket le=${formatNumber(s.thresholdSeconds ?? NaN)}, so its requests are left out of the SLI (never read at a neighbouring bound). Choose a threshold that is a bound of every layout, or read the SLI from the front door.`,
          runbook: `${runbookBase}#slothresholdnotabucketbound`,
        },
      }),
    );
  }
  return out;
}

/** The period group: the error ratio over the SLO period, the objective and the budget remaining. */
function periodRules(s: SloSpec): RecordingRuleSpec[] {
  const labels = objectiveLabels(s);
  const period = formatPromDuration(s.periodMs ?? DEFAULT_PERIOD_MS);
  const ratio = `slo:sli_error:ratio_rate${period}`;
  return [
    recording(ratio, windowRatio(s, period), labels),
    recording('slo:objective:ratio', `0 * ${own('slo:sli_requests:rate5m', s)} + ${formatNumber(s.objective)}`, labels),
    recording('slo:error_budget_remaining:ratio', `1 - ${own(ratio, s)} / ${formatNumber(errorBudget(s))}`, labels),
  ];
}

/**
 * The rule groups of a list of objectives: per objective, a main group (5m rates, error ratios per
 * window, the burn-rate alerts and, for latency, the bucket-bound check) and a period group (the
 * ratio over the SLO period, the objective, the error budget remaining) that runs every 5 minutes.
 * Throws an `Error` listing every problem (`sloSpecProblems`) when the list is not valid.
 */
export function sloRuleGroups(specs: readonly SloSpec[], o: SloRuleOptions = {}): RuleGroupSpec[] {
  const problems = sloSpecProblems(specs);
  if (problems.length > 0) throw new Error(`invalid SLOs:\n  ${problems.join('\n  ')}`);
  const file = o.file ?? 'infersight:slo';
  const runbookBase = o.runbookBase ?? DEFAULT_RUNBOOK_BASE;
  return specs.flatMap((s) => [
    group(groupName(s), file, [...windowRules(s), ...alertRules(s, runbookBase)]),
    group(`${groupName(s)}:period`, file, periodRules(s), o.periodIntervalMs ?? 5 * 60_000),
  ]);
}
