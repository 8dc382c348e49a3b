import type { NumberLiteral } from './ast.js';
import { DurationSyntaxError, parseDuration } from '../../model/index.js';
import { durationMsToSeconds } from './duration.js';
import { parseNumberLiteral } from './number-literal.js';
import type { ParserState } from './parser-state.js';
import { T, type Token } from './tokens.js';

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
};

/**
 * The value of a STRING token (quotes included), with Go's escape rules as Prometheus'
 * `strutil.Unquote` applies them: `\n`, `\x41`, `\101`, `\u263a`, `\U0001F600`; backquoted
 * strings are raw. The lexer has already rejected malformed escapes.
 *
 * `\x..` and octal escapes produce bytes, as in Go; a run of them is decoded as UTF-8, so
 * `"\xe2\x98\xba"` is `☺`. A byte that is not part of valid UTF-8 becomes the lone surrogate
 * U+DC80 + (byte - 0x80) (Python's "surrogateescape"), which the printer writes back as `\xNN`:
 * Go keeps such bytes raw, and this keeps them distinct and printable the same way.
 */
export function unquoteString(raw: string): string {
  const body = raw.slice(1, -1);
  if (raw[0] === '`' || !body.includes('\\')) return body;
  let out = '';
  let bytes: number[] | null = null;
  const flush = (): void => {
    if (bytes !== null) {
      out += decodeUtf8(bytes);
      bytes = null;
    }
  };
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') {
      flush();
      out += c;
      continue;
    }
    const e = body[++i];
    const simple = SIMPLE_ESCAPES[e] as string | undefined;
    if (simple !== undefined) {
      flush();
      out += simple;
    } else if (e === 'x' || (e >= '0' && e <= '7')) {
      const digits = e === 'x' ? body.slice(i + 1, i + 3) : body.slice(i, i + 3);
      (bytes ??= []).push(parseInt(digits, e === 'x' ? 16 : 8));
      i += 2; // The last hex or octal digit.
    } else {
      const n = e === 'u' ? 4 : 8;
      flush();
      out += String.fromCodePoint(parseInt(body.slice(i + 1, i + 1 + n), 16));
      i += n;
    }
  }
  flush();
  return out;
}

/** Length of the valid UTF-8 sequence starting at `b[i]`, or 0 when it is not valid. */
function utf8SequenceLength(b: readonly number[], i: number): number {
  const c = b[i];
  const cont = (k: number, lo = 0x80, hi = 0xbf): boolean => i + k < b.length && b[i + k] >= lo && b[i + k] <= hi;
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    const lo = c === 0xe0 ? 0xa0 : 0x80;
    const hi = c === 0xed ? 0x9f : 0xbf;
    return cont(1, lo, hi) && cont(2) ? 3 : 0;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    const lo = c === 0xf0 ? 0x90 : 0x80;
    const hi = c === 0xf4 ? 0x8f : 0xbf;
    return cont(1, lo, hi) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/** Decodes bytes as UTF-8, mapping each invalid byte to a lone surrogate (see `unquoteString`). */
function decodeUtf8(b: readonly number[]): string {
  let out = '';
  for (let i = 0; i < b.length; ) {
    const n = utf8SequenceLength(b, i);
    if (n === 0) {
      out += String.fromCharCode(0xdc00 + b[i]);
      i++;
      continue;
    }
    out += new TextDecoder().decode(new Uint8Array(b.slice(i, i + n)));
    i += n;
  }
  return out;
}

/**
 * A NumberLiteral for a NUMBER or DURATION token, or a `ParseError` with Prometheus' text
 * (`error parsing number: …`, `not a valid duration string: …`) at the token.
 */
export function numberLiteral(p: ParserState, tok: Token): NumberLiteral {
  const pos = p.range(tok);
  if (tok.type === T.DURATION) {
    try {
      return { type: 'NumberLiteral', value: durationMsToSeconds(parseDuration(tok.val)), duration: true, pos };
    } catch (e) {
      if (e instanceof DurationSyntaxError) throw p.errorAt(e.message, pos);
      throw e;
    }
  }
  const v = parseNumberLiteral(tok.val);
  if (typeof v === 'string') throw p.errorAt(`error parsing number: ${v}`, pos);
  return { type: 'NumberLiteral', value: v, duration: false, pos };
}

/** Whether a string is valid UTF-16 (no lone surrogates), i.e. would be valid UTF-8 in Go. */
export function isWellFormed(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c > 0xdbff || i + 1 >= s.length) return false;
    const d = s.charCodeAt(++i);
    if (d < 0xdc00 || d > 0xdfff) return false;
  }
  return true;
}
