import type { Vector } from '../value.js';
import { absentLabels, sample, scalarArg, scalarResult } from './args.js';
import type { FunctionContext, InstantFunction } from './types.js';

/**
 * Element-wise math over instant vectors, and the functions that make or read scalars, as in
 * Prometheus' `promql/functions.go`. Every element-wise function drops the metric name.
 */

/** Applies `fn` to every sample's value; the outputs drop the metric name (`simpleFloatFunc`). */
export function elementWise(fn: (f: number) => number): InstantFunction {
  return (vectors, ctx) => mapValues(vectors[0], ctx, fn);
}

function mapValues(v: Vector, ctx: FunctionContext, fn: (f: number) => number): Vector {
  const out: Vector = new Array<Vector[number]>(v.length);
  for (let i = 0; i < v.length; i++) out[i] = sample(v[i].metric, ctx.tMs, fn(v[i].f), true);
  return out;
}

/** The element-wise functions that take one argument, by PromQL name. */
export const SIMPLE_MATH: ReadonlyMap<string, (f: number) => number> = new Map<string, (f: number) => number>([
  ['abs', Math.abs],
  ['ceil', Math.ceil],
  ['floor', Math.floor],
  ['exp', Math.exp],
  ['sqrt', Math.sqrt],
  ['ln', Math.log],
  ['log2', Math.log2],
  ['log10', Math.log10],
  ['sin', Math.sin],
  ['cos', Math.cos],
  ['tan', Math.tan],
  ['asin', Math.asin],
  ['acos', Math.acos],
  ['atan', Math.atan],
  ['sinh', Math.sinh],
  ['cosh', Math.cosh],
  ['tanh', Math.tanh],
  ['asinh', Math.asinh],
  ['acosh', Math.acosh],
  ['atanh', Math.atanh],
  ['rad', (v) => (v * Math.PI) / 180],
  ['deg', (v) => (v * 180) / Math.PI],
  // Zero, -0 and NaN are their own sign.
  ['sgn', (v) => (v < 0 ? -1 : v > 0 ? 1 : v)],
]);

/** `clamp` with both bounds; nothing when max < min. */
function clampVector(v: Vector, ctx: FunctionContext, min: number, max: number): Vector {
  if (max < min) return [];
  return mapValues(v, ctx, (f) => Math.max(min, Math.min(max, f)));
}

/** `clamp(v, min, max)`. */
export const clamp: InstantFunction = (vectors, ctx) =>
  clampVector(vectors[0], ctx, scalarArg(vectors, 1), scalarArg(vectors, 2));

/** `clamp_min(v, min)`. */
export const clampMin: InstantFunction = (vectors, ctx) => clampVector(vectors[0], ctx, scalarArg(vectors, 1), Infinity);

/** `clamp_max(v, max)`. */
export const clampMax: InstantFunction = (vectors, ctx) => clampVector(vectors[0], ctx, -Infinity, scalarArg(vectors, 1));

/** `round(v, to_nearest=1)`: rounds half up, via the inverse of `to_nearest` as Prometheus does. */
export const round: InstantFunction = (vectors, ctx) => {
  const toNearest = vectors.length >= 2 ? scalarArg(vectors, 1) : 1;
  const inverse = 1 / toNearest;
  return mapValues(vectors[0], ctx, (f) => Math.floor(f * inverse + 0.5) / inverse);
};

/** `scalar(v)`: the value of the only sample, else NaN. */
export const scalar: InstantFunction = (vectors, ctx) => {
  const v = vectors[0];
  return scalarResult(ctx.tMs, v.length === 1 ? v[0].f : NaN);
};

/** `vector(s)`: the scalar as a sample without labels. */
export const vector: InstantFunction = (vectors, ctx) => scalarResult(ctx.tMs, scalarArg(vectors, 0));

/** `pi()`. */
export const pi: InstantFunction = (_vectors, ctx) => scalarResult(ctx.tMs, Math.PI);

/** `min_of(a, b)`: the smaller scalar (NaN wins). */
export const minOf: InstantFunction = (vectors, ctx) => scalarResult(ctx.tMs, Math.min(scalarArg(vectors, 0), scalarArg(vectors, 1)));

/** `max_of(a, b)`: the larger scalar (NaN wins). */
export const maxOf: InstantFunction = (vectors, ctx) => scalarResult(ctx.tMs, Math.max(scalarArg(vectors, 0), scalarArg(vectors, 1)));

/**
 * `absent(v)`: one sample of value 1 when `v` is empty, labelled with the equality matchers of
 * `v` when it is a selector.
 */
export const absent: InstantFunction = (vectors, ctx) =>
  vectors[0].length > 0 ? [] : [sample(absentLabels(ctx.args[0]), ctx.tMs, 1, false)];

/**
 * `histogram_count`, `histogram_sum`, `histogram_avg`, `histogram_stddev`, `histogram_stdvar`
 * and `start_timestamp`: they read native histograms (or start timestamps), which our float-only
 * storage never holds, and ignore float samples as Prometheus does, so the result is empty.
 */
export const nativeHistogramOnly: InstantFunction = () => [];
