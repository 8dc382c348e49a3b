import type { Expr } from '../parser/ast.js';
import { QueryError } from '../errors.js';
import type { Series } from '../value.js';
import type { Evaluator } from './evaluator.js';
import { loadSeries, refTime } from './selectors.js';

/** The evaluated range-vector argument of a function: every series' points plus how windows are cut. */
export interface RangeArgument {
  /** Series with the points windows are cut from (stale markers removed). */
  readonly series: readonly Series[];
  readonly rangeMs: number;
  readonly offsetMs: number;
  /** The `@` time, or null to follow the steps. */
  readonly timestampMs: number | null;
  readonly anchored: boolean;
  readonly smoothed: boolean;
  /** Samples accounted to the query for these points; release them when done. */
  readonly heldSamples: number;
}

/**
 * Evaluates a matrix selector or a subquery used as a function argument. A selector reads the
 * span every step's window needs, plus a lookback delta on each side for `anchored`/`smoothed`
 * ranges (whose functions look at the points around the window); a subquery is evaluated over its
 * own steps.
 */
export function evalRangeArgument(ev: Evaluator, arg: Expr): RangeArgument {
  while (arg.type === 'ParenExpr' || arg.type === 'StepInvariantExpr') arg = arg.expr;
  if (arg.type === 'SubqueryExpr') {
    const m = ev.evalSubquery(arg);
    let held = 0;
    for (const s of m) held += s.t.length;
    return {
      series: m,
      rangeMs: arg.rangeMs,
      offsetMs: arg.offsetMs,
      timestampMs: arg.timestampMs,
      anchored: false,
      smoothed: false,
      heldSamples: held,
    };
  }
  if (arg.type !== 'MatrixSelector') throw new QueryError('internal', `expected a range vector, got ${arg.type}`);
  const vs = arg.vectorSelector;
  const extended = vs.anchored || vs.smoothed;
  const lookback = ev.ctx.init.lookbackDeltaMs;
  const first = refTime(vs, ev.startMs);
  const last = refTime(vs, ev.endMs);
  const minT = Math.min(first, last) - arg.rangeMs - (extended ? lookback : 0);
  const maxT = Math.max(first, last) + (extended ? lookback : 0);
  const loaded = loadSeries(ev, vs, minT, maxT, false);
  let held = 0;
  const series: Series[] = [];
  for (const s of loaded) {
    held += s.t.length;
    series.push({ metric: s.metric, t: s.t, f: s.f, dropName: false });
  }
  ev.ctx.addSamples(held, 'range vector selector');
  return {
    series,
    rangeMs: arg.rangeMs,
    offsetMs: vs.offsetMs,
    timestampMs: vs.timestampMs,
    anchored: vs.anchored,
    smoothed: vs.smoothed,
    heldSamples: held,
  };
}
