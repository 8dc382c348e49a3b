import type { Labels } from '../../model/index.js';
import type { Expr } from '../parser/ast.js';
import { QueryError } from '../errors.js';
import type { RangeFunction } from '../functions/index.js';
import type { Matrix, RangeWindow } from '../value.js';
import type { Evaluator } from './evaluator.js';
import type { FunctionContextImpl } from './function-context.js';
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

/** The reference time of the window at step time `ts` (the `@` time if any, minus the offset). */
export function rangeRef(arg: RangeArgument, ts: number): number {
  return (arg.timestampMs ?? ts) - arg.offsetMs;
}

/** A window over one series' arrays that `WindowSlider` moves in place. */
export interface SlidingWindow extends RangeWindow {
  lo: number;
  hi: number;
}

/** Moves `lo`/`hi` so that the points `[lo, hi)` are those in `(start, end]`. */
export function advanceWindow(win: { t: ArrayLike<number>; lo: number; hi: number }, start: number, end: number): void {
  const t = win.t;
  if (win.lo > 0 && t[win.lo - 1] > start) win.lo = 0; // the window moved back (constant @): restart
  if (win.hi > 0 && t[win.hi - 1] > end) win.hi = 0;
  while (win.lo < t.length && t[win.lo] <= start) win.lo++;
  if (win.hi < win.lo) win.hi = win.lo;
  while (win.hi < t.length && t[win.hi] <= end) win.hi++;
}

/**
 * Slides a range function's windows over the evaluator's steps, one series at a time, and calls
 * `emit(step, value)` for every value the function returns (each counted as a point produced).
 * `scalarArgs` are the function's arguments (null for the range argument and strings), read at
 * each step in order. The general path collects the values into a series; the fused paths
 * (fused-aggregate.ts) fold them into their groups, so both compute every value the same way.
 *
 * `slide` is synchronous so that a series costs no promise: it stops at the step where the
 * query must yield and returns it; the caller awaits `ev.ctx.pause()` and calls again with that
 * step and `resumed` true (its check is done), until it returns `ev.steps`.
 */
export class WindowSlider {
  private readonly scalars: number[];

  constructor(
    private readonly ev: Evaluator,
    private readonly arg: RangeArgument,
    private readonly fctx: FunctionContextImpl,
    private readonly fn: RangeFunction,
    private readonly scalarArgs: readonly (Matrix | null)[] = [],
  ) {
    this.scalars = new Array<number>(Math.max(0, scalarArgs.length - 1)).fill(0);
  }

  /** Runs steps `from, from + 1, …` over `win`; returns where to resume after a pause, or `ev.steps`. */
  slide(win: SlidingWindow, emit: (step: number, v: number) => void, from: number, resumed: boolean): number {
    const { ev, arg, fctx, scalarArgs, scalars } = this;
    for (let i = from; i < ev.steps; i++) {
      // The last window's size stands for this step's work (functions walk their window).
      if ((i !== from || !resumed) && ev.ctx.check(1 + win.hi - win.lo)) return i;
      const ts = ev.stepTime(i);
      const ref = rangeRef(arg, ts);
      const start = ref - arg.rangeMs;
      advanceWindow(win, start, ref);
      if (win.hi === win.lo && !(arg.anchored || arg.smoothed)) continue;
      let si = 0;
      for (let j = 0; j < scalarArgs.length; j++) {
        const sa = scalarArgs[j];
        if (sa !== null) scalars[si++] = sa.length > 0 ? (sa[0].f[i] ?? NaN) : NaN;
      }
      fctx.tMs = ts;
      fctx.rangeStartMs = start;
      fctx.rangeEndMs = ref;
      const v = this.fn(win, scalars, fctx);
      if (v === undefined) continue;
      ev.ctx.point();
      emit(i, v);
    }
    return ev.steps;
  }

}
