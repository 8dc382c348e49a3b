/**
 * Dashboard variables: filling `$name` / `${name}` into PromQL the way Grafana's Prometheus data
 * source does, so the built-in UI and the tests run the same text Grafana would. Pure functions;
 * no I/O, browser-safe.
 */
import type { Band, Dashboard, Panel, Unit, Variable } from './types.js';

/** The value of a multi-select variable set to "all" (Grafana's spelling). Formats as `.*`. */
export const ALL = '$__all';

/** A variable's current value: one value, several (multi-select), or `ALL`. */
export type VariableValue = string | readonly string[];

/** Current values by variable name. */
export type VariableValues = Readonly<Record<string, VariableValue>>;

/** What `interpolate` needs besides the values: the variables' kinds and Grafana's built-ins. */
export interface InterpolateOptions {
  /** The dashboard's variables; their kind decides how a value is written (see `interpolate`). */
  readonly variables?: readonly Variable[];
  /** `$__rate_interval`, as a Prometheus duration (`1m`); left as written when absent. */
  readonly rateInterval?: string;
  /** `$__interval`: the query step (`15s`); left as written when absent. */
  readonly interval?: string;
  /** `$__range`: the dashboard's time range (`3600s`); left as written when absent. */
  readonly range?: string;
}

/** RE2's metacharacters: each is escaped with a backslash to match itself. */
const RE2_META = /[\\.+*?()|[\]{}^$]/g;

/** Escapes `value` so that an RE2 regex matches it literally (`ml.g5` → `ml\.g5`). */
export function regexEscape(value: string): string {
  return value.replace(RE2_META, '\\$&');
}

/** Escapes text for the inside of a PromQL double-quoted string (backslash, quote, newline). */
export function promqlStringEscape(text: string): string {
  return text.replace(/[\\"]/g, '\\$&').replace(/\n/g, '\\n');
}

/**
 * A label-value selection as the inside of a `=~"..."` matcher: `ALL` or no value is `.*`, one
 * value is itself regex-escaped, several are an alternation (`a|b`). The result is escaped for the
 * PromQL string it goes into, so `ml.g5.12xlarge` becomes `ml\\.g5\\.12xlarge`.
 */
export function formatRegexValue(value: VariableValue): string {
  const list = typeof value === 'string' ? [value] : value;
  if (list.length === 0 || list.includes(ALL)) return '.*';
  return promqlStringEscape(list.map(regexEscape).join('|'));
}

const REFERENCE = /\$(?:\{(\w+)\}|(\w+))/g;

const BUILTINS: Readonly<Record<string, keyof InterpolateOptions>> = {
  __rate_interval: 'rateInterval',
  __interval: 'interval',
  __range: 'range',
};

/**
 * Replaces variable references in `expr`. A reference is `$name` or `${name}` where the name is
 * the longest run of word characters, so `$instance_type` never reads as `$instance` followed by
 * `_type`. How a value is written depends on the variable's kind in `opts.variables`:
 *
 * - `labelValues`: as a regex (`formatRegexValue`), meant for the inside of `=~"..."`; a missing
 *   value counts as all (`.*`).
 * - `custom` and `text`: verbatim (a missing value is the variable's default; of an array, the
 *   first element).
 * - a name with a value but no variable: a string verbatim, an array as a regex.
 *
 * Grafana's built-ins `$__rate_interval`, `$__interval` and `$__range` take the durations in
 * `opts`. Anything else (an unknown name, a built-in not given, `$1` in `label_replace`) is left
 * as written.
 */
export function interpolate(expr: string, values: VariableValues, opts: InterpolateOptions = {}): string {
  const byName = new Map((opts.variables ?? []).map((v) => [v.name, v]));
  return expr.replace(REFERENCE, (whole, braced: string | undefined, bare: string | undefined) => {
    const name = braced ?? bare ?? '';
    const builtin = BUILTINS[name] as 'rateInterval' | 'interval' | 'range' | undefined;
    if (builtin !== undefined) return opts[builtin] ?? whole;
    const variable = byName.get(name);
    const value = Object.hasOwn(values, name) ? values[name] : undefined;
    if (variable === undefined) {
      if (value === undefined) return whole;
      return typeof value === 'string' ? value : formatRegexValue(value);
    }
    if (variable.kind === 'labelValues') return formatRegexValue(value ?? ALL);
    if (value === undefined) return variable.default ?? variable.options?.[0]?.value ?? '';
    return typeof value === 'string' ? value : (value[0] ?? '');
  });
}

/** The value of each variable when nothing is chosen: all, the default, or the first option. */
export function defaultValues(dashboard: Pick<Dashboard, 'variables'>): Record<string, VariableValue> {
  const out: Record<string, VariableValue> = {};
  for (const v of dashboard.variables) out[v.name] = v.kind === 'labelValues' ? ALL : (v.default ?? v.options?.[0]?.value ?? '');
  return out;
}

/**
 * The series selector whose `v.labelName` values are a `labelValues` variable's options (for
 * `/api/v1/label/<name>/values?match[]=`), with the variables before it filled in.
 */
export function variableSelector(v: Variable, values: VariableValues, variables: readonly Variable[]): string {
  return interpolate(v.match ?? v.metric ?? '', values, { variables });
}

const BAND = /^\s*(\d+(?:\.\d+)?)\s*[-–]\s*(\d+(?:\.\d+)?)\s*%?\s*$/;

/**
 * Parses a band variable such as `40-50`. On a `ratio` or `percent` panel the text is in percent
 * (what operators type), so `40-50` is 0.4–0.5 on a `ratio` panel and 40–50 on a `percent` one; on
 * any other panel the numbers are in the panel's unit. Undefined when the text is not two
 * non-negative numbers `from-to` with from ≤ to.
 */
export function parseBand(text: string, unit: Unit): { from: number; to: number } | undefined {
  const m = BAND.exec(text);
  if (m === null) return undefined;
  const scale = unit === 'ratio' ? 100 : 1;
  const from = Number(m[1]) / scale;
  const to = Number(m[2]) / scale;
  return from <= to ? { from, to } : undefined;
}

/** The band of a panel with its variable's current value applied (the default when it does not parse). */
export function resolveBand(panel: Pick<Panel, 'band' | 'unit'>, values: VariableValues): Band | undefined {
  const band = panel.band;
  if (band?.variable === undefined) return band;
  const text = values[band.variable];
  const parsed = typeof text === 'string' ? parseBand(text, panel.unit) : undefined;
  return parsed === undefined ? band : { ...band, ...parsed };
}

/** A duration in milliseconds as a Prometheus duration: whole seconds (`90s`) or milliseconds. */
export function promDuration(ms: number): string {
  const whole = Math.max(1, Math.round(ms));
  return whole % 1000 === 0 ? `${whole / 1000}s` : `${whole}ms`;
}

/**
 * Grafana's built-in intervals for a range query: `$__interval` is the step, `$__range` the range,
 * and `$__rate_interval` is max(step + scrape interval, 4 × scrape interval), so a rate always sees
 * at least four samples. The scrape interval defaults to 15 s (Prometheus' and the demo's).
 */
export function builtinIntervals(o: { rangeMs: number; stepMs: number; scrapeIntervalMs?: number }): Required<Omit<InterpolateOptions, 'variables'>> {
  const scrape = o.scrapeIntervalMs ?? 15_000;
  return {
    interval: promDuration(o.stepMs),
    rateInterval: promDuration(Math.max(o.stepMs + scrape, 4 * scrape)),
    range: promDuration(o.rangeMs),
  };
}
