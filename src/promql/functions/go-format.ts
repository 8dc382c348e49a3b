/**
 * The few Go formatting and parsing routines whose output Prometheus users see in PromQL function
 * results and messages: `%g` (`strconv.FormatFloat(f, 'g', -1, 64)` as `fmt` prints it), `%f`,
 * `%q`, `labels.FormatOpenMetricsFloat` and `strconv.ParseFloat` (used on `le` labels).
 */

/** Shortest round-trip digits and decimal exponent of a finite, non-zero `|x|`. */
function shortestDigits(x: number): { digits: string; exp: number } {
  // toExponential() without an argument yields the shortest digits that round-trip, like Go.
  const s = Math.abs(x).toExponential();
  const e = s.indexOf('e');
  return { digits: s.slice(0, e).replace('.', ''), exp: Number(s.slice(e + 1)) };
}

/**
 * Go's `strconv.FormatFloat(x, 'g', -1, 64)`: the shortest digits that round-trip, in `%e` form
 * (`1e+06`, `1.5e-05`) when the decimal exponent is below -4 or at least 6 (Go's threshold in
 * shortest mode), plain otherwise. Infinities print as `+Inf` and `-Inf`, NaN as `NaN`, as `fmt`
 * prints them for `%g`.
 */
export function formatGoFloat(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '+Inf';
  if (x === -Infinity) return '-Inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const sign = x < 0 ? '-' : '';
  const { digits, exp } = shortestDigits(x);
  if (exp < -4 || exp >= 6) {
    const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const ea = Math.abs(exp);
    return `${sign}${mant}e${exp < 0 ? '-' : '+'}${ea < 10 ? '0' : ''}${ea}`;
  }
  return sign + fixedFromDigits(digits, exp);
}

/** Plain decimal notation of `0.d1d2... × 10^(exp+1)`. */
function fixedFromDigits(digits: string, exp: number): string {
  if (exp < 0) return `0.${'0'.repeat(-exp - 1)}${digits}`;
  if (digits.length <= exp + 1) return digits + '0'.repeat(exp + 1 - digits.length);
  return `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
}

/** Go's `fmt.Sprintf("%f", x)`: six decimals; `NaN`, `+Inf`, `-Inf` for the special values. */
export function formatGoFixed6(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '+Inf';
  if (x === -Infinity) return '-Inf';
  // toFixed switches to exponent notation from 1e21 on; such doubles are integers.
  if (Math.abs(x) >= 1e21) return `${BigInt(x).toString()}.000000`;
  return x.toFixed(6);
}

/**
 * Prometheus' `labels.FormatOpenMetricsFloat`: like `%g`, but integral values get a `.0`
 * (`0.0`, `1.0`, `100.0`) so that they read as floats.
 */
export function formatOpenMetricsFloat(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '+Inf';
  if (x === -Infinity) return '-Inf';
  const s = formatGoFloat(x);
  return s.includes('.') || s.includes('e') ? s : `${s}.0`;
}

export { goQuote } from '../parser/go-format.js';

export { parseGoFloat } from '../../model/index.js';
