import type { BinaryOp } from '../parser/ast.js';

/** Arithmetic operators, whose results drop the metric name. */
export function isArithmetic(op: BinaryOp): boolean {
  return op === '+' || op === '-' || op === '*' || op === '/' || op === '%' || op === '^' || op === 'atan2';
}

/** Comparison operators. */
export function isComparison(op: BinaryOp): boolean {
  return op === '==' || op === '!=' || op === '>' || op === '<' || op === '>=' || op === '<=';
}

/** Set operators. */
export function isSetOp(op: BinaryOp): boolean {
  return op === 'and' || op === 'or' || op === 'unless';
}

/** Go's `math.Pow`, which differs from `**` for a few special cases (`1 ** NaN`, `(-1) ** ±Inf`). */
export function goPow(x: number, y: number): number {
  if (y === 0 || x === 1) return 1;
  if ((y === Infinity || y === -Infinity) && x === -1) return 1;
  return Math.pow(x, y);
}

/** Result of an arithmetic operator on two floats. */
export function arithmetic(op: BinaryOp, l: number, r: number): number {
  switch (op) {
    case '+':
      return l + r;
    case '-':
      return l - r;
    case '*':
      return l * r;
    case '/':
      return l / r;
    case '%':
      return l % r;
    case '^':
      return goPow(l, r);
    case 'atan2':
      return Math.atan2(l, r);
    default:
      return NaN;
  }
}

/** Result of a comparison operator on two floats. */
export function compare(op: BinaryOp, l: number, r: number): boolean {
  switch (op) {
    case '==':
      return l === r;
    case '!=':
      return l !== r;
    case '>':
      return l > r;
    case '<':
      return l < r;
    case '>=':
      return l >= r;
    case '<=':
      return l <= r;
    default:
      return false;
  }
}

/**
 * Prometheus' `vectorElemBinop` for floats: the value of `l op r` and whether the element is kept
 * (comparisons filter; arithmetic always keeps).
 */
export function elemBinop(op: BinaryOp, l: number, r: number, out: { v: number; keep: boolean }): void {
  if (isComparison(op)) {
    out.v = l;
    out.keep = compare(op, l, r);
    return;
  }
  out.v = arithmetic(op, l, r);
  out.keep = true;
}
