import { goQuote, goRuneHash } from '../../model/index.js';
import { EOF, type LexCursor, RUNE_ERROR, isAlphaNumeric } from './lex-cursor.js';
import { T, type Token } from './tokens.js';

const DECIMAL = '0123456789';
const HEX = '0123456789abcdefABCDEF';

function digitVal(ch: number): number {
  if (ch >= 0x30 && ch <= 0x39) return ch - 0x30;
  if (ch >= 0x61 && ch <= 0x66) return ch - 0x61 + 10;
  if (ch >= 0x41 && ch <= 0x46) return ch - 0x41 + 10;
  return 16;
}

/**
 * Scans `[.][d][d._eE]*` (hex digits after `0x`) as Prometheus' `scanNumber` does, including
 * what it consumes before giving up; true when the text is a number token.
 */
function scanNumber(c: LexCursor): boolean {
  const initial = c.pos;
  let digits = DECIMAL;
  if (c.accept('0') && c.accept('xX')) {
    c.accept('_');
    digits = HEX;
  }
  c.accept('.');
  c.accept(digits);
  let dotConsumed = false;
  let expConsumed = false;
  const loopSet = digits + '._eE';
  while (c.is(loopSet)) {
    if (c.is('.') && dotConsumed) {
      c.accept('.');
      return false;
    }
    if (c.is('eE') && expConsumed) {
      c.accept('eE');
      return false;
    }
    if (c.accept('.')) {
      dotConsumed = true;
      if (c.accept('_.')) return false;
      if (digits === HEX) return false; // Fractional hexadecimal literals are not allowed.
      continue;
    }
    if (c.accept('eE')) {
      expConsumed = true;
      c.accept('+-');
      if (c.accept('._eE') || c.peek() === EOF) return false;
      continue;
    }
    if (c.accept('_')) {
      if (c.accept('._eE') || c.peek() === EOF) return false;
      continue;
    }
    while (c.accept(digits));
  }
  if (c.pos === initial) return false;
  return !isAlphaNumeric(c.peek());
}

/** After a number that did not end cleanly: does a duration unit (`5m`, `1h30m`, `2ms`) follow? */
function acceptRemainingDuration(c: LexCursor): boolean {
  if (!c.accept('smhdwy')) return false;
  c.accept('s'); // `ms`; units such as `hs` are rejected when the duration is parsed.
  while (c.accept(DECIMAL)) {
    while (c.accept(DECIMAL));
    if (!c.accept('smhdw')) return false;
    c.accept('s');
  }
  return !isAlphaNumeric(c.next());
}

/** Prometheus' `lexNumberOrDuration`: a NUMBER, a DURATION, or `bad number or duration syntax`. */
export function lexNumberOrDuration(c: LexCursor): Token {
  if (scanNumber(c)) return c.emit(T.NUMBER);
  if (acceptRemainingDuration(c)) {
    c.backup();
    return c.emit(T.DURATION);
  }
  return c.errorf(`bad number or duration syntax: ${goQuote(c.text())}`);
}

/** Validates one escape sequence (the backslash is consumed); returns an error token or null. */
function lexEscape(c: LexCursor, quote: number): Token | null {
  let ch = c.next();
  let n: number;
  let base: number;
  let max: number;
  if ((ch < 0x80 && ch >= 0 && 'abfnrtv\\'.includes(String.fromCharCode(ch))) || ch === quote) return null;
  if (ch >= 0x30 && ch <= 0x37) [n, base, max] = [3, 8, 255];
  else if (ch === 0x78) [n, base, max, ch] = [2, 16, 255, c.next()];
  else if (ch === 0x75) [n, base, max, ch] = [4, 16, 0x10ffff, c.next()];
  else if (ch === 0x55) [n, base, max, ch] = [8, 16, 0x10ffff, c.next()];
  else if (ch === EOF) return c.errorf('escape sequence not terminated');
  else return c.errorf(`unknown escape sequence ${goRuneHash(ch)}`);
  let x = 0;
  while (n > 0) {
    const d = digitVal(ch);
    if (d >= base) {
      if (ch === EOF) return c.errorf('escape sequence not terminated');
      return c.errorf(`illegal character ${goRuneHash(ch)} in escape sequence`);
    }
    x = x * base + d;
    n--;
    if (n > 0) ch = c.next();
  }
  if (x > max || (x >= 0xd800 && x < 0xe000)) return c.errorf('escape sequence is an invalid Unicode code point');
  return null;
}

/** Scans a `"` or `'` string whose opening quote was consumed (Prometheus' `lexString`). */
export function lexString(c: LexCursor, quote: number): Token {
  for (;;) {
    const r = c.next();
    if (r === 0x5c) {
      const err = lexEscape(c, quote);
      if (err !== null) return err;
    } else if (r === RUNE_ERROR) return c.errorf('invalid UTF-8 rune');
    else if (r === EOF || r === 0x0a) return c.errorf('unterminated quoted string');
    else if (r === quote) return c.emit(T.STRING);
  }
}

/** Scans a backquoted string whose opening quote was consumed (Prometheus' `lexRawString`). */
export function lexRawString(c: LexCursor, quote: number): Token {
  for (;;) {
    const r = c.next();
    if (r === RUNE_ERROR) return c.errorf('invalid UTF-8 rune');
    if (r === EOF) return c.errorf('unterminated raw string');
    if (r === quote) return c.emit(T.STRING);
  }
}
