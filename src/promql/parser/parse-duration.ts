import type { DurationExpr, NumberLiteral } from './ast.js';
import { numberLiteral } from './literals.js';
import { type Mutable, type ParserState, Unexpected } from './parser-state.js';
import { T, type Token, type TokenType } from './tokens.js';

/** Ranges, steps and offsets are durations as time.Duration: at most 2^63 ns. */
const MAX_SECONDS = 2 ** 63 / 1e9;

/** A duration written as a number (`5m`, `300`) or as a duration expression (`5m + step()`). */
export type DurationValue = NumberLiteral | DurationExpr;

type DurationOp = DurationExpr['op'];

const BINARY_OPS = new Map<TokenType, readonly [DurationOp, number]>([
  [T.ADD, ['+', 1]],
  [T.SUB, ['-', 1]],
  [T.MUL, ['*', 2]],
  [T.DIV, ['/', 2]],
  [T.MOD, ['%', 2]],
  [T.POW, ['^', 3]],
]);
/** Unary `-`/`+` bind like `*`: their operand takes only `^` along. */
const UNARY_OPERAND_PREC = 3;

function durationExpr(op: DurationOp, lhs: DurationValue | null, rhs: DurationValue | null, start: number, end: number): DurationExpr {
  return { type: 'DurationExpr', op, lhs, rhs, wrapped: false, pos: { start, end } };
}

/** Prometheus' `experimentalDurationExpr`: duration arithmetic needs `enableDurationExpressions`. */
function checkEnabled(p: ParserState, e: DurationValue): void {
  if (!p.opts.enableDurationExpressions) throw p.errorAt('experimental duration expression is not enabled', e.pos);
}

/**
 * A number or duration literal used as a duration, range-checked. NaN is out of range too
 * (Prometheus lets `offset NaN` through and ends up with an undefined conversion).
 */
function literal(p: ParserState, tok: Token): NumberLiteral {
  const nl = numberLiteral(p, tok);
  if (!(Math.abs(nl.value) <= MAX_SECONDS)) throw p.errorAt('duration out of range', nl.pos);
  return nl;
}

function applyUnary(p: ParserState, opTok: Token, operand: DurationValue): DurationValue {
  if (operand.type === 'NumberLiteral') {
    const value = opTok.type === T.SUB ? -operand.value : operand.value;
    if (!(Math.abs(value) <= MAX_SECONDS)) throw p.errorAt('duration out of range', p.range(opTok));
    return { ...operand, value, pos: { start: p.byte(opTok.pos), end: operand.pos.end } };
  }
  if (opTok.type === T.ADD) return operand;
  return p.track(durationExpr('-', null, operand, p.byte(opTok.pos), operand.pos.end), operand);
}

/** `step()`, `range()` or `min_of(a, b)`/`max_of(a, b)`; the keyword token was consumed. */
function parseDurationFunction(p: ParserState, kw: Token, endAtSecondArg = false): DurationExpr {
  p.expect(T.LEFT_PAREN);
  const start = p.byte(kw.pos);
  if (kw.type === T.STEP || kw.type === T.RANGE) {
    p.expect(T.RIGHT_PAREN);
    return durationExpr(kw.type === T.STEP ? 'step' : 'range', null, null, start, p.byte(p.lastEnd));
  }
  const lhs = parseDurationExpr(p);
  p.expect(T.COMMA);
  const rhs = parseDurationExpr(p);
  p.expect(T.RIGHT_PAREN);
  // Prometheus ends `-min_of(a, b)` at the end of b rather than at the parenthesis.
  const end = endAtSecondArg ? rhs.pos.end : p.byte(p.lastEnd);
  return p.track(durationExpr(kw.type === T.MIN_OF ? 'min_of' : 'max_of', lhs, rhs, start, end), lhs, rhs);
}

function parsePrimary(p: ParserState): DurationValue {
  const tok = p.peek();
  switch (tok.type) {
    case T.NUMBER:
    case T.DURATION:
      return literal(p, p.next());
    case T.STEP:
    case T.RANGE:
    case T.MIN_OF:
    case T.MAX_OF: {
      const de = parseDurationFunction(p, p.next());
      checkEnabled(p, de);
      return de;
    }
    case T.LEFT_PAREN: {
      p.next();
      const inner = parseDurationExpr(p);
      p.expect(T.RIGHT_PAREN);
      checkEnabled(p, inner);
      if (inner.type === 'DurationExpr') (inner as Mutable<DurationExpr>).wrapped = true;
      return inner;
    }
    default:
      throw new Unexpected(tok);
  }
}

