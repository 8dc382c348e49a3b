import { AT_MODIFIER_UNSAFE_FUNCTIONS } from '../engine/index.js';
import type { Expr, VectorSelector } from '../parser/ast.js';

/**
 * The `@`-modifier variants test.go runs for every instant eval (`atModifierTestCases`): the
 * expression with `@ T` pinned on every selector and subquery that has no `@`, evaluated at other
 * times, must give the same result.
 */

/** One variant: the rewritten expression and the time to run it at (ms). */
export interface AtVariant {
  readonly expr: Expr;
  readonly tMs: number;
}

/**
 * Returns the variants of `expr` for an instant eval at `evalMs`, or [] when the expression calls
 * an @-unsafe function (the engine's `AT_MODIFIER_UNSAFE_FUNCTIONS`, as test.go reads
 * `promql.AtModifierUnsafeFunctions`). As in test.go, every vector selector, matrix selector and subquery without
 * `@` gets `@ evalMs` (an `@ start()` / `@ end()` counts as "without": Go keeps those as a flag
 * beside a nil timestamp, and the timestamp wins), and nothing inside a subquery is touched or
 * inspected, because the subquery itself is pinned before its children are visited. The times are
 * −10T, 0, T/5, T and 10T, or −1 s, 0 and 1 s when T is 0.
 */
export function atModifierVariants(expr: Expr, evalMs: number): AtVariant[] {
  const state = { unsafe: false };
  const pinned = pin(expr, evalMs, state);
  if (state.unsafe) return [];
  const times = evalMs === 0 ? [-1000, 0, 1000] : [-10 * evalMs, 0, Math.trunc(evalMs / 5), evalMs, 10 * evalMs];
  return times.map((tMs) => ({ expr: pinned, tMs }));
}

function pinSelector(vs: VectorSelector, tMs: number): VectorSelector {
  return vs.timestampMs === null ? { ...vs, timestampMs: tMs, startOrEnd: null } : vs;
}

function pin(e: Expr, tMs: number, state: { unsafe: boolean }): Expr {
  switch (e.type) {
    case 'VectorSelector':
      return pinSelector(e, tMs);
    case 'MatrixSelector':
      return { ...e, vectorSelector: pinSelector(e.vectorSelector, tMs) };
    case 'SubqueryExpr':
      return e.timestampMs === null ? { ...e, timestampMs: tMs, startOrEnd: null } : e;
    case 'Call':
      if (AT_MODIFIER_UNSAFE_FUNCTIONS.has(e.func.name)) state.unsafe = true;
      return { ...e, args: e.args.map((a) => pin(a, tMs, state)) };
    case 'AggregateExpr':
      return { ...e, expr: pin(e.expr, tMs, state), param: e.param === null ? null : pin(e.param, tMs, state) };
    case 'BinaryExpr':
      return { ...e, lhs: pin(e.lhs, tMs, state), rhs: pin(e.rhs, tMs, state) };
    case 'ParenExpr':
    case 'StepInvariantExpr':
    case 'UnaryExpr':
      return { ...e, expr: pin(e.expr, tMs, state) };
    case 'DurationExpr':
    case 'NumberLiteral':
    case 'StringLiteral':
      return e;
  }
}

const QUERY_FRAME_FUNCTIONS = new Set(['start', 'end', 'range', 'step']);

/** test.go's `reQueryContextFuncs`, applied to expression text. */
export const QUERY_FRAME_FUNCTION_CALL = /(start|end|range|step)\(\)/;

/**
 * Reports whether the printed form of `expr` would contain `start()`, `end()`, `range()` or
 * `step()` (a call, a duration-expression function, or `@ start()` / `@ end()`): test.go skips the
 * range-mode check for those, matching `QUERY_FRAME_FUNCTION_CALL` against the printed variant.
 */
export function usesQueryFrame(e: Expr | null): boolean {
  if (e === null) return false;
  switch (e.type) {
    case 'VectorSelector':
      return e.startOrEnd !== null || usesQueryFrame(e.offsetExpr);
    case 'MatrixSelector':
      return usesQueryFrame(e.vectorSelector) || usesQueryFrame(e.rangeExpr);
    case 'SubqueryExpr':
      return (
        e.startOrEnd !== null ||
        usesQueryFrame(e.expr) ||
        usesQueryFrame(e.rangeExpr) ||
        usesQueryFrame(e.stepExpr) ||
        usesQueryFrame(e.offsetExpr)
      );
    case 'Call':
      return (QUERY_FRAME_FUNCTIONS.has(e.func.name) && e.args.length === 0) || e.args.some((a) => usesQueryFrame(a));
    case 'DurationExpr':
      return QUERY_FRAME_FUNCTIONS.has(e.op) || usesQueryFrame(e.lhs) || usesQueryFrame(e.rhs);
    case 'AggregateExpr':
      return usesQueryFrame(e.expr) || usesQueryFrame(e.param);
    case 'BinaryExpr':
      return usesQueryFrame(e.lhs) || usesQueryFrame(e.rhs);
    case 'ParenExpr':
    case 'StepInvariantExpr':
    case 'UnaryExpr':
      return usesQueryFrame(e.expr);
    case 'NumberLiteral':
    case 'StringLiteral':
      return false;
  }
}
