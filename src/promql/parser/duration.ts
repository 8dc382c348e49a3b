import type { DurationMs } from '../../model/index.js';
import { goQuote } from './go-format.js';

/**
 * Prometheus durations (`github.com/prometheus/common/model.Duration`): `1h30m`, `500ms`, `2w`,
 * `0`. Units must come from largest to smallest, each at most once; a year is 365 days.
 *
 * `src/model/time.ts` has a lenient `parseDurationMs`; it accepts units out of order and has no
 * error texts, so the parser keeps this exact copy of Prometheus' rules.
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

/** A duration string Prometheus rejects; the message is Prometheus' own. */
export class DurationSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DurationSyntaxError';
  }
}

const isDigit = (c: string): boolean => c >= '0' && c <= '9';

/**
 * Parses a Prometheus duration into milliseconds, as `model.ParseDuration` does. Throws
 * `DurationSyntaxError` with Prometheus' text (`not a valid duration string: "5m1h"`,
 * `unknown unit "hs" in duration "1hs"`, `duration out of range`).
 */
export function parseDuration(text: string): DurationMs {
  if (text === '0') return 0;
  if (text === '') throw new DurationSyntaxError('empty duration string');
  const invalid = (): DurationSyntaxError => new DurationSyntaxError(`not a valid duration string: ${goQuote(text)}`);
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
    if (unit === undefined) throw new DurationSyntaxError(`unknown unit ${goQuote(u)} in duration ${goQuote(text)}`);
    if (unit.pos <= lastPos) throw invalid();
    lastPos = unit.pos;
    const multNs = unit.ms * NS_PER_MS;
    if (v > 2n ** 63n / multNs) throw new DurationSyntaxError('duration out of range');
    totalNs += v * multNs;
    if (totalNs > INT64_MAX) throw new DurationSyntaxError('duration out of range');
  }
  return Number(totalNs / NS_PER_MS);
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
export function durationToString(ms: DurationMs): string {
  let rest = Math.trunc(ms);
  if (rest === 0) return '0s';
  if (rest < 0) return '-' + durationToString(-rest);
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

/**
 * The seconds value Prometheus gives a duration token (`time.Duration.Seconds()`), computed the
 * same way so that the float matches bit for bit.
 */
export function durationMsToSeconds(ms: DurationMs): number {
  const sec = Math.trunc(ms / 1000);
  return sec + ((ms - sec * 1000) * 1e6) / 1e9;
}

/**
 * Milliseconds of a seconds value as `time.Duration(math.Round(s * 1e9))` then
 * `Duration / time.Millisecond`: how Prometheus turns a range, step or offset literal into time.
 */
export function secondsToMs(seconds: number): DurationMs {
  const ns = seconds * 1e9;
  const rounded = ns < 0 ? -Math.round(-ns) : Math.round(ns);
  return Math.trunc(rounded / 1e6);
}
