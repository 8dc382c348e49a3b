import type { DurationExpr, Expr, MatrixSelector, SubqueryExpr, VectorSelector } from '../parser/ast.js';
import { QueryError } from '../errors.js';

/** Functions whose value depends on the evaluation time, so `@` cannot pin them (Prometheus' `AtModifierUnsafeFunctions`). */
export const AT_MODIFIER_UNSAFE_FUNCTIONS: ReadonlySet<string> = new Set([
  'day_of_month',
  'day_of_week',
  'day_of_year',
  'days_in_month',
  'hour',
  'minute',
  'month',
  'year',
  'predict_linear',
  'time',
  'timestamp',
  'start',
  'end',
  'range',
  'step',
]);

/** The query's frame, which `step()`, `start()`, `end()`, `range()` and `@ start()` refer to. */
export interface QueryFrame {
  readonly startMs: number;
  readonly endMs: number;
  readonly stepMs: number;
}

/**
 * Prepares a parsed expression for evaluation, as Prometheus' `PreprocessExpr`: folds duration
 * expressions into milliseconds, resolves `@ start()` / `@ end()`, and wraps subtrees whose value
 * is the same at every step in `StepInvariantExpr` so that they are evaluated once. Returns a new
 * tree; the input is not modified.
 */
export function preprocessExpr(expr: Expr, frame: QueryFrame): Expr {
  const folded = foldDurations(expr, frame);
  const [out, invariant] = wrapInvariant(folded, frame);
  return invariant ? stepInvariant(out) : out;
}

function stepInvariant(e: Expr): Expr {
  return e.type === 'StepInvariantExpr' ? e : { type: 'StepInvariantExpr', expr: e, pos: e.pos };
}

function resolveAt<T extends VectorSelector | SubqueryExpr>(n: T, frame: QueryFrame): T {
  if (n.startOrEnd === null) return n;
  return { ...n, timestampMs: n.startOrEnd === 'start' ? frame.startMs : frame.endMs };
}

function wrapInvariant(e: Expr, frame: QueryFrame): [Expr, boolean] {
  switch (e.type) {
    case 'VectorSelector': {
      const vs = resolveAt(e, frame);
      return [vs, vs.timestampMs !== null];
    }
    case 'MatrixSelector': {
      const [vs, inv] = wrapInvariant(e.vectorSelector, frame);
      return [{ ...e, vectorSelector: vs as VectorSelector }, inv];
    }
    case 'AggregateExpr': {
      const [inner, inv] = wrapInvariant(e.expr, frame);
      return [{ ...e, expr: inner }, inv];
    }
    case 'BinaryExpr': {
      const [l, li] = wrapInvariant(e.lhs, frame);
      const [r, ri] = wrapInvariant(e.rhs, frame);
      if (li && ri) return [{ ...e, lhs: l, rhs: r }, true];
      return [{ ...e, lhs: li ? stepInvariant(l) : l, rhs: ri ? stepInvariant(r) : r }, false];
    }
    case 'Call': {
      let invariant = !AT_MODIFIER_UNSAFE_FUNCTIONS.has(e.func.name);
      const parts = e.args.map((a) => wrapInvariant(a, frame));
      for (const [, inv] of parts) invariant = invariant && inv;
      if (invariant) return [{ ...e, args: parts.map(([a]) => a) }, true];
      return [{ ...e, args: parts.map(([a, inv]) => (inv ? stepInvariant(a) : a)) }, false];
    }
    case 'SubqueryExpr': {
      const [inner, inv] = wrapInvariant(e.expr, frame);
      const sq = resolveAt({ ...e, expr: inv ? stepInvariant(inner) : inner }, frame);
      return [sq, sq.timestampMs !== null];
    }
    case 'ParenExpr':
    case 'UnaryExpr': {
      const [inner, inv] = wrapInvariant(e.expr, frame);
      return [{ ...e, expr: inner }, inv];
    }
    case 'StringLiteral':
    case 'NumberLiteral':
      return [e, true];
    case 'StepInvariantExpr':
      return [e, true];
    case 'DurationExpr':
      // Folded away before this pass; a stray one is a scalar that depends on the frame only.
      return [e, true];
  }
}

