import { goQuoteRune } from '../../model/index.js';
import { EOF, LexCursor, isAlpha, isAlphaNumeric, isDigit, isSpace } from './lex-cursor.js';
import { lexNumberOrDuration, lexRawString, lexString } from './lex-scan.js';
import { DURATION_KEYWORDS, KEYWORDS, T, type Token, type TokenType } from './tokens.js';

/** Where the next token starts: Prometheus' `lexStatements` or `lexDurationExpr` state. */
const STATEMENTS = 0;
const DURATION_EXPR = 1;
const DONE = 2;

/** First letters of `step`, `range`, `min_of`, `max_of`, in either case. */
const isDurationKeywordStart = (r: number): boolean =>
  r === 0x73 || r === 0x72 || r === 0x6d || r === 0x53 || r === 0x52 || r === 0x4d;

/** Single-character tokens that both lexStatements and lexDurationExpr emit as they are. */
const SIMPLE: ReadonlyMap<number, TokenType> = new Map<number, TokenType>([
  [0x2c, T.COMMA],
  [0x2a, T.MUL],
  [0x2f, T.DIV],
  [0x25, T.MOD],
  [0x2b, T.ADD],
  [0x2d, T.SUB],
  [0x5e, T.POW],
]);

/**
 * The PromQL lexer: a port of the state machine in Prometheus' `promql/parser/lex.go`, quirks
 * included (numbers are scanned greedily and rejected as `bad number or duration syntax`, `fill`
 * is a keyword only before `(`, `[` lexes duration expressions until the first number, keywords
 * are case-insensitive). Call `nextToken` repeatedly; after an `ERROR` or `EOF` token every
 * further call returns `EOF`. Comments are skipped.
 */
export class Lexer {
  private readonly c: LexCursor;
  private mode = STATEMENTS;
  private parenDepth = 0;
  private braceOpen = false;
  private bracketOpen = false;
  private gotColon = false;
  private gotDuration = false;

  constructor(input: string) {
    this.c = new LexCursor(input);
  }

  /** Returns the next token. */
  nextToken(): Token {
    for (;;) {
      if (this.mode === DONE) return { type: T.EOF, pos: this.c.pos, end: this.c.pos, val: '' };
      const tok = this.mode === DURATION_EXPR ? this.lexDurationExpr() : this.lexStatements();
      if (tok !== null) {
        if (tok.type === T.ERROR || tok.type === T.EOF) this.mode = DONE;
        return tok;
      }
    }
  }

  private closeParen(r: number): Token {
    const tok = this.c.emit(T.RIGHT_PAREN);
    this.parenDepth--;
    return this.parenDepth < 0 ? this.c.errorf(`unexpected right parenthesis ${goQuoteRune(r)}`) : tok;
  }

  private lexStatements(): Token | null {
    const c = this.c;
    if (this.braceOpen) return this.lexInsideBraces();
    if (c.input.charCodeAt(c.pos) === 0x23) {
      c.skipComment();
      return null;
    }
    const r = c.next();
    const simple = SIMPLE.get(r);
    if (simple !== undefined) return c.emit(simple);
    switch (r) {
      case EOF:
        if (this.parenDepth !== 0) return c.errorf('unclosed left parenthesis');
        if (this.bracketOpen) return c.errorf('unclosed left bracket');
        return c.emit(T.EOF);
      case 0x3d: {
        const t = c.peek();
        if (t === 0x7e) return c.errorf(`unexpected character after '=': ${goQuoteRune(t)}`);
        if (t !== 0x3d) return c.emit(T.EQL);
        c.next();
        return c.emit(T.EQLC);
      }
      case 0x21: {
        const t = c.next();
        return t === 0x3d ? c.emit(T.NEQ) : c.errorf(`unexpected character after '!': ${goQuoteRune(t)}`);
      }
      case 0x3c:
      case 0x3e: {
        const t = c.peek();
        if (t === 0x3d || t === 0x2f) c.next();
        if (r === 0x3c) return c.emit(t === 0x3d ? T.LTE : t === 0x2f ? T.TRIM_UPPER : T.LSS);
        return c.emit(t === 0x3d ? T.GTE : t === 0x2f ? T.TRIM_LOWER : T.GTR);
      }
      case 0x22:
      case 0x27:
        return lexString(c, r);
      case 0x60:
        return lexRawString(c, r);
      case 0x28:
        this.parenDepth++;
        return c.emit(T.LEFT_PAREN);
      case 0x29:
        return this.closeParen(r);
      case 0x7b:
        this.braceOpen = true;
        return c.emit(T.LEFT_BRACE);
      case 0x5b: {
        if (this.bracketOpen) return c.errorf(`unexpected left bracket ${goQuoteRune(r)}`);
        this.gotColon = false;
        const tok = c.emit(T.LEFT_BRACKET);
        if (isSpace(c.peek())) c.skipSpaces();
        this.bracketOpen = true;
        this.mode = DURATION_EXPR;
        return tok;
      }
      case 0x5d:
        if (!this.bracketOpen) return c.errorf(`unexpected right bracket ${goQuoteRune(r)}`);
        this.bracketOpen = false;
        return c.emit(T.RIGHT_BRACKET);
      case 0x40:
        return c.emit(T.AT);
    }
    if (isSpace(r)) {
      c.skipSpaces();
      return null;
    }
    if (isDigit(r) || (r === 0x2e && isDigit(c.peek()))) {
      c.backup();
      return lexNumberOrDuration(c);
    }
    if (!isAlpha(r) && r !== 0x3a) return c.errorf(`unexpected character: ${goQuoteRune(r)}`);
    if (!this.bracketOpen) {
      c.backup();
      return this.lexKeywordOrIdentifier();
    }
    if (r === 0x3a) {
      if (this.gotColon) return c.errorf(`unexpected colon ${goQuoteRune(r)}`);
      this.gotColon = true;
      return c.emit(T.COLON);
    }
    const kw = isDurationKeywordStart(r) ? this.scanDurationKeyword() : null;
    return kw ?? c.errorf(`unexpected character: ${goQuoteRune(r)}, expected ${goQuoteRune(0x3a)}`);
  }

