import { formatGoFloatF, type UnixMs } from '../model/index.js';
import type { SamplePair } from './wire.js';

/**
 * Formats a sample value as Prometheus' JSON API does (`marshalValue` in web/api/v1): Go's
 * shortest round-trip digits in plain notation, switching to exponent notation (two-digit
 * exponent at least, `1e-07`, `1.5e+21`) below 1e-6 and from 1e21 on; `+Inf`, `-Inf`, `NaN`;
 * negative zero keeps its sign (`-0`).
 */
export function formatSampleValue(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const abs = Math.abs(v);
  if (abs >= 1e-6 && abs < 1e21) return String(v); // JavaScript prints plain notation in exactly this range
  const [mantissa, exp] = v.toExponential().split('e');
  const sign = exp.startsWith('-') ? '-' : '+';
  const digits = exp.replace(/^[+-]/, '');
  return `${mantissa}e${sign}${digits.padStart(2, '0')}`;
}

/**
 * Formats the value of a scalar result as Prometheus 2.x's API does (`Scalar.MarshalJSON`: Go's
 * `strconv.FormatFloat(v, 'f', -1, 64)`): shortest digits, never an exponent (`0.0000001`,
 * `2500000000000000000000`), `+Inf`, `-Inf`, `NaN`, `-0`. (Prometheus 3 writes scalars like
 * samples, with `formatSampleValue`.)
 */
export function formatScalarValue(v: number): string {
  return formatGoFloatF(v);
}

/**
 * Parses a sample value string of the API (`"1.5"`, `"+Inf"`, `"-Inf"`, `"NaN"`, `"1e-07"`).
 * Returns NaN for text that is not a number.
 */
export function parseSampleValue(s: string): number {
  switch (s) {
    case '+Inf':
    case 'Inf':
      return Infinity;
    case '-Inf':
      return -Infinity;
    case 'NaN':
      return NaN;
    default:
      return s.trim() === '' ? NaN : Number(s);
  }
}

/** Converts a timestamp in ms to the API's Unix seconds (a JSON number). */
export function msToUnixSeconds(tMs: UnixMs): number {
  return tMs / 1000;
}

/** Converts the API's Unix seconds back to ms (rounded to the millisecond, as Prometheus keeps them). */
export function unixSecondsToMs(seconds: number): UnixMs {
  return Math.round(seconds * 1000);
}

/**
 * The JSON text Prometheus writes for a timestamp (`marshalTimestamp`): whole seconds, then `.`
 * and exactly three digits when the milliseconds are not zero (`1700006700.500`, `-1.250`).
 * `tMs` must be an integer.
 */
export function formatTimestampJson(tMs: UnixMs): string {
  const neg = tMs < 0;
  const abs = neg ? -tMs : tMs;
  const secs = Math.floor(abs / 1000);
  const frac = abs - secs * 1000;
  const text = frac === 0 ? String(secs) : `${secs}.${String(frac).padStart(3, '0')}`;
  return neg ? `-${text}` : text;
}

/** Formats a timestamp for a request parameter (`time`, `start`, `end`): Unix seconds with up to three decimals. */
export function formatTimeParam(tMs: UnixMs): string {
  return formatTimestampJson(Math.round(tMs));
}

/** Formats a duration for a request parameter (`step`, `timeout`): seconds as a decimal number. */
export function formatDurationParam(ms: number): string {
  return formatTimestampJson(Math.round(ms));
}

/** Builds a sample pair from a timestamp in ms and a value. */
export function samplePair(tMs: UnixMs, v: number): SamplePair {
  return [msToUnixSeconds(tMs), formatSampleValue(v)];
}
