import type { DurationExpr, Expr, MatrixSelector, SubqueryExpr, VectorSelector } from './ast.js';
import { secondsToMs } from './duration.js';
import { formatGoFixed6, goRound } from '../../model/index.js';
import { numberLiteral } from './literals.js';
import { type DurationValue, checkPositive, parseDurationExpr, parseOffsetDuration } from './parse-duration.js';
import { type Mutable, type ParserState, Unexpected } from './parser-state.js';
import { T, type Token } from './tokens.js';

const DURATION_EXPECTED = 'number, duration, step(), or range()';

/**
 * Applies the postfix modifiers that follow an expression, which bind tighter than any operator:
 * `offset`, `@`, `[range]`, `[range:step]`, `anchored` and `smoothed`, in any order and number
 * (the checks then reject repeats as Prometheus does).
 */
export function parsePostfix(p: ParserState, e: Expr): Expr {
  for (;;) {
    const tok = p.peek();
    switch (tok.type) {
      case T.OFFSET:
        p.next();
        e = parseOffset(p, e);
        break;
      case T.AT:
        p.next();
        e = parseAt(p, e);
        break;
      case T.LEFT_BRACKET:
        e = parseRangeOrSubquery(p, e);
        break;
      case T.ANCHORED:
      case T.SMOOTHED:
        p.next();
        applyExtendedRange(p, e, tok.type === T.ANCHORED ? 'anchored' : 'smoothed');
        break;
      default:
        return e;
    }
  }
}

/** The node whose offset/`@` a modifier sets (the vector selector inside a range), or null. */
function modifierTarget(e: Expr): Mutable<VectorSelector> | Mutable<SubqueryExpr> | null {
  if (e.type === 'VectorSelector' || e.type === 'SubqueryExpr') return e;
  if (e.type === 'MatrixSelector') return e.vectorSelector;
  return null;
}

function extendTo(p: ParserState, e: Expr): void {
  (e as Mutable<Expr>).pos = { start: e.pos.start, end: p.byte(p.lastEnd) };
}

function parseOffset(p: ParserState, e: Expr): Expr {
  const d: DurationValue = p.withContext('offset', DURATION_EXPECTED, () => parseOffsetDuration(p));
  p.peek(); // Prometheus reads the next token before it applies the offset.
  const target = modifierTarget(e);
  if (target === null) {
    throw p.errorAt('offset modifier must be preceded by an instant vector selector or range vector selector or a subquery', e.pos);
  }
  if (target.offsetMs !== 0 || target.offsetExpr !== null) throw p.errorAt('offset may not be set multiple times', e.pos);
  if (d.type === 'NumberLiteral') target.offsetMs = secondsToMs(d.value);
  else target.offsetExpr = d;
  extendTo(p, e);
  p.deepen(e, d);
  return e;
}

function parseAtValue(p: ParserState): number | 'start' | 'end' {
  const tok = p.peek();
  if (tok.type === T.NUMBER || tok.type === T.DURATION) return numberLiteral(p, p.next()).value;
  if (tok.type === T.ADD || tok.type === T.SUB) {
    p.next();
    const num = p.peek();
    if (num.type !== T.NUMBER && num.type !== T.DURATION) throw new Unexpected(num);
    const v = numberLiteral(p, p.next()).value;
    return tok.type === T.SUB ? -v : v;
  }
  if (tok.type === T.START || tok.type === T.END) {
    p.next();
    p.expect(T.LEFT_PAREN);
    p.expect(T.RIGHT_PAREN);
    return tok.type === T.START ? 'start' : 'end';
  }
  throw new Unexpected(tok);
}

