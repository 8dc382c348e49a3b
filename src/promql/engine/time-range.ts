import type { Expr } from '../parser/ast.js';
import type { QueryFrame } from './preprocess.js';

/**
 * A time span `[minT, maxT]` that covers every sample the (preprocessed) expression can read, as
 * Prometheus' `FindMinMaxTime`: each selector reads from its first step's reference time minus
 * its range (or the lookback delta) to its last step's reference time, where subqueries shift and
 * widen the steps of what they enclose and `@` pins them. Extended (`anchored`/`smoothed`) ranges
 * read a lookback delta further on both sides.
 */
export function queryTimeRange(e: Expr, frame: QueryFrame, lookbackDeltaMs: number): { minT: number; maxT: number } {
  let minT = Infinity;
  let maxT = -Infinity;
  const visit = (n: Expr, start: number, end: number): void => {
    switch (n.type) {
      case 'VectorSelector':
      case 'MatrixSelector': {
        const vs = n.type === 'MatrixSelector' ? n.vectorSelector : n;
        const range = n.type === 'MatrixSelector' ? n.rangeMs : 0;
        const extended = vs.anchored || vs.smoothed ? lookbackDeltaMs : 0;
        const s = (vs.timestampMs ?? start) - vs.offsetMs;
        const e = (vs.timestampMs ?? end) - vs.offsetMs;
        minT = Math.min(minT, s - range - lookbackDeltaMs - extended);
        maxT = Math.max(maxT, e + extended);
        return;
      }
      case 'SubqueryExpr': {
        const s = (n.timestampMs ?? start) - n.offsetMs;
        const e = (n.timestampMs ?? end) - n.offsetMs;
        visit(n.expr, s - n.rangeMs, e);
        return;
      }
      case 'AggregateExpr':
        if (n.param) visit(n.param, start, end);
        visit(n.expr, start, end);
        return;
      case 'BinaryExpr':
        visit(n.lhs, start, end);
        visit(n.rhs, start, end);
        return;
      case 'Call':
        for (const a of n.args) visit(a, start, end);
        return;
      case 'ParenExpr':
      case 'StepInvariantExpr':
      case 'UnaryExpr':
        visit(n.expr, start, end);
        return;
      default:
        return;
    }
  };
  visit(e, frame.startMs, frame.endMs);
  if (minT === Infinity) return { minT: frame.startMs, maxT: frame.endMs };
  return { minT, maxT };
}
