/**
 * Go's number syntax and number printing, which Prometheus' wire formats, API parameters, PromQL
 * literals and messages follow: `strconv.ParseFloat` and the underscore rule of Go literals;
 * `strconv.FormatFloat` in its `'f'` and `'g'` forms, `%f` and `math.Round`. One implementation
 * for every module (model may be imported by all), so that every printed float matches Go's.
 */

const DECIMAL = /^[+-]?(?:[0-9_]+\.?[0-9_]*|\.[0-9_]+)(?:[eE][+-]?[0-9_]+)?$/;
const HEX = /^([+-]?)0[xX]([0-9a-fA-F_]*)(?:\.([0-9a-fA-F_]*))?[pP]([+-]?[0-9_]+)$/;

/**
 * Go's rule for `_` in number literals (`strconv.underscoreOK`): only between digits, or right
 * after a base prefix.
 */
export function goUnderscoreOK(s: string): boolean {
  let saw = '^';
  let i = 0;
  if (s.startsWith('+') || s.startsWith('-')) s = s.slice(1);
  let hex = false;
  if (s.length >= 2 && s[0] === '0' && 'bBoOxX'.includes(s[1])) {
    i = 2;
    saw = '0';
    hex = s[1] === 'x' || s[1] === 'X';
  }
  for (; i < s.length; i++) {
    const c = s[i];
    if ((c >= '0' && c <= '9') || (hex && /[a-fA-F]/.test(c))) {
      saw = '0';
      continue;
    }
    if (c === '_') {
      if (saw !== '0') return false;
      saw = '_';
      continue;
    }
    if (saw === '_') return false;
    saw = '!';
  }
  return saw !== '_';
}

/**
 * Go's `strconv.ParseFloat(s, 64)`, returning `undefined` where Go returns an error: syntax
 * errors, and values out of range (which Go reports as `ErrRange` along with ±Inf). Accepts
 * `Inf`/`Infinity` (signed, any case), `NaN` (any case, unsigned), decimal and hexadecimal
 * (`0x1p-2`, exponent required) numbers with Go's underscore rules.
 */
export function parseGoFloat(s: string): number | undefined {
  const special = /^([+-]?)(inf|infinity)$/i.exec(s);
  if (special) return special[1] === '-' ? -Infinity : Infinity;
  if (/^nan$/i.test(s)) return NaN;
  if (s.includes('_') && !goUnderscoreOK(s)) return undefined;
  let v: number;
  if (DECIMAL.test(s)) {
    const clean = s.replaceAll('_', '');
    if (!/[0-9]/.test(clean.split(/[eE]/)[0])) return undefined;
    v = Number(clean);
  } else {
    const m = HEX.exec(s);
    if (!m) return undefined;
    const intPart = m[2].replaceAll('_', '');
    const fracPart = (m[3] ?? '').replaceAll('_', '');
    if (intPart === '' && fracPart === '') return undefined;
    const mant = BigInt(`0x${intPart}${fracPart}`);
    const exp = Number(m[4].replaceAll('_', '')) - 4 * fracPart.length;
    v = Number(mant) * 2 ** exp;
    if (m[1] === '-') v = -v;
  }
  if (!Number.isFinite(v)) return undefined; // ErrRange
  return v;
}

/** `+Inf`, `-Inf` and `NaN` as Go's `fmt` and `strconv` print them; `undefined` for a finite value. */
function specialFloat(v: number): string | undefined {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  return undefined;
}

/** The shortest round-trip decimal digits of a finite non-zero `|v|` and its decimal exponent. */
function shortestDigits(v: number): { digits: string; exp: number } {
  // toExponential() without an argument yields the shortest digits that round-trip, as Go's shortest mode.
  const s = Math.abs(v).toExponential();
  const e = s.indexOf('e');
  return { digits: s.slice(0, e).replace('.', ''), exp: Number(s.slice(e + 1)) };
}

/**
 * Go's `strconv.FormatFloat(v, 'f', -1, 64)`: the shortest decimal that round-trips, never in
 * exponent form (`1e+21` → `1000000000000000000000`, `1e-7` → `0.0000001`); `+Inf`, `-Inf`,
 * `NaN`, and `-0` for negative zero. Prometheus uses it for scalar results of its 2.x API,
 * `count_values` labels, OTLP `le` and `quantile` labels and PromQL number literals.
 */
export function formatGoFloatF(v: number): string {
  const special = specialFloat(v);
  if (special !== undefined) return special;
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const sign = v < 0 ? '-' : '';
  const { digits, exp } = shortestDigits(v);
  if (exp >= digits.length - 1) return sign + digits + '0'.repeat(exp - digits.length + 1);
  if (exp >= 0) return sign + digits.slice(0, exp + 1) + '.' + digits.slice(exp + 1);
  return sign + '0.' + '0'.repeat(-exp - 1) + digits;
}

/**
 * Go's `strconv.FormatFloat(v, 'g', -1, 64)`, which is also what `fmt`'s `%v` and `%g` print
 * for a float64: the shortest digits that round-trip, in exponent form (`1e+06`, `1.5e-05`, at
 * least two exponent digits) when the decimal exponent is below -4 or at least 6 (Go's threshold
 * in shortest mode), plain otherwise; `+Inf`, `-Inf`, `NaN`, and `-0` for negative zero. The
 * text exposition format and most of Prometheus' messages print floats this way.
 */
export function formatGoFloatG(v: number): string {
  const special = specialFloat(v);
  if (special !== undefined) return special;
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const { digits, exp } = shortestDigits(v);
  if (exp < -4 || exp >= 6) {
    const sign = v < 0 ? '-' : '';
    const mantissa = digits.length > 1 ? digits[0] + '.' + digits.slice(1) : digits;
    const e = Math.abs(exp).toString().padStart(2, '0');
    return `${sign}${mantissa}e${exp < 0 ? '-' : '+'}${e}`;
  }
  return formatGoFloatF(v);
}

/** Go's `fmt.Sprintf("%f", v)`: six decimals; `+Inf`, `-Inf` and `NaN` as Go prints them. */
export function formatGoFixed6(v: number): string {
  const special = specialFloat(v);
  if (special !== undefined) return special;
  // toFixed switches to exponent notation from 1e21 on; such doubles are integers.
  if (Math.abs(v) >= 1e21) return BigInt(v).toString() + '.000000';
  return v.toFixed(6);
}

/** Go's `math.Round`: half away from zero (JavaScript's `Math.round` rounds half up). */
export function goRound(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

/** Go's `strconv.FormatFloat(v, 'e', -1, 64)`: shortest digits, exponent with a sign and at least two digits. */
export function formatGoFloatE(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  const [mantissa, exp] = v.toExponential().split('e');
  const sign = exp.startsWith('-') ? '-' : '+';
  const m = Object.is(v, -0) ? `-${mantissa}` : mantissa;
  return `${m}e${sign}${exp.replace(/^[+-]/, '').padStart(2, '0')}`;
}