function parseAt(p: ParserState, e: Expr): Expr {
  const v = p.withContext('@', 'timestamp', () => parseAtValue(p));
  if (typeof v === 'number' && !(Math.abs(v) < 2 ** 63)) {
    throw p.errorAt(`timestamp out of bounds for @ modifier: ${formatGoFixed6(v)}`, e.pos);
  }
  const target = modifierTarget(e);
  if (target === null) {
    throw p.errorAt('@ modifier must be preceded by an instant vector selector or range vector selector or a subquery', e.pos);
  }
  if (target.timestampMs !== null || target.startOrEnd !== null) throw p.errorAt('@ <timestamp> may not be set multiple times', e.pos);
  if (typeof v === 'number') target.timestampMs = goRound(v * 1000);
  else target.startOrEnd = v;
  extendTo(p, e);
  return e;
}

function applyExtendedRange(p: ParserState, e: Expr, which: 'anchored' | 'smoothed'): void {
  if (!p.opts.enableExtendedRangeSelectors) throw p.errorAt(`${which} modifier is experimental and not enabled`, e.pos);
  if (e.type === 'SubqueryExpr') throw p.errorAt(`${which} modifier is not supported for subqueries`, e.pos);
  if (e.type !== 'VectorSelector' && e.type !== 'MatrixSelector') throw p.errorAt(`${which} modifier not implemented`, e.pos);
  const vs: Mutable<VectorSelector> = e.type === 'VectorSelector' ? e : e.vectorSelector;
  vs[which] = true;
  if (vs.anchored && vs.smoothed) throw p.errorAt('anchored and smoothed modifiers cannot be used together', e.pos);
}

function durationParts(d: DurationValue): { ms: number; expr: DurationExpr | null } {
  return d.type === 'NumberLiteral' ? { ms: secondsToMs(d.value), expr: null } : { ms: 0, expr: d };
}

/**
 * Parses `[range]` or `[range:step]` / `[range:]` after `e`, with Prometheus' four bracket error
 * contexts, and builds the MatrixSelector or SubqueryExpr.
 */
function parseRangeOrSubquery(p: ParserState, e: Expr): Expr {
  const lbracket = p.next();
  const range = p.withContext('subquery or range selector', DURATION_EXPECTED, () => parseDurationExpr(p));
  checkPositive(p, range);
  const sep = p.peek();
  if (sep.type === T.RIGHT_BRACKET) return makeMatrix(p, e, lbracket, p.next(), range);
  if (sep.type !== T.COLON) throw new Unexpected(sep, 'subquery or range', '":" or "]"');
  p.next();
  let step: DurationValue | null = null;
  if (!p.at(T.RIGHT_BRACKET)) {
    step = p.withContext('subquery selector', 'number, duration, step(), range(), or "]"', () => parseDurationExpr(p));
    checkPositive(p, step);
    if (!p.at(T.RIGHT_BRACKET)) throw new Unexpected(p.peek(), 'subquery selector', '"]"');
  }
  const rbracket = p.next();
  const r = durationParts(range);
  const s = step === null ? { ms: 0, expr: null } : durationParts(step);
  const sq: SubqueryExpr = {
    type: 'SubqueryExpr',
    expr: e,
    rangeMs: r.ms,
    rangeExpr: r.expr,
    stepMs: s.ms,
    stepExpr: s.expr,
    offsetMs: 0,
    offsetExpr: null,
    timestampMs: null,
    startOrEnd: null,
    pos: { start: e.pos.start, end: p.byte(rbracket.end) },
  };
  return p.track(sq, e, range, step);
}

function makeMatrix(p: ParserState, e: Expr, lbracket: Token, rbracket: Token, range: DurationValue): MatrixSelector {
  let msg = '';
  if (e.type !== 'VectorSelector') msg = 'ranges only allowed for vector selectors';
  else if (e.offsetMs !== 0) msg = 'no offset modifiers allowed before range';
  else if (e.timestampMs !== null) msg = 'no @ modifiers allowed before range';
  if (msg !== '' || e.type !== 'VectorSelector') throw p.errorAt(msg, p.span(lbracket, rbracket));
  const r = durationParts(range);
  const m: MatrixSelector = {
    type: 'MatrixSelector',
    vectorSelector: e,
    rangeMs: r.ms,
    rangeExpr: r.expr,
    pos: { start: e.pos.start, end: p.byte(rbracket.end) },
  };
  return p.track(m, e, range);
}
