import type { Expr } from '../parser/ast.js';
import { exprToString } from '../parser/index.js';
import { preprocessExpr } from '../engine/preprocess.js';
import { queryTimeRange } from '../engine/time-range.js';

/**
 * Functions whose answer at a step depends on more than the samples in that step's windows:
 * `sort*` warns only when the query has more than one step; `info` reads its info series at the
 * step's own time whatever the offsets of its argument; `start`/`end`/`range` depend on the
 * query's frame.
 */
const FRAME_DEPENDENT_FUNCTIONS: ReadonlySet<string> = new Set(['sort', 'sort_desc', 'sort_by_label', 'sort_by_label_desc', 'info', 'start', 'end', 'range']);

/** How a range query may use the cache. */
export type CachePlan =
  | { readonly cacheable: false; readonly reason: string }
  | {
      readonly cacheable: true;
      /** The normalised query text (the printer's), part of the key. */
      readonly text: string;
      /**
       * Step `s` reads samples in `[s + minShiftMs, s + maxShiftMs]` (offsets, ranges, lookback and
       * subqueries folded in, as `queryTimeRange` computes them). A query that reads no series has
       * `minShiftMs = +Infinity` and `maxShiftMs = -Infinity`: no change ever touches it.
       */
      readonly minShiftMs: number;
      readonly maxShiftMs: number;
    };

/**
 * Decides whether a parsed range query can be cached and which samples each of its steps reads.
 * Only queries whose value at a step is a function of the samples in that step's windows (and of
 * the step itself) qualify: `@` pins windows to one time and `start()`/`end()`/`range()` tie
 * values to the frame, so those bypass the cache, as do the functions above.
 */
export function planQuery(expr: Expr, stepMs: number, lookbackDeltaMs: number): CachePlan {
  let reason: string | null = null;
  let selectors = 0;
  visit(expr, (n) => {
    if (reason !== null) return;
    if (n.type === 'VectorSelector' || n.type === 'SubqueryExpr') {
      if (n.type === 'VectorSelector') selectors++;
      if (n.timestampMs !== null || n.startOrEnd !== null) reason = 'the query uses @';
    } else if (n.type === 'DurationExpr' && (n.op === 'start' || n.op === 'end' || n.op === 'range')) {
      reason = `the query uses ${n.op}()`;
    } else if (n.type === 'Call' && FRAME_DEPENDENT_FUNCTIONS.has(n.func.name)) {
      reason = `the query calls ${n.func.name}()`;
    }
  });
  if (reason !== null) return { cacheable: false, reason };
  const text = exprToString(expr);
  if (selectors === 0) return { cacheable: true, text, minShiftMs: Infinity, maxShiftMs: -Infinity };
  // Without @ every read moves with the step: the span of a one-step query at 0 is the shift.
  const frame = { startMs: 0, endMs: 0, stepMs };
  const { minT, maxT } = queryTimeRange(preprocessExpr(expr, frame), frame, lookbackDeltaMs);
  return { cacheable: true, text, minShiftMs: minT, maxShiftMs: maxT };
}

/**
 * Calls `fn` on every node of the tree, including the duration expressions of offsets, ranges
 * and steps (which `walkExpr` does not enter): any object field with a `type` is a node.
 */
function visit(e: Expr, fn: (n: Expr) => void): void {
  fn(e);
  for (const v of Object.values(e) as unknown[]) {
    if (Array.isArray(v)) {
      for (const x of v) if (isNode(x)) visit(x, fn);
    } else if (isNode(v)) {
      visit(v, fn);
    }
  }
}

function isNode(v: unknown): v is Expr {
  return typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string' && 'pos' in v;
}
