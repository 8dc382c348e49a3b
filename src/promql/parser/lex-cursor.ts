import { T, type Token, type TokenType } from './tokens.js';

/** What `next` returns at the end of the input (Go's `eof`). */
export const EOF = -1;
/** What `next` returns for text that is not valid Unicode (Go's `utf8.RuneError`). */
export const RUNE_ERROR = 0xfffd;

/** Prometheus' `isSpace`: space, tab, newline, carriage return (and nothing else). */
export const isSpace = (r: number): boolean => r === 0x20 || r === 0x09 || r === 0x0a || r === 0x0d;
/** An ASCII digit. */
export const isDigit = (r: number): boolean => r >= 0x30 && r <= 0x39;
/** An ASCII letter or `_`. */
export const isAlpha = (r: number): boolean => r === 0x5f || (r >= 0x61 && r <= 0x7a) || (r >= 0x41 && r <= 0x5a);
/** An ASCII letter, digit or `_`. */
export const isAlphaNumeric = (r: number): boolean => isAlpha(r) || isDigit(r);

/**
 * The reading head of the lexer, Prometheus' `Lexer` minus its states: `next`/`backup`/`peek`
 * over code points, the start of the pending token, and `emit`/`errorf`. Positions are UTF-16
 * indices. Nothing is allocated per character; `emit` allocates one token.
 */
export class LexCursor {
  /** Current position. */
  pos = 0;
  /** Start of the pending token. */
  start = 0;
  private width = 0;

  constructor(readonly input: string) {}

  /** Reads the next code point (EOF at the end, RUNE_ERROR for a lone surrogate). */
  next(): number {
    const s = this.input;
    if (this.pos >= s.length) {
      this.width = 0;
      return EOF;
    }
    const c = s.charCodeAt(this.pos);
    if (c < 0xd800 || c > 0xdfff) {
      this.width = 1;
      this.pos += 1;
      return c;
    }
    if (c <= 0xdbff && this.pos + 1 < s.length) {
      const d = s.charCodeAt(this.pos + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        this.width = 2;
        this.pos += 2;
        return ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
      }
    }
    this.width = 1;
    this.pos += 1;
    return RUNE_ERROR;
  }

  /** Steps back over the code point `next` returned; only once per `next`. */
  backup(): void {
    this.pos -= this.width;
  }

  /** The next code point, not consumed. */
  peek(): number {
    const r = this.next();
    this.backup();
    return r;
  }

  /** Consumes the next character if it is one of the ASCII characters in `valid`. */
  accept(valid: string): boolean {
    const r = this.next();
    if (r >= 0 && r < 0x80 && valid.includes(String.fromCharCode(r))) return true;
    this.backup();
    return false;
  }

  /** Whether the next character is one of the ASCII characters in `valid`. */
  is(valid: string): boolean {
    const r = this.peek();
    return r >= 0 && r < 0x80 && valid.includes(String.fromCharCode(r));
  }

  /** The pending token's text. */
  text(): string {
    return this.input.slice(this.start, this.pos);
  }

  /** Ends the pending token and returns it. */
  emit(type: TokenType): Token {
    const tok: Token = { type, pos: this.start, end: this.pos, val: this.text() };
    this.start = this.pos;
    return tok;
  }

  /** An ERROR token at the start of the pending token (Prometheus' `errorf`). */
  errorf(msg: string): Token {
    return { type: T.ERROR, pos: this.start, end: this.start, val: msg };
  }

  /** Skips spaces and drops them from the pending token. */
  skipSpaces(): void {
    while (isSpace(this.peek())) this.next();
    this.start = this.pos;
  }

  /** Skips a `#` comment up to the end of the line. */
  skipComment(): void {
    const s = this.input;
    let i = this.pos + 1;
    while (i < s.length && s.charCodeAt(i) !== 0x0a && s.charCodeAt(i) !== 0x0d) i++;
    this.pos = i;
    this.start = i;
  }
}
