/**
 * Go's number syntax, which Prometheus' wire formats, API parameters and PromQL literals follow:
 * `strconv.ParseFloat` and the underscore rule of Go literals. One implementation for every
 * module (model may be imported by all).
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

/**
 * Go's `strconv.FormatFloat(v, 'f', -1, 64)`: the shortest decimal that round-trips, never in
 * exponent form (`1e+21` → `1000000000000000000000`, `1e-7` → `0.0000001`); `+Inf`, `-Inf`, `NaN`.
 */
export function formatGoFloatF(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  const s = String(v);
  const e = s.indexOf('e');
  if (e < 0) return s;
  const neg = s.startsWith('-');
  const mant = s.slice(neg ? 1 : 0, e);
  const exp = Number(s.slice(e + 1));
  const dot = mant.indexOf('.');
  const digits = mant.replace('.', '');
  const intLen = (dot < 0 ? mant.length : dot) + exp;
  let out: string;
  if (intLen <= 0) out = '0.' + '0'.repeat(-intLen) + digits;
  else if (intLen >= digits.length) out = digits + '0'.repeat(intLen - digits.length);
  else out = digits.slice(0, intLen) + '.' + digits.slice(intLen);
  return (neg ? '-' : '') + out;
}
