import { goQuote } from './go-quote.js';
import type { DurationMs } from './time.js';

/**
 * Prometheus durations (`github.com/prometheus/common/model.Duration`): `1h30m`, `500ms`, `2w`,
 * `0`. Units come from largest to smallest, each at most once; a year is 365 days; the total must
 * fit Go's `time.Duration` (2^63 − 1 ns, about 292 years). The one parser and printer of every
 * module: configuration files, PromQL literals, API parameters, CLI flags and promqltest scripts
 * all accept exactly what Prometheus accepts (so `1s1h` is refused everywhere).
 */

const UNITS: ReadonlyMap<string, { readonly pos: number; readonly ms: bigint }> = new Map([
  ['ms', { pos: 7, ms: 1n }],
  ['s', { pos: 6, ms: 1000n }],
  ['m', { pos: 5, ms: 60_000n }],
  ['h', { pos: 4, ms: 3_600_000n }],
  ['d', { pos: 3, ms: 86_400_000n }],
  ['w', { pos: 2, ms: 604_800_000n }],
  ['y', { pos: 1, ms: 31_536_000_000n }],
]);

const NS_PER_MS = 1_000_000n;
const INT64_MAX = 2n ** 63n - 1n;

/** Why a duration was refused: the four errors of `model.ParseDuration`. */
export type DurationSyntaxReason = 'empty' | 'syntax' | 'unknown-unit' | 'range';

/**
 * A duration string Prometheus refuses. The message is the one of current Prometheus
 * (`prometheus/common` 0.43 on); `reason` lets a caller that must speak like an older version
 * reword it (Prometheus 2.42's configuration loader said `not a valid duration string` for an
 * unknown unit too: `src/config`).
 */
export class DurationSyntaxError extends Error {
  /** Creates the error; `reason` says which of Prometheus' checks failed. */
  constructor(
    message: string,
    readonly reason: DurationSyntaxReason,
  ) {
    super(message);
    this.name = 'DurationSyntaxError';
  }
}

const isDigit = (c: string): boolean => c >= '0' && c <= '9';

/**
 * Parses a Prometheus duration into milliseconds, as `model.ParseDuration` does. Throws
 * `DurationSyntaxError` with Prometheus' text: `empty duration string`,
 * `not a valid duration string: "5m1h"`, `unknown unit "hs" in duration "1hs"`,
 * `duration out of range`. The sum is exact (in BigInt nanoseconds) up to Go's limit.
 */
export function parseDuration(text: string): DurationMs {
  if (text === '0') return 0;
  if (text === '') throw new DurationSyntaxError('empty duration string', 'empty');
  const invalid = (): DurationSyntaxError => new DurationSyntaxError(`not a valid duration string: ${goQuote(text)}`, 'syntax');
  let i = 0;
  let lastPos = 0;
  let totalNs = 0n;
  while (i < text.length) {
    if (!isDigit(text[i])) throw invalid();
    const numStart = i;
    while (i < text.length && isDigit(text[i])) i++;
    const v = BigInt(text.slice(numStart, i));
    const unitStart = i;
    while (i < text.length && !isDigit(text[i])) i++;
    if (i === unitStart) throw invalid();
    const u = text.slice(unitStart, i);
    const unit = UNITS.get(u);
    if (unit === undefined) throw new DurationSyntaxError(`unknown unit ${goQuote(u)} in duration ${goQuote(text)}`, 'unknown-unit');
    if (unit.pos <= lastPos) throw invalid();
    lastPos = unit.pos;
    const multNs = unit.ms * NS_PER_MS;
    if (v > 2n ** 63n / multNs) throw new DurationSyntaxError('duration out of range', 'range');
    totalNs += v * multNs;
    if (totalNs > INT64_MAX) throw new DurationSyntaxError('duration out of range', 'range');
  }
  return Number(totalNs / NS_PER_MS);
}

/**
 * `parseDuration` for callers that only need to know whether the text is a duration (CLI flags,
 * environment variables, query parameters): the milliseconds, or `undefined` where
 * `parseDuration` throws.
 */
export function parseDurationMs(text: string): DurationMs | undefined {
  try {
    return parseDuration(text);
  } catch (err) {
    if (err instanceof DurationSyntaxError) return undefined;
    throw err;
  }
}

const STRING_UNITS: readonly (readonly [string, number, boolean])[] = [
  ['y', 31_536_000_000, true],
  ['w', 604_800_000, true],
  ['d', 86_400_000, false],
  ['h', 3_600_000, false],
  ['m', 60_000, false],
  ['s', 1000, false],
  ['ms', 1, false],
];

/**
 * Prints milliseconds as `model.Duration.String()` does: `1h30m`, `90d` (years and weeks only
 * when they divide evenly), `0s` for zero. Negative durations get a leading `-` (Prometheus'
 * printers add that sign themselves). Fractions of a millisecond are truncated.
 */
export function formatDuration(ms: DurationMs): string {
  let rest = Math.trunc(ms);
  if (rest === 0) return '0s';
  if (rest < 0) return '-' + formatDuration(-rest);
  let out = '';
  for (const [unit, mult, exact] of STRING_UNITS) {
    if (exact && rest % mult !== 0) continue;
    const v = Math.floor(rest / mult);
    if (v > 0) {
      out += `${v}${unit}`;
      rest -= v * mult;
    }
  }
  return out;
}
