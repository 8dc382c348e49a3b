/**
 * The PromQL of service-level indicators: the rate of all events and of bad events (slow or failed
 * requests) per endpoint and component over 5 minutes, read from catalog series only.
 *
 * A latency SLI is read from one bucket, `le` = the threshold, per bucket layout source. Engines and
 * front doors bucket differently (docs/design/histogram-layouts.md), so a threshold may be a bound of
 * one layout and not of another. A source without that bound is left out of the SLI (its requests
 * count neither as good nor as all), never read at a neighbouring `le`; `thresholdUnmatchedExpr`
 * names such sources so that an alert says so. docs/design/slo.md has the reasoning.
 */
import { AVAILABILITY_COUNTER, layoutSourceLabel, sloHistogram, type SloSpec } from './spec.js';

/** The labels every SLI series is kept apart by. */
export const SLI_SCOPE = ['endpoint', 'component'] as const;

/** A number as the `threshold_seconds` label and in `le` matchers: shortest decimal (`2`, `0.25`). */
export function formatNumber(v: number): string {
  return String(v);
}

/**
 * A regular expression for the `le` label values that spell `v`: the store keeps `le` as each
 * exporter wrote it (vLLM `1.0`, SGLang `1`, a rescaled DJL bound `0.005`), so `1` must match `1`,
 * `1.0` and `1.00`. `[.]` instead of `\.` keeps the PromQL and YAML text free of backslashes.
 * Exponent spellings (`1e-05`) are not matched; latency bounds from a millisecond up are never
 * written that way by the Prometheus clients.
 */
export function leMatcher(v: number): string {
  const [int, frac] = formatNumber(v).split('.');
  return frac === undefined ? `${int}([.]0*)?` : `${int}[.]${frac}0*`;
}

/** The selector matchers of an objective's scope (`endpoint="…"`, `component="…"`), to put first in a selector. */
export function scopeMatchers(s: SloSpec): string[] {
  const out: string[] = [];
  if (s.endpoint !== undefined) out.push(`endpoint=${JSON.stringify(s.endpoint)}`);
  if (s.component !== undefined) out.push(`component=${JSON.stringify(s.component)}`);
  return out;
}

/** `name{matchers}`, or `name` alone. */
export function selector(name: string, matchers: readonly string[]): string {
  return matchers.length === 0 ? name : `${name}{${matchers.join(', ')}}`;
}

/** `sum by (labels) (x)`. */
function sumBy(labels: readonly string[], x: string): string {
  return `sum by (${labels.join(', ')}) (${x})`;
}

/** The two rates an SLI is made of, per endpoint and component. */
export interface SliRates {
  /** Events per second (requests, or token intervals for ITL) that the SLI counts. */
  readonly total: string;
  /** Bad events per second: slower than the threshold, or answered with a 5xx. */
  readonly bad: string;
}

/**
 * The SLI rates of `s` over `window` (a PromQL duration). Latency: per layout source, all
 * observations (`_count`) and those at most the threshold (`_bucket{le=T}`); a source with no such
 * bucket drops out of both (the one-to-one `-` and the `and` match only sources that have it).
 * Availability: all front-door requests, and those with `status_class="5xx"` (`or` a zero per
 * scope, so a scope with no 5xx series still has an error rate of 0).
 */
export function sliRates(s: SloSpec, window: string): SliRates {
  const scope = scopeMatchers(s);
  const hist = sloHistogram(s);
  if (hist === undefined) {
    const all = sumBy(SLI_SCOPE, `rate(${selector(AVAILABILITY_COUNTER, scope)}[${window}])`);
    const bad = sumBy(SLI_SCOPE, `rate(${selector(AVAILABILITY_COUNTER, [...scope, 'status_class="5xx"'])}[${window}])`);
    return { total: all, bad: `${bad} or 0 * ${all}` };
  }
  const by = [...SLI_SCOPE, layoutSourceLabel(hist)];
  const count = sumBy(by, `rate(${selector(`${hist}_count`, scope)}[${window}])`);
  const good = sumBy(by, `rate(${selector(`${hist}_bucket`, [...scope, `le=~"${leMatcher(s.thresholdSeconds ?? NaN)}"`])}[${window}])`);
  return { total: sumBy(SLI_SCOPE, `${count} and ${good}`), bad: sumBy(SLI_SCOPE, `${count} - ${good}`) };
}

/**
 * The layout sources (per endpoint and component) that report the SLI's histogram but have no
 * bucket at its threshold: their requests are not in the SLI. Empty for availability objectives.
 */
export function thresholdUnmatchedExpr(s: SloSpec): string | undefined {
  const hist = sloHistogram(s);
  if (hist === undefined) return undefined;
  const scope = scopeMatchers(s);
  const by = [...SLI_SCOPE, layoutSourceLabel(hist)].join(', ');
  return `count by (${by}) (${selector(`${hist}_count`, scope)}) unless count by (${by}) (${selector(`${hist}_bucket`, [...scope, `le=~"${leMatcher(s.thresholdSeconds ?? NaN)}"`])})`;
}
