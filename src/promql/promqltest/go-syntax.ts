/**
 * The bits of Go syntax the promqltest script language borrows from Go's standard library:
 * numbers (`strconv.ParseInt` with base 0, then `strconv.ParseFloat`) and quoted strings
 * (`strconv.Unquote`). They differ from PromQL's own rules in small ways the upstream files depend
 * on (`017` is octal), so they are kept exact here. Durations (`model.ParseDuration`) are
 * `src/model`'s `parseDurationMs`, floats (`strconv.ParseFloat`) its `parseGoFloat`.
 */
import { goUnderscoreOK, parseGoFloat } from '../../model/index.js';

/** `strconv.ParseInt(text, 0, 64)`; `undefined` on any error, including overflow. */
function parseGoInt(text: string): number | undefined {
  const m = /^([+-]?)(0[xX]|0[bB]|0[oO]|0(?=[0-7_]))?([0-9a-fA-F_]+)$/.exec(text);
  if (m === null) return undefined;
  const prefix = (m[2] ?? '').toLowerCase();
  const base = prefix === '0x' ? 16 : prefix === '0b' ? 2 : prefix === '' ? 10 : 8;
  const digits = m[3];
  if (!goUnderscoreOK(text)) return undefined;
  const clean = digits.replaceAll('_', '');
  const valid = { 16: /^[0-9a-fA-F]+$/, 10: /^[0-9]+$/, 8: /^[0-7]+$/, 2: /^[01]+$/ }[base];
  if (!valid.test(clean)) return undefined;
  const big = BigInt(base === 10 ? clean : `0${prefix === '0' ? 'o' : prefix[1]}${clean}`) * (m[1] === '-' ? -1n : 1n);
  if (big > 9223372036854775807n || big < -9223372036854775808n) return undefined;
  return Number(big);
}

/**
 * Parses a number as test.go's `parseNumber` does: first `strconv.ParseInt(text, 0, 64)` (so
 * `0x1f`, `0o17`, `0b101`, octal `017` and `1_000` are integers), then `strconv.ParseFloat`
 * (decimal and hexadecimal floats, `Inf`, `Infinity`, `NaN`, any letter case). Returns
 * `undefined` when neither accepts the text, or when the float overflows.
 */
export function parseGoNumber(text: string): number | undefined {
  return parseGoInt(text) ?? parseGoFloat(text);
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
};

/**
 * `strconv.Unquote`: a double-quoted string with Go escapes, a back-quoted raw string, or a
 * single-quoted character. Returns `undefined` when the text is not exactly one such literal.
 * `\x` and octal escapes give single bytes; like Go's, the result is then read as UTF-8 only when
 * the bytes form valid UTF-8 (otherwise each byte becomes the code point of the same value).
 */
export function goUnquote(text: string): string | undefined {
  if (text.length < 2) return undefined;
  const q = text[0];
  if (text[text.length - 1] !== q) return undefined;
  const body = text.slice(1, -1);
  if (q === '`') return body.includes('`') || body.includes('\r') ? undefined : body;
  if (q !== '"' && q !== "'") return undefined;
  let out = '';
  let bytes: number[] = [];
  const flush = (): void => {
    if (bytes.length === 0) return;
    try {
      out += new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes));
    } catch {
      out += String.fromCharCode(...bytes);
    }
    bytes = [];
  };
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\n' || c === q) return undefined;
    if (c !== '\\') {
      flush();
      out += c;
      continue;
    }
    const e = body[++i] as string | undefined;
    if (e === undefined) return undefined;
    if (e in SIMPLE_ESCAPES) {
      flush();
      out += SIMPLE_ESCAPES[e];
    } else if (e === q) {
      flush();
      out += e;
    } else if (e === 'x' || e === 'u' || e === 'U') {
      const n = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      const hex = body.slice(i + 1, i + 1 + n);
      if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(hex)) return undefined;
      i += n;
      if (e === 'x') bytes.push(parseInt(hex, 16));
      else {
        const cp = parseInt(hex, 16);
        if (cp > 0x10ffff || (cp >= 0xd800 && cp < 0xe000)) return undefined;
        flush();
        out += String.fromCodePoint(cp);
      }
    } else if (e >= '0' && e <= '7') {
      const oct = body.slice(i, i + 3);
      if (!/^[0-7]{3}$/.test(oct) || parseInt(oct, 8) > 255) return undefined;
      i += 2;
      bytes.push(parseInt(oct, 8));
    } else {
      return undefined;
    }
  }
  flush();
  if (q === "'" && Array.from(out).length !== 1) return undefined; // one code point, as Go's rune
  return out;
}

/**
 * A number as the PromQL lexer reads it inside a series description: an optional sign, then
 * decimal digits with an optional fraction and exponent, or `Inf`/`NaN` in any letter case.
 * Hexadecimal is not a number there (`0x10` is "0, ten more times"), but the token is converted
 * like every PromQL number, with `ParseInt(…, 0, 64)` first, so a leading 0 still means octal.
 * Returns `undefined` when `text` is not exactly one such number.
 */
export function parseSeriesNumber(text: string): number | undefined {
  const m = /^([+-]?)((?:[0-9][0-9_]*\.?[0-9_]*|\.[0-9][0-9_]*)(?:[eE][+-]?[0-9]+)?|inf|nan)$/i.exec(text);
  if (m === null) return undefined;
  const v = parseGoNumber(m[2]);
  if (v === undefined) return undefined;
  return m[1] === '-' ? -v : v;
}