  private lexDurationExpr(): Token | null {
    const c = this.c;
    const r = c.next();
    const simple = SIMPLE.get(r);
    if (simple !== undefined) return c.emit(simple);
    switch (r) {
      case EOF:
        return c.errorf('unexpected end of input in duration expression');
      case 0x5d:
        this.bracketOpen = false;
        this.gotColon = false;
        this.mode = STATEMENTS;
        return c.emit(T.RIGHT_BRACKET);
      case 0x3a: {
        const tok = c.emit(T.COLON);
        if (!this.gotDuration) return c.errorf('unexpected colon before duration in duration expression');
        if (this.gotColon) return c.errorf('unexpected repeated colon in duration expression');
        this.gotColon = true;
        return tok;
      }
      case 0x28:
        this.parenDepth++;
        return c.emit(T.LEFT_PAREN);
      case 0x29:
        return this.closeParen(r);
    }
    if (isSpace(r)) {
      c.skipSpaces();
      return null;
    }
    if (isDurationKeywordStart(r)) {
      return this.scanDurationKeyword() ?? c.errorf(`unexpected character in duration expression: ${goQuoteRune(r)}`);
    }
    if (isDigit(r) || (r === 0x2e && isDigit(c.peek()))) {
      c.backup();
      this.gotDuration = true;
      this.mode = STATEMENTS;
      return lexNumberOrDuration(c);
    }
    return c.errorf(`unexpected character in duration expression: ${goQuoteRune(r)}`);
  }

  /** After the first letter of a possible duration keyword: the keyword token, or null. */
  private scanDurationKeyword(): Token | null {
    const c = this.c;
    while (isAlpha(c.next()));
    c.backup();
    const type = DURATION_KEYWORDS.get(c.text().toLowerCase());
    return type === undefined ? null : c.emit(type);
  }

  private lexInsideBraces(): Token | null {
    const c = this.c;
    if (c.input.charCodeAt(c.pos) === 0x23) {
      c.skipComment();
      return null;
    }
    const r = c.next();
    if (r === EOF) return c.errorf('unexpected end of input inside braces');
    if (isSpace(r)) {
      c.skipSpaces();
      return null;
    }
    if (isAlpha(r)) {
      while (isAlphaNumeric(c.next()));
      c.backup();
      return c.emit(T.IDENTIFIER);
    }
    switch (r) {
      case 0x2c:
        return c.emit(T.COMMA);
      case 0x22:
      case 0x27:
        return lexString(c, r);
      case 0x60:
        return lexRawString(c, r);
      case 0x3d:
        if (c.next() === 0x7e) return c.emit(T.EQL_REGEX);
        c.backup();
        return c.emit(T.EQL);
      case 0x21: {
        const nr = c.next();
        if (nr === 0x7e) return c.emit(T.NEQ_REGEX);
        if (nr === 0x3d) return c.emit(T.NEQ);
        return c.errorf(`unexpected character after '!' inside braces: ${goQuoteRune(nr)}`);
      }
      case 0x7b:
        return c.errorf(`unexpected left brace ${goQuoteRune(r)}`);
      case 0x7d:
        this.braceOpen = false;
        return c.emit(T.RIGHT_BRACE);
    }
    return c.errorf(`unexpected character inside braces: ${goQuoteRune(r)}`);
  }

  private lexKeywordOrIdentifier(): Token {
    const c = this.c;
    for (;;) {
      const r = c.next();
      if (!isAlphaNumeric(r) && r !== 0x3a) break;
    }
    c.backup();
    const word = c.text();
    const kw = KEYWORDS.get(word.toLowerCase());
    if (kw !== undefined) {
      const isFill = kw === T.FILL || kw === T.FILL_LEFT || kw === T.FILL_RIGHT;
      return c.emit(isFill && !this.followedByLeftParen() ? T.IDENTIFIER : kw);
    }
    return c.emit(word.includes(':') ? T.METRIC_IDENTIFIER : T.IDENTIFIER);
  }

  /** Whether the next non-space character is `(` (makes `fill` a keyword rather than a name). */
  private followedByLeftParen(): boolean {
    const s = this.c.input;
    for (let i = this.c.pos; i < s.length; i++) {
      const ch = s.charCodeAt(i);
      if (!isSpace(ch)) return ch === 0x28;
    }
    return false;
  }
}
