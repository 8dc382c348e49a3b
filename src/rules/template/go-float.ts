/**
 * Go's `strconv.FormatFloat(x, fmt, prec, 64)` for `e`, `f` and `g` with an explicit precision,
 * which `printf` and the `humanize*` functions (`%.4g`) need. JavaScript's `toFixed` and
 * `toPrecision` round a tie up, Go rounds the exact binary value half to even (`%.0f` of 2.5
 * is `2`), so digits are taken from the exact decimal expansion of the double. The shortest forms
 * (`prec` -1) are `formatGoFloatG` / `formatGoFloatF` in src/model.
 */
import { formatGoFloatF, formatGoFloatG } from '../../model/index.js';

/** Digits `d1d2...` and point position `dp`: the value is `0.d1d2... × 10^dp`; no trailing zeros. */
interface Decimal {
  digits: string;
  dp: number;
}

/** The exact decimal expansion of a finite, non-zero |x|. */
function exactDecimal(x: number): Decimal {
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, Math.abs(x));
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exp: number;
  if (biased === 0) exp = -1074;
  else {
    mant |= 1n << 52n;
    exp = biased - 1075;
  }
  let digits: string;
  let dp: number;
  if (exp >= 0) {
    digits = (mant << BigInt(exp)).toString();
    dp = digits.length;
  } else {
    digits = (mant * 5n ** BigInt(-exp)).toString();
    dp = digits.length + exp;
  }
  const trimmed = digits.replace(/0+$/, '');
  return { digits: trimmed, dp };
}

/** Rounds `d` to `nd` digits (half to even on the exact value); nd may be 0 or negative. */
function roundDecimal(d: Decimal, nd: number): Decimal {
  if (nd >= d.digits.length) return d;
  if (nd < 0) return { digits: '', dp: d.dp };
  const next = d.digits.charCodeAt(nd) - 48;
  const rest = d.digits.slice(nd + 1);
  let up = next > 5 || (next === 5 && rest !== '');
  if (next === 5 && rest === '') up = nd > 0 && (d.digits.charCodeAt(nd - 1) - 48) % 2 === 1;
  let kept = d.digits.slice(0, nd);
  let dp = d.dp;
  if (up) {
    let i = kept.length - 1;
    while (i >= 0 && kept[i] === '9') i--;
    if (i < 0) {
      kept = '1';
      dp++;
    } else kept = kept.slice(0, i) + String.fromCharCode(kept.charCodeAt(i) + 1);
  }
  return { digits: kept.replace(/0+$/, ''), dp };
}

function digitAt(d: Decimal, i: number): string {
  return i >= 0 && i < d.digits.length ? d.digits[i] : '0';
}

function fmtE(neg: boolean, d: Decimal, prec: number, e: string): string {
  let s = neg ? '-' : '';
  s += d.digits === '' ? '0' : d.digits[0];
  if (prec > 0) {
    s += '.';
    for (let i = 1; i <= prec; i++) s += digitAt(d, i);
  }
  const exp = d.digits === '' ? 0 : d.dp - 1;
  const ae = Math.abs(exp);
  return `${s}${e}${exp < 0 ? '-' : '+'}${ae < 10 ? '0' : ''}${ae}`;
}

function fmtF(neg: boolean, d: Decimal, prec: number): string {
  let s = neg ? '-' : '';
  if (d.dp > 0) for (let i = 0; i < d.dp; i++) s += digitAt(d, i);
  else s += '0';
  if (prec > 0) {
    s += '.';
    for (let i = 0; i < prec; i++) s += digitAt(d, d.dp + i);
  }
  return s;
}

/**
 * Go's `strconv.FormatFloat(x, verb, prec, 64)` for verb `e`, `E`, `f`, `g`, `G`; `prec` -1 is the
 * shortest representation. Infinities are `+Inf`/`-Inf`, NaN is `NaN`.
 */
export function formatGoFloatPrec(x: number, verb: 'e' | 'E' | 'f' | 'g' | 'G', prec: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  const neg = x < 0 || Object.is(x, -0);
  const lower = verb.toLowerCase() as 'e' | 'f' | 'g';
  const e = verb === 'E' || verb === 'G' ? 'E' : 'e';
  if (prec < 0) {
    if (lower === 'f') return formatGoFloatF(x);
    if (lower === 'g') return e === 'E' ? formatGoFloatG(x).toUpperCase().replace('INF', 'Inf').replace('NAN', 'NaN') : formatGoFloatG(x);
    // Shortest %e: all the shortest digits.
    const digits = x === 0 ? { digits: '', dp: 0 } : shortest(x);
    return fmtE(neg, digits, Math.max(digits.digits.length - 1, 0), e);
  }
  const exact: Decimal = x === 0 ? { digits: '', dp: 0 } : exactDecimal(x);
  switch (lower) {
    case 'e':
      return fmtE(neg, roundDecimal(exact, prec + 1), prec, e);
    case 'f':
      return fmtF(neg, roundDecimal(exact, exact.dp + prec), prec);
    case 'g': {
      let p = prec === 0 ? 1 : prec;
      const d = roundDecimal(exact, p);
      const nd = d.digits.length;
      let eprec = p;
      if (eprec > nd && nd >= d.dp) eprec = nd;
      const exp = d.dp - 1;
      if (exp < -4 || exp >= eprec) {
        if (p > nd) p = nd;
        return fmtE(neg, d, Math.max(p - 1, 0), e);
      }
      if (p > d.dp) p = nd;
      return fmtF(neg, d, Math.max(p - d.dp, 0));
    }
  }
}

/** Go's `strconv.FormatFloat(x, 'x', -1, 64)` (`%x` of a float64): `0x1.8p+00`; `X` upper-cases. */
export function formatGoFloatHex(x: number, upper: boolean): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  const neg = x < 0 || Object.is(x, -0);
  let out: string;
  if (x === 0) out = '0x0p+00';
  else {
    const buf = new DataView(new ArrayBuffer(8));
    buf.setFloat64(0, Math.abs(x));
    const biased = (buf.getUint32(0) >>> 20) & 0x7ff;
    let mant = (BigInt(buf.getUint32(0) & 0xfffff) << 32n) | BigInt(buf.getUint32(4));
    let exp = biased - 1023;
    if (biased === 0) {
      // A subnormal: shift until the leading 1 sits where the implicit bit would.
      exp = -1022;
      while ((mant & (1n << 52n)) === 0n) {
        mant <<= 1n;
        exp--;
      }
      mant &= (1n << 52n) - 1n;
    }
    const frac = mant.toString(16).padStart(13, '0').replace(/0+$/, '');
    const ae = Math.abs(exp);
    out = `0x1${frac === '' ? '' : `.${frac}`}p${exp < 0 ? '-' : '+'}${ae < 10 ? '0' : ''}${ae}`;
  }
  if (upper) out = out.toUpperCase();
  return neg ? `-${out}` : out;
}

/** The shortest round-trip digits of a finite non-zero x, as a Decimal. */
function shortest(x: number): Decimal {
  const s = Math.abs(x).toExponential();
  const i = s.indexOf('e');
  return { digits: s.slice(0, i).replace('.', '').replace(/0+$/, ''), dp: Number(s.slice(i + 1)) + 1 };
}