/** Replaces every duration expression by its value. */
function foldDurations(e: Expr, frame: QueryFrame): Expr {
  switch (e.type) {
    case 'VectorSelector':
      return e.offsetExpr ? { ...e, offsetMs: durationMs(e.offsetExpr, frame, 'offset'), offsetExpr: null } : e;
    case 'MatrixSelector': {
      const vs = foldDurations(e.vectorSelector, frame) as VectorSelector;
      const m: MatrixSelector = { ...e, vectorSelector: vs };
      if (!e.rangeExpr) return m;
      const rangeMs = durationMs(e.rangeExpr, frame, 'range');
      if (rangeMs <= 0) throw new QueryError('bad_data', `range must be positive, got ${fmtSeconds(rangeMs)}`);
      return { ...m, rangeMs, rangeExpr: null };
    }
    case 'SubqueryExpr': {
      let sq: SubqueryExpr = { ...e, expr: foldDurations(e.expr, frame) };
      if (sq.rangeExpr) {
        const rangeMs = durationMs(sq.rangeExpr, frame, 'range');
        if (rangeMs <= 0) throw new QueryError('bad_data', `range must be positive, got ${fmtSeconds(rangeMs)}`);
        sq = { ...sq, rangeMs, rangeExpr: null };
      }
      if (sq.stepExpr) {
        const stepMs = durationMs(sq.stepExpr, frame, 'step');
        if (stepMs <= 0) throw new QueryError('bad_data', `step must be positive, got ${fmtSeconds(stepMs)}`);
        sq = { ...sq, stepMs, stepExpr: null };
      }
      if (sq.offsetExpr) sq = { ...sq, offsetMs: durationMs(sq.offsetExpr, frame, 'offset'), offsetExpr: null };
      return sq;
    }
    case 'AggregateExpr':
      return { ...e, expr: foldDurations(e.expr, frame), param: e.param ? foldDurations(e.param, frame) : null };
    case 'BinaryExpr':
      return { ...e, lhs: foldDurations(e.lhs, frame), rhs: foldDurations(e.rhs, frame) };
    case 'Call':
      return { ...e, args: e.args.map((a) => foldDurations(a, frame)) };
    case 'ParenExpr':
    case 'UnaryExpr':
    case 'StepInvariantExpr':
      return { ...e, expr: foldDurations(e.expr, frame) };
    case 'DurationExpr':
      return { type: 'NumberLiteral', value: durationSeconds(e, frame), duration: false, pos: e.pos };
    case 'NumberLiteral':
    case 'StringLiteral':
      return e;
  }
}

function fmtSeconds(ms: number): string {
  return `${ms / 1000}s`;
}

function durationMs(d: DurationExpr, frame: QueryFrame, what: string): number {
  const sec = durationSeconds(d, frame);
  if (!Number.isFinite(sec)) throw new QueryError('bad_data', `${what} duration is not a finite number: ${sec}`);
  // Go converts to time.Duration (nanoseconds, truncated) and then to milliseconds.
  return Math.trunc(Math.trunc(sec * 1e9) / 1e6);
}

/** Evaluates a duration expression to seconds. */
export function durationSeconds(e: Expr, frame: QueryFrame): number {
  switch (e.type) {
    case 'NumberLiteral':
      return e.value;
    case 'ParenExpr':
      return durationSeconds(e.expr, frame);
    case 'UnaryExpr':
      return e.op === '-' ? -durationSeconds(e.expr, frame) : durationSeconds(e.expr, frame);
    case 'DurationExpr':
      break;
    default:
      throw new QueryError('bad_data', `unexpected ${e.type} in a duration expression`);
  }
  const lhs = (): number => durationSeconds(e.lhs as Expr, frame);
  const rhs = (): number => durationSeconds(e.rhs as Expr, frame);
  switch (e.op) {
    case 'step':
      return frame.stepMs / 1000;
    case 'start':
      return frame.startMs / 1000;
    case 'end':
      return frame.endMs / 1000;
    case 'range':
      return (frame.endMs - frame.startMs) / 1000;
    case 'min_of':
      return Math.min(lhs(), rhs());
    case 'max_of':
      return Math.max(lhs(), rhs());
    case '+':
      return e.lhs === null ? rhs() : lhs() + rhs();
    case '-':
      return e.lhs === null ? -rhs() : lhs() - rhs();
    case '*':
      return lhs() * rhs();
    case '/': {
      const r = rhs();
      if (r === 0) throw new QueryError('bad_data', 'division by zero');
      return lhs() / r;
    }
    case '%': {
      const r = rhs();
      if (r === 0) throw new QueryError('bad_data', 'modulo by zero');
      return lhs() % r;
    }
    case '^':
      return Math.pow(lhs(), rhs());
  }
}
