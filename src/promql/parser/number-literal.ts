import { goQuote, goUnderscoreOK } from '../../model/index.js';

/**
 * The value of a NUMBER token, computed as Prometheus' parser does: `strconv.ParseInt(s, 0, 64)`
 * first (so `0x1f` is hex, `0755` octal and `1_000` a thousand), then `strconv.ParseFloat(s, 64)`
 * (`1e3`, `.5`, `2.`, `Inf`, `NaN`). Returns the number, or the Go error text
 * (`strconv.ParseFloat: parsing "…": value out of range`) when neither accepts it.
 */
export function parseNumberLiteral(text: string): number | string {
  const asInt = parseGoInt(text);
  if (asInt !== undefined) return asInt;
  return parseGoFloat(text);
}

const INT64_MAX = 2n ** 63n - 1n;

/** `strconv.ParseInt(s, 0, 64)` converted to float64, or undefined when Go would fail. */
function parseGoInt(s: string): number | undefined {
  let base = 10;
  let body = s;
  if (s.length >= 2 && s[0] === '0') {
    const p = s[1];
    if (p === 'x' || p === 'X') {
      base = 16;
      body = s.slice(2);
    } else if (p === 'o' || p === 'O') {
      base = 8;
      body = s.slice(2);
    } else if (p === 'b' || p === 'B') {
      base = 2;
      body = s.slice(2);
    } else {
      base = 8;
      body = s.slice(1);
    }
  }
  if (s.includes('_') && !goUnderscoreOK(s)) return undefined;
  body = body.replaceAll('_', '');
  if (body === '') return undefined;
  const digits = base === 16 ? /^[0-9a-fA-F]+$/ : base === 8 ? /^[0-7]+$/ : base === 2 ? /^[01]+$/ : /^[0-9]+$/;
  if (!digits.test(body)) return undefined;
  const prefix = base === 16 ? '0x' : base === 8 ? '0o' : base === 2 ? '0b' : '';
  const n = BigInt(prefix + body);
  if (n > INT64_MAX) return undefined;
  return Number(n);
}

const DECIMAL_FLOAT = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** `strconv.ParseFloat(s, 64)` for the shapes the lexer can produce. */
function parseGoFloat(s: string): number | string {
  const lower = s.toLowerCase();
  if (lower === 'inf' || lower === '+inf' || lower === 'infinity' || lower === '+infinity') return Infinity;
  if (lower === '-inf' || lower === '-infinity') return -Infinity;
  if (lower === 'nan') return NaN;
  const syntax = `strconv.ParseFloat: parsing ${goQuote(s)}: invalid syntax`;
  if (s.includes('_') && !goUnderscoreOK(s)) return syntax;
  const body = s.replaceAll('_', '');
  // Hexadecimal floats need a 'p' exponent in Go; the lexer never produces one.
  if (!DECIMAL_FLOAT.test(body)) return syntax;
  const v = Number(body);
  if (!Number.isFinite(v)) return `strconv.ParseFloat: parsing ${goQuote(s)}: value out of range`;
  return v;
}
