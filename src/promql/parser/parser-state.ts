import type { Expr, PositionRange } from './ast.js';
import { Lexer } from './lexer.js';
import { ParseError } from './parse-error.js';
import { T, type Token, type TokenType, describeToken } from './tokens.js';

/**
 * Feature switches of the parser. All default to false, as on a stock Prometheus server; the
 * names follow Prometheus' `--enable-feature` flags.
 */
export interface ParserOptions {
  /** `promql-experimental-functions`: experimental functions and the `limitk`/`limit_ratio` aggregations. */
  readonly enableExperimentalFunctions?: boolean;
  /** `promql-duration-expr`: arithmetic in ranges, steps and offsets (`foo[5m+1m]`, `offset step()`). */
  readonly enableDurationExpressions?: boolean;
  /** `promql-extended-range-selectors`: the `anchored` and `smoothed` modifiers. */
  readonly enableExtendedRangeSelectors?: boolean;
  /** `promql-binop-fill-modifiers`: `fill(v)`, `fill_left(v)`, `fill_right(v)` on binary operators. */
  readonly enableBinopFillModifiers?: boolean;
}

/** Deepest recursion of the parser (parentheses, calls, unary chains, right-associative `^`). */
export const MAX_NESTING = 500;
/** Deepest syntax tree the parser returns, so that every recursive consumer stays within the stack. */
export const MAX_DEPTH = 1000;

/**
 * A syntax error not yet worded: the token the grammar could not take, plus the context and
 * expectation of the innermost construct that has a Prometheus error rule (`label matching`,
 * `grouping opts`, `aggregation`, `offset`, `@`, the bracket rules). Constructs fill them in as
 * the error passes through them; `toParseError` words it as Prometheus' `unexpected()` does.
 */
export class Unexpected extends Error {
  constructor(
    readonly tok: Token,
    public context?: string,
    public expected?: string,
  ) {
    super('unexpected token');
    this.name = 'Unexpected';
  }
}

/**
 * The token stream and bookkeeping shared by the grammar modules: one-token lookahead, byte
 * positions, error construction, error contexts and the nesting guards. `parseSubExpr` is set
 * by `parse-expr.ts` so that the other grammar modules can recurse without importing it.
 */
export class ParserState {
  private readonly lexer: Lexer;
  private cur: Token | null = null;
  private readonly byteAt: Int32Array | null;
  private nesting = 0;
  /** UTF-16 end index of the last consumed token (Prometheus' `lastClosing`, more or less). */
  lastEnd = 0;
  private readonly depths = new WeakMap<object, number>();
  /** Parses a whole expression (all operators); installed by `parse-expr.ts`. */
  parseSubExpr: () => Expr = () => {
    throw new Error('parser: parse-expr.ts not installed');
  };

  constructor(
    readonly input: string,
    readonly opts: Required<ParserOptions>,
  ) {
    this.lexer = new Lexer(input);
    this.byteAt = /[\u0080-\uffff]/.test(input) ? buildByteMap(input) : null;
  }

  /** The next token, without consuming it. Lexer errors surface here, as in Prometheus. */
  peek(): Token {
    if (this.cur === null) {
      const tok = this.lexer.nextToken();
      if (tok.type === T.ERROR) throw this.errorAt(tok.val, { start: this.byte(tok.pos), end: this.byte(this.input.length) });
      this.cur = tok;
    }
    return this.cur;
  }

  /** Consumes and returns the next token. */
  next(): Token {
    const tok = this.peek();
    this.cur = null;
    this.lastEnd = tok.end;
    return tok;
  }

  /** Whether the next token has type `type`. */
  at(type: TokenType): boolean {
    return this.peek().type === type;
  }

  /** Consumes a token of type `type`, or fails with "unexpected <next token>". */
  expect(type: TokenType): Token {
    const tok = this.peek();
    if (tok.type !== type) throw new Unexpected(tok);
    return this.next();
  }

  /** A byte offset for a UTF-16 index into the query. */
  byte(i: number): number {
    return this.byteAt === null ? i : this.byteAt[i];
  }

  /** The byte range of a token. */
  range(tok: Token): PositionRange {
    return { start: this.byte(tok.pos), end: this.byte(tok.end) };
  }

  /** The byte range from the start of `first` to the end of `last`. */
  span(first: Token, last: Token): PositionRange {
    return { start: this.byte(first.pos), end: this.byte(last.end) };
  }

  /** A `ParseError` with a byte range. */
  errorAt(reason: string, range: PositionRange): ParseError {
    return new ParseError(reason, range, this.input);
  }

  /**
   * Runs `fn`; a syntax error escaping it that no inner construct has worded gets this context
   * (`unexpected X in <context>, expected <expected>`).
   */
  withContext<R>(context: string, expected: string, fn: () => R): R {
    try {
      return fn();
    } catch (e) {
      if (e instanceof Unexpected && e.context === undefined) {
        e.context = context;
        e.expected = expected;
      }
      throw e;
    }
  }

  /** Words a syntax error as Prometheus' `unexpected()`. */
  toParseError(u: Unexpected): ParseError {
    let msg = 'unexpected ' + describeToken(u.tok);
    if (u.context !== undefined && u.context !== '') msg += ' in ' + u.context;
    if (u.expected !== undefined && u.expected !== '') msg += ', expected ' + u.expected;
    return this.errorAt(msg, this.range(u.tok));
  }

  /** Enters one level of parser recursion; `leave` must follow (use try/finally). */
  enter(): void {
    if (++this.nesting > MAX_NESTING) {
      const tok = this.peek();
      throw this.errorAt(`expression is nested too deeply (more than ${MAX_NESTING} levels)`, this.range(tok));
    }
  }

  /** Leaves a level entered with `enter`. */
  leave(): void {
    this.nesting--;
  }

  /** The depth of a node built by this parser (1 for leaves). */
  depthOf(node: object | null): number {
    return node === null ? 0 : (this.depths.get(node) ?? 1);
  }

  /** Raises a node's recorded depth to cover one more child (an offset expression added later). */
  deepen(node: { readonly pos: PositionRange }, child: object): void {
    const d = Math.max(this.depthOf(node), this.depthOf(child) + 1);
    if (d > MAX_DEPTH) throw this.errorAt(`expression is nested too deeply (more than ${MAX_DEPTH} levels)`, node.pos);
    if (d > 1) this.depths.set(node, d);
  }

  /** Records a node's depth from its children; fails when the tree grows too deep. */
  track<N extends { readonly pos: PositionRange }>(node: N, ...children: (object | null)[]): N {
    let d = 0;
    for (const c of children) d = Math.max(d, this.depthOf(c));
    if (d + 1 > MAX_DEPTH) throw this.errorAt(`expression is nested too deeply (more than ${MAX_DEPTH} levels)`, node.pos);
    if (d > 0) this.depths.set(node, d + 1);
    return node;
  }
}

/** Byte offset of every UTF-16 index of `s` (and of `s.length`). */
function buildByteMap(s: string): Int32Array {
  const map = new Int32Array(s.length + 1);
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    map[i] = bytes;
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      map[++i] = bytes - 2; // Inside a surrogate pair; never a token boundary.
    } else bytes += 3;
  }
  map[s.length] = bytes;
  return map;
}

/** A writable view of an AST node, for the parser's own fresh nodes before they are returned. */
export type Mutable<N> = { -readonly [K in keyof N]: N[K] };
