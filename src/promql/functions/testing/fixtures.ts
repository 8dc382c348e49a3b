import { Labels } from '../../../model/index.js';
import { Annotations } from '../../annotations.js';
import type { Expr, StringLiteral, VectorSelector } from '../../parser/ast.js';
import type { RangeWindow, Sample, Vector } from '../../value.js';
import type { FunctionContext, InstantFunction, RangeFunction } from '../types.js';

/** Test fixtures for the function library: contexts, windows and vectors built from plain data. */

const POS = { start: 0, end: 0 };

/** A `FunctionContext` with defaults (t = 0, lookback 5m, instant query at t) and fresh annotations. */
export function ctxOf(over: Partial<FunctionContext> = {}): FunctionContext {
  const tMs = over.tMs ?? 0;
  return {
    tMs,
    args: [],
    annotations: new Annotations(),
    lookbackDeltaMs: 300_000,
    rangeStartMs: tMs,
    rangeEndMs: tMs,
    anchored: false,
    smoothed: false,
    queryStartMs: tMs,
    queryEndMs: tMs,
    queryStepMs: 0,
    ...over,
  };
}

/** Options of `runRange`. */
export interface RangeCall {
  /** Evaluation time (s). */
  readonly at: number;
  /** Range (s). */
  readonly range: number;
  readonly offset?: number;
  readonly anchored?: boolean;
  readonly smoothed?: boolean;
  readonly scalars?: readonly number[];
  readonly metric?: Labels;
  readonly lookback?: number;
}

/**
 * Calls a range function the way the evaluator does: `points` ([seconds, value] pairs, the whole
 * series) in shared arrays, `[lo, hi)` the points in `(at - offset - range, at - offset]`.
 */
export function runRange(
  fn: RangeFunction,
  points: readonly (readonly [number, number])[],
  call: RangeCall,
): { value: number | undefined; annotations: Annotations } {
  const t = points.map(([s]) => Math.round(s * 1000));
  const f = points.map(([, v]) => v);
  const end = (call.at - (call.offset ?? 0)) * 1000;
  const start = end - call.range * 1000;
  let lo = 0;
  while (lo < t.length && t[lo] <= start) lo++;
  let hi = lo;
  while (hi < t.length && t[hi] <= end) hi++;
  const w: RangeWindow = { metric: call.metric ?? Labels.from({ __name__: 'x_total' }), t, f, lo, hi };
  const ctx = ctxOf({
    tMs: call.at * 1000,
    rangeStartMs: start,
    rangeEndMs: end,
    anchored: call.anchored ?? false,
    smoothed: call.smoothed ?? false,
    lookbackDeltaMs: (call.lookback ?? 300) * 1000,
  });
  return { value: fn(w, call.scalars ?? [], ctx), annotations: ctx.annotations };
}

/** A sample with the given labels and value at t = 0. */
export function smp(labels: Readonly<Record<string, string>>, f: number, dropName = false): Sample {
  return { metric: Labels.from(labels), t: 0, f, dropName };
}

/** A scalar argument: a one-sample vector without labels. */
export function sc(f: number): Vector {
  return [{ metric: Labels.EMPTY, t: 0, f, dropName: false }];
}

/** A string literal argument node. */
export function str(value: string): StringLiteral {
  return { type: 'StringLiteral', value, pos: POS };
}

/** A vector selector argument node with the given matchers. */
export function sel(matchers: VectorSelector['matchers']): VectorSelector {
  return {
    type: 'VectorSelector',
    name: '',
    matchers,
    offsetMs: 0,
    offsetExpr: null,
    timestampMs: null,
    startOrEnd: null,
    anchored: false,
    smoothed: false,
    pos: POS,
  };
}

/** Calls an instant function at `tMs` with the given argument vectors and argument nodes. */
export function runInstant(
  fn: InstantFunction,
  vectors: readonly Vector[],
  args: readonly Expr[] = [],
  over: Partial<FunctionContext> = {},
): { out: Vector; annotations: Annotations } {
  const ctx = ctxOf({ args, ...over });
  return { out: fn(vectors, ctx), annotations: ctx.annotations };
}

/** An output vector as plain `[labels, value]` pairs, for `toEqual`. */
export function plain(v: Vector): [string, number][] {
  return v.map((s) => [s.metric.toString(), s.f]);
}

/**
 * Points of a series loaded every `stepS` seconds from t = 0, in promqltest's notation: numbers,
 * `null` for a missing sample (`_`), and `[start, delta, times]` for `start+deltaxtimes` (which
 * yields times + 1 points).
 */
export function series(stepS: number, ...items: (number | null | readonly [number, number, number])[]): [number, number][] {
  const out: [number, number][] = [];
  let i = 0;
  for (const it of items) {
    if (it === null) {
      i++;
    } else if (typeof it === 'number') {
      out.push([i++ * stepS, it]);
    } else {
      const [start, delta, times] = it;
      for (let k = 0; k <= times; k++) out.push([i++ * stepS, start + k * delta]);
    }
  }
  return out;
}

/**
 * Reports whether two results agree as promqltest compares them (relative 1e-6 there; 1e-9 here),
 * with NaN equal to NaN and `undefined` (no sample) only equal to itself.
 */
export function close(actual: number | undefined, expected: number | undefined): boolean {
  if (actual === undefined || expected === undefined) return actual === expected;
  if (Number.isNaN(expected)) return Number.isNaN(actual);
  if (actual === expected) return true;
  return Math.abs(actual - expected) <= 1e-9 * Math.max(Math.abs(expected), Math.abs(actual));
}