function parseUnary(p: ParserState): DurationValue {
  const tok = p.peek();
  if (tok.type !== T.ADD && tok.type !== T.SUB) return parsePrimary(p);
  p.next();
  return applyUnary(p, tok, parseBinary(p, UNARY_OPERAND_PREC));
}

/** Continues `left` with binary operators of precedence `minPrec` or higher. */
function continueBinary(p: ParserState, left: DurationValue, minPrec: number): DurationValue {
  for (;;) {
    const tok = p.peek();
    const op = BINARY_OPS.get(tok.type);
    if (op === undefined || op[1] < minPrec) return left;
    p.next();
    const rhs = parseBinary(p, op[0] === '^' ? op[1] : op[1] + 1);
    checkEnabled(p, left);
    if ((op[0] === '/' || op[0] === '%') && rhs.type === 'NumberLiteral' && rhs.value === 0) {
      throw p.errorAt(op[0] === '/' ? 'division by zero' : 'modulo by zero', p.range(tok));
    }
    left = p.track(durationExpr(op[0], left, rhs, left.pos.start, rhs.pos.end), left, rhs);
  }
}

function parseBinary(p: ParserState, minPrec: number): DurationValue {
  p.enter();
  try {
    return continueBinary(p, parseUnary(p), minPrec);
  } finally {
    p.leave();
  }
}

/**
 * Parses a duration expression inside `[...]` (Prometheus' `duration_expr`): literals,
 * `+ - * / % ^` with the usual precedence, unary signs (folded into literals), parentheses,
 * `step()`, `range()`, `min_of(a, b)` and `max_of(a, b)`. Anything beyond a plain literal needs
 * `enableDurationExpressions`.
 */
export function parseDurationExpr(p: ParserState): DurationValue {
  return parseBinary(p, 0);
}

/**
 * Parses the duration after `offset` (Prometheus' `offset_duration_expr`). A literal, a signed
 * literal, `step()`, `range()` or `min_of(...)`, each possibly signed, ends the offset, so
 * `foo offset 5m * 2` is `(foo offset 5m) * 2`; an expression that starts with `(` (or with two
 * signs) goes on with arithmetic: `foo offset (1m) * 2` offsets by two minutes.
 */
export function parseOffsetDuration(p: ParserState): DurationValue {
  const tok = p.peek();
  switch (tok.type) {
    case T.NUMBER:
    case T.DURATION:
      return literal(p, p.next());
    case T.STEP:
    case T.RANGE:
    case T.MIN_OF:
    case T.MAX_OF: {
      const de = parseDurationFunction(p, p.next());
      checkEnabled(p, de);
      return de;
    }
    case T.LEFT_PAREN:
      return continueBinary(p, parsePrimary(p), 0);
    case T.ADD:
    case T.SUB:
      return parseSignedOffset(p, p.next());
    default:
      throw new Unexpected(tok);
  }
}

function parseSignedOffset(p: ParserState, sign: Token): DurationValue {
  const tok = p.peek();
  switch (tok.type) {
    case T.NUMBER:
    case T.DURATION:
      return applyUnary(p, sign, numberLiteral(p, p.next()));
    case T.STEP:
    case T.RANGE:
    case T.MIN_OF:
    case T.MAX_OF: {
      const fn = parseDurationFunction(p, p.next(), tok.type === T.MIN_OF || tok.type === T.MAX_OF);
      const de = p.track(durationExpr(sign.type === T.SUB ? '-' : '+', null, fn, p.byte(sign.pos), fn.pos.end), fn);
      checkEnabled(p, de);
      return de;
    }
    case T.LEFT_PAREN: {
      p.next();
      const inner = parseDurationExpr(p);
      p.expect(T.RIGHT_PAREN);
      // Prometheus panics on `offset -(5m)`; Infersight treats it as a parenthesised literal.
      if (inner.type === 'NumberLiteral') {
        checkEnabled(p, inner);
        return applyUnary(p, sign, inner);
      }
      (inner as Mutable<DurationExpr>).wrapped = true;
      if (sign.type === T.ADD) return inner;
      return p.track(durationExpr('-', null, inner, p.byte(sign.pos), inner.pos.end), inner);
    }
    case T.ADD:
    case T.SUB: {
      const operand = parseBinary(p, UNARY_OPERAND_PREC);
      return continueBinary(p, applyUnary(p, sign, operand), 0);
    }
    default:
      throw new Unexpected(tok);
  }
}

/** Prometheus' `positive_duration_expr`: a literal range or step must be greater than zero. */
export function checkPositive(p: ParserState, d: DurationValue): void {
  if (d.type === 'NumberLiteral' && d.value <= 0) throw p.errorAt('duration must be greater than 0', d.pos);
}
