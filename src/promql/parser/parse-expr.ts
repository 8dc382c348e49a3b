import type { Expr, NumberLiteral, ParenExpr, UnaryExpr } from './ast.js';
import { numberLiteral, unquoteString } from './literals.js';
import { BINARY_PRECEDENCE, POW_PRECEDENCE, makeBinary, parseBinModifiers } from './parse-binary.js';
import { parseAggregate, parseFunctionCall } from './parse-call.js';
import { parsePostfix } from './parse-modifiers.js';
import { parseVectorSelector } from './parse-selector.js';
import { type ParserState, Unexpected } from './parser-state.js';
import { METRIC_NAME_TOKENS, T, isAggregator } from './tokens.js';

/**
 * Parses operators at precedence `minPrec` and above by precedence climbing, which gives the same
 * trees as Prometheus' yacc precedence declarations (`^` right-associative, the rest left).
 */
function parseBinary(p: ParserState, minPrec: number): Expr {
  p.enter();
  try {
    let left = parseUnary(p);
    for (;;) {
      const opTok = p.peek();
      const prec = BINARY_PRECEDENCE.get(opTok.type);
      if (prec === undefined || prec < minPrec) return left;
      p.next();
      const mods = parseBinModifiers(p);
      const right = parseBinary(p, opTok.type === T.POW ? prec : prec + 1);
      left = makeBinary(p, opTok.type, left, right, mods);
    }
  } finally {
    p.leave();
  }
}

/**
 * A unary sign binds like `*`, so `-a^b` is `-(a^b)` and `-a*b` is `(-a)*b`. A sign on a number
 * folds into the literal, as the yacc grammar does (`-1` is a NumberLiteral, `-(1)` is not).
 */
function parseUnary(p: ParserState): Expr {
  const sign = p.peek();
  if (sign.type !== T.ADD && sign.type !== T.SUB) return parsePostfix(p, parsePrimary(p));
  p.next();
  const operand = parseBinary(p, POW_PRECEDENCE);
  const start = p.byte(sign.pos);
  if (operand.type === 'NumberLiteral') {
    const value = sign.type === T.SUB ? -operand.value : operand.value;
    const folded: NumberLiteral = { ...operand, value, pos: { start, end: operand.pos.end } };
    return folded;
  }
  const node: UnaryExpr = { type: 'UnaryExpr', op: sign.type === T.SUB ? '-' : '+', expr: operand, pos: { start, end: operand.pos.end } };
  return p.track(node, operand);
}

function parseParen(p: ParserState): ParenExpr {
  const open = p.next();
  const inner = p.parseSubExpr();
  p.expect(T.RIGHT_PAREN);
  const node: ParenExpr = { type: 'ParenExpr', expr: inner, pos: { start: p.byte(open.pos), end: p.byte(p.lastEnd) } };
  return p.track(node, inner);
}

function parsePrimary(p: ParserState): Expr {
  const tok = p.peek();
  switch (tok.type) {
    case T.NUMBER:
    case T.DURATION:
      return numberLiteral(p, p.next());
    case T.STRING:
      p.next();
      return { type: 'StringLiteral', value: unquoteString(tok.val), pos: p.range(tok) };
    case T.LEFT_PAREN:
      return parseParen(p);
    case T.LEFT_BRACE:
      return parseVectorSelector(p, null);
    case T.IDENTIFIER:
    case T.START:
    case T.END:
    case T.STEP:
    case T.RANGE:
    case T.MIN_OF:
    case T.MAX_OF:
      p.next();
      return p.at(T.LEFT_PAREN) ? parseFunctionCall(p, tok) : parseVectorSelector(p, tok);
  }
  if (isAggregator(tok.type)) {
    p.next();
    if (p.at(T.LEFT_PAREN) || p.at(T.BY) || p.at(T.WITHOUT)) return parseAggregate(p, tok);
    return parseVectorSelector(p, tok);
  }
  if (METRIC_NAME_TOKENS.has(tok.type)) return parseVectorSelector(p, p.next());
  throw new Unexpected(tok);
}

/** Installs the expression grammar on a parser state and parses one whole query. */
export function parseQuery(p: ParserState): Expr {
  p.parseSubExpr = () => parseBinary(p, 0);
  if (p.at(T.EOF)) throw p.errorAt('no expression found in input', { start: 0, end: 0 });
  const e = parseBinary(p, 0);
  if (!p.at(T.EOF)) throw new Unexpected(p.peek());
  return e;
}
