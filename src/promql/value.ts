import type { Labels } from '../model/index.js';

/**
 * Values the engine computes with, named as in Prometheus' `promql/value.go`. Timestamps are
 * Unix milliseconds. Float values never carry the stale marker: selectors drop stale samples.
 */

/** One element of an instant vector. */
export interface Sample {
  metric: Labels;
  /** Timestamp in ms (the evaluation time for computed samples). */
  t: number;
  f: number;
  /**
   * Delayed `__name__` removal: the metric name is still in `metric` but is dropped when the
   * final result is produced (set by functions and operators that change a sample's meaning).
   */
  dropName: boolean;
}

/** An instant vector: at most one sample per label set. */
export type Vector = Sample[];

/**
 * One series of a range vector or range-query result: parallel arrays of timestamps and
 * values, in increasing timestamp order.
 */
export interface Series {
  metric: Labels;
  t: number[];
  f: number[];
  dropName: boolean;
}

/** A range vector, or the result of a range query. */
export type Matrix = Series[];

/** A result value, tagged like the API's `resultType`. */
export type Value =
  | { readonly type: 'scalar'; readonly t: number; readonly v: number }
  | { readonly type: 'string'; readonly t: number; readonly v: string }
  | { readonly type: 'vector'; readonly v: Vector }
  | { readonly type: 'matrix'; readonly v: Matrix };

/**
 * The points of one series that fall inside a range selector's window, as index bounds into
 * shared arrays (windows of consecutive steps overlap, so they are never copied):
 * points `t[i], f[i]` for `lo <= i < hi`.
 */
export interface RangeWindow {
  readonly metric: Labels;
  readonly t: ArrayLike<number>;
  readonly f: ArrayLike<number>;
  readonly lo: number;
  readonly hi: number;
}
