/**
 * Time units used across Infersight. They are plain numbers at run time; the aliases make
 * the unit part of every public signature so that a bare `number` never means "time".
 */

/** Milliseconds since the Unix epoch (Prometheus' sample timestamp unit). Always an integer. */
export type UnixMs = number;

/** A duration in milliseconds. Always an integer. */
export type DurationMs = number;

/** A function returning the current time; injected everywhere so tests control the clock. */
export type Clock = () => UnixMs;

/** The wall clock, for production wiring only. */
export const systemClock: Clock = () => Date.now();

/** The smallest and largest timestamps Infersight stores: the range where every integer is exact in a float64. */
export const MIN_TIME_MS: UnixMs = Number.MIN_SAFE_INTEGER;
export const MAX_TIME_MS: UnixMs = Number.MAX_SAFE_INTEGER;

const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
  y: 31_536_000_000,
};

/**
 * Parses a Prometheus duration such as `15d`, `1h30m` or `500ms` into milliseconds.
 * Returns `undefined` when the text is not a valid duration.
 */
export function parseDurationMs(text: string): DurationMs | undefined {
  if (text === '') return undefined;
  const re = /(\d+)(ms|y|w|d|h|m|s)/gy;
  let total = 0;
  let consumed = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    total += Number(m[1]) * (UNIT_MS[m[2]] ?? 0);
    consumed = re.lastIndex;
  }
  return consumed === text.length && Number.isSafeInteger(total) ? total : undefined;
}
