import type { Labels } from '../../model/index.js';
import type { Expr } from '../parser/ast.js';
import { QueryError } from '../errors.js';
import type { Evaluator } from './evaluator.js';
import { countPoints } from './points.js';
import { refTime, scanSeries } from './selectors.js';

/** Receives one series of a range-vector argument; the arrays are valid only during the call. */
export type RangeSeriesVisitor = (metric: Labels, t: ArrayLike<number>, f: ArrayLike<number>, dropName: boolean) => void | Promise<void>;

/** The range-vector argument of a function: how windows are cut, and its series one at a time. */
export interface RangeArgument {
  readonly rangeMs: number;
  readonly offsetMs: number;
  /** The `@` time, or null to follow the steps. */
  readonly timestampMs: number | null;
  readonly anchored: boolean;
  readonly smoothed: boolean;
  /** Streams the series (stale markers removed), in label order for selectors. */
  forEachSeries(visit: RangeSeriesVisitor): Promise<void>;
  /** Gives back the samples the argument holds (a subquery's result); call once, when done. */
  release(): void;
}

/**
 * Prepares a matrix selector or a subquery used as a function argument. A selector streams each
 * series' samples over the span every step's window needs (plus a lookback delta on each side for
 * `anchored`/`smoothed` ranges, whose functions look around the window) through a reused buffer,
 * so a query never holds all raw samples at once; a subquery is evaluated over its own steps.
 */
export async function evalRangeArgument(ev: Evaluator, arg: Expr): Promise<RangeArgument> {
  while (arg.type === 'ParenExpr' || arg.type === 'StepInvariantExpr') arg = arg.expr;
  if (arg.type === 'SubqueryExpr') {
    const m = await ev.evalSubquery(arg);
    return {
      rangeMs: arg.rangeMs,
      offsetMs: arg.offsetMs,
      timestampMs: arg.timestampMs,
      anchored: false,
      smoothed: false,
      forEachSeries: async (visit) => {
        for (const s of m) await visit(s.metric, s.t, s.f, s.dropName);
      },
      release: () => ev.ctx.releaseSamples(countPoints(m)),
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
  return {
    rangeMs: arg.rangeMs,
    offsetMs: vs.offsetMs,
    timestampMs: vs.timestampMs,
    anchored: vs.anchored,
    smoothed: vs.smoothed,
    forEachSeries: (visit) => scanSeries(ev, vs, minT, maxT, false, (s) => visit(s.metric, s.t, s.f, false)),
    release: () => undefined,
  };
}
