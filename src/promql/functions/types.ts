import type { Expr } from '../parser/ast.js';
import type { Annotations } from '../annotations.js';
import type { RangeWindow, Vector } from '../value.js';

/**
 * What a function sees of the evaluation it runs in. One context object is reused for every step
 * of a query; read fields, never keep it.
 */
export interface FunctionContext {
  /** The evaluation timestamp of the current step (ms). */
  readonly tMs: number;
  /** The argument expressions as written (string literals, selectors for `absent`, ...). */
  readonly args: readonly Expr[];
  /** Where warnings and infos go (`PossibleNonCounterInfo`, `BadBucketLabelWarning`, ...). */
  readonly annotations: Annotations;
  /** The query's lookback delta (ms). */
  readonly lookbackDeltaMs: number;
  /** For range-vector functions: the window is `(rangeStartMs, rangeEndMs]`. */
  readonly rangeStartMs: number;
  readonly rangeEndMs: number;
  /** The range selector's `anchored` / `smoothed` modifiers (experimental extended ranges). */
  readonly anchored: boolean;
  readonly smoothed: boolean;
  /** Query start, end and step (ms), for `start()`, `end()`, `range()`, `step()`. */
  readonly queryStartMs: number;
  readonly queryEndMs: number;
  readonly queryStepMs: number;
}

/**
 * A function whose arguments are instant vectors and scalars (`abs`, `clamp`, `label_replace`,
 * `histogram_quantile`, `time`, ...). `vectors[i]` holds argument i at this step; a scalar
 * argument arrives as a one-sample vector with an empty label set, a string argument as an empty
 * vector (read it from `ctx.args[i]`). Returns the output vector; samples in it are new objects
 * (the inputs belong to the caller). A function that changes a sample's meaning sets `dropName`.
 */
export type InstantFunction = (vectors: readonly Vector[], ctx: FunctionContext) => Vector;

/**
 * A function over a range vector (`rate`, `*_over_time`, `predict_linear`, ...), called once per
 * series and step with that series' window. `scalars` are the scalar arguments at this step in
 * argument order (`quantile_over_time`'s φ, `predict_linear`'s t). Returns the output value, or
 * `undefined` for no output sample at this step.
 *
 * For `anchored`/`smoothed` ranges the window's arrays also hold the series' points up to
 * `lookbackDeltaMs` before `rangeStartMs` (indices below `lo`) and after `rangeEndMs` (indices
 * from `hi` on); plain ranges may expose other points outside `[lo, hi)` too, which a function
 * must ignore.
 */
export type RangeFunction = (
  window: RangeWindow,
  scalars: readonly number[],
  ctx: FunctionContext,
) => number | undefined;

/** How the engine must call a function, and what it does to metric names. */
export type FunctionImpl =
  | { readonly kind: 'instant'; readonly call: InstantFunction }
  | {
      readonly kind: 'range';
      readonly call: RangeFunction;
      /** False for functions whose output keeps `__name__` (`last_over_time`, `first_over_time`). */
      readonly dropsName: boolean;
    };
