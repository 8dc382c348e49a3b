import type { BinaryExpr, BinaryOp, Expr, VectorMatchCardinality, VectorMatching } from './ast.js';
import { numberLiteral } from './literals.js';
import { parseGroupingLabels } from './parse-call.js';
import { type ParserState, Unexpected } from './parser-state.js';
import { T, type TokenType, typeText } from './tokens.js';

/**
 * Binary operators and their precedence, lowest first, as Prometheus' yacc grammar declares
 * them; all are left-associative except `^`.
 */
export const BINARY_PRECEDENCE: ReadonlyMap<TokenType, number> = new Map<TokenType, number>([
  [T.LOR, 1],
  [T.LAND, 2],
  [T.LUNLESS, 2],
  [T.EQLC, 3],
  [T.NEQ, 3],
  [T.LTE, 3],
  [T.LSS, 3],
  [T.GTE, 3],
  [T.GTR, 3],
  [T.TRIM_UPPER, 3],
  [T.TRIM_LOWER, 3],
  [T.ADD, 4],
  [T.SUB, 4],
  [T.MUL, 5],
  [T.DIV, 5],
  [T.MOD, 5],
  [T.ATAN2, 5],
  [T.POW, 6],
]);

/** The precedence of `^`, the only operator that binds tighter than a unary sign. */
export const POW_PRECEDENCE = 6;

/** What may follow a binary operator: `bool`, `on`/`ignoring`, `group_left`/`group_right`, `fill*`. */
export interface BinModifiers {
  readonly returnBool: boolean;
  readonly matching: VectorMatching;
}

function parseFillValue(p: ParserState): number {
  p.expect(T.LEFT_PAREN);
  const sign = p.peek();
  if (sign.type === T.ADD || sign.type === T.SUB) p.next();
  const num = p.peek();
  if (num.type !== T.NUMBER && num.type !== T.DURATION) throw new Unexpected(num);
  const v = numberLiteral(p, p.next()).value;
  p.expect(T.RIGHT_PAREN);
  return sign.type === T.SUB ? -v : v;
}

/** Parses the modifiers after a binary operator (Prometheus' `bin_modifier`). */
export function parseBinModifiers(p: ParserState): BinModifiers {
  let returnBool = false;
  if (p.at(T.BOOL)) {
    p.next();
    returnBool = true;
  }
  let on = false;
  let matchingLabels: string[] = [];
  let card: VectorMatchCardinality = 'one-to-one';
  let include: string[] = [];
  if (p.at(T.ON) || p.at(T.IGNORING)) {
    on = p.next().type === T.ON;
    matchingLabels = parseGroupingLabels(p);
    if (p.at(T.GROUP_LEFT) || p.at(T.GROUP_RIGHT)) {
      card = p.next().type === T.GROUP_LEFT ? 'many-to-one' : 'one-to-many';
      if (p.at(T.LEFT_PAREN)) include = parseGroupingLabels(p);
    }
  }
  let lhs: number | null = null;
  let rhs: number | null = null;
  const first = p.peek().type;
  if (first === T.FILL) {
    p.next();
    lhs = rhs = parseFillValue(p);
  } else if (first === T.FILL_LEFT || first === T.FILL_RIGHT) {
    p.next();
    const v = parseFillValue(p);
    if (first === T.FILL_LEFT) lhs = v;
    else rhs = v;
    const other = first === T.FILL_LEFT ? T.FILL_RIGHT : T.FILL_LEFT;
    if (p.at(other)) {
      p.next();
      const w = parseFillValue(p);
      if (other === T.FILL_LEFT) lhs = w;
      else rhs = w;
    }
  }
  return { returnBool, matching: { card, matchingLabels, on, include, fillValues: { lhs, rhs } } };
}

/**
 * Builds a binary expression (Prometheus' `newBinaryExpression`). `matching` stays set for now;
 * the type check drops it when a side is not an instant vector and makes set operators
 * many-to-many.
 */
export function makeBinary(p: ParserState, opType: TokenType, lhs: Expr, rhs: Expr, mods: BinModifiers): BinaryExpr {
  const node: BinaryExpr = {
    type: 'BinaryExpr',
    op: typeText(opType) as BinaryOp,
    lhs,
    rhs,
    matching: mods.matching,
    returnBool: mods.returnBool,
    pos: { start: lhs.pos.start, end: rhs.pos.end },
  };
  const fill = mods.matching.fillValues;
  if (!p.opts.enableBinopFillModifiers && (fill.lhs !== null || fill.rhs !== null)) {
    throw p.errorAt('binop fill modifiers are experimental and not enabled', node.pos);
  }
  return p.track(node, lhs, rhs);
}
