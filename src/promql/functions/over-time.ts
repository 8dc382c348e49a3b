import { kahanSumInc } from '../kahan.js';
import { medianAbsoluteDeviation, quantileOf } from './quantile.js';
import { invalidQuantileWarning } from './messages.js';
import type { RangeFunction } from './types.js';

/**
 * The `*_over_time` family over float samples, as Prometheus' `promql/functions.go`: each
 * aggregates the points `[lo, hi)` of a window and returns `undefined` for an empty window.
 */

// Kahan accumulators, reused: hot loops allocate nothing.
const acc = { sum: 0, c: 0 };
const acc2 = { sum: 0, c: 0 };

/** `sum_over_time`: Kahan–Neumaier sum (an infinite sum is returned without compensation). */
export const sumOverTime: RangeFunction = (w) => {
  if (w.hi <= w.lo) return undefined;
  const f = w.f;
  let sum = 0;
  let c = 0;
  for (let i = w.lo; i < w.hi; i++) {
    kahanSumInc(f[i], sum, c, acc);
    sum = acc.sum;
    c = acc.c;
  }
  return sum === Infinity || sum === -Infinity ? sum : sum + c;
};

/**
 * `avg_over_time`: the sum divided by the count (Kahan), switching to an incremental mean once
 * the running sum would overflow, as Prometheus does since 3.5.
 */
export const avgOverTime: RangeFunction = (w) => {
  if (w.hi <= w.lo) return undefined;
  const f = w.f;
  let sum = f[w.lo];
  let count = 1;
  let mean = 0;
  let kahanC = 0;
  let incremental = false;
  for (let i = w.lo + 1; i < w.hi; i++) {
    count = i - w.lo + 1;
    const v = f[i];
    if (!incremental) {
      kahanSumInc(v, sum, kahanC, acc);
      if (acc.sum !== Infinity && acc.sum !== -Infinity) {
        sum = acc.sum;
        kahanC = acc.c;
        continue;
      }
      incremental = true;
      mean = sum / (count - 1);
      kahanC /= count - 1;
    }
    const q = (count - 1) / count;
    kahanSumInc(v / count, q * mean, q * kahanC, acc);
    mean = acc.sum;
    kahanC = acc.c;
  }
  if (incremental) return mean + kahanC;
  return sum / count + kahanC / count;
};

/** `count_over_time`: the number of points. */
export const countOverTime: RangeFunction = (w) => (w.hi > w.lo ? w.hi - w.lo : undefined);

/** `present_over_time`: 1 when the window holds a point. */
export const presentOverTime: RangeFunction = (w) => (w.hi > w.lo ? 1 : undefined);

/**
 * `absent_over_time`: 1 when the window holds a point. The evaluator turns the per-series results
 * into the one output series (see the README); this is what Prometheus' function itself does.
 */
export const absentOverTime: RangeFunction = (w) => (w.hi > w.lo ? 1 : undefined);

/** `last_over_time`: the newest value (keeps the metric name). */
export const lastOverTime: RangeFunction = (w) => (w.hi > w.lo ? w.f[w.hi - 1] : undefined);

/** `first_over_time`: the oldest value (keeps the metric name). */
export const firstOverTime: RangeFunction = (w) => (w.hi > w.lo ? w.f[w.lo] : undefined);

/** `ts_of_last_over_time`: the newest point's timestamp in seconds. */
export const tsOfLastOverTime: RangeFunction = (w) => (w.hi > w.lo ? w.t[w.hi - 1] / 1000 : undefined);

/** `ts_of_first_over_time`: the oldest point's timestamp in seconds. */
export const tsOfFirstOverTime: RangeFunction = (w) => (w.hi > w.lo ? w.t[w.lo] / 1000 : undefined);

/** `max_over_time`: the largest value; NaN only when every value is NaN. */
export const maxOverTime: RangeFunction = (w) => {
  if (w.hi <= w.lo) return undefined;
  const f = w.f;
  let m = f[w.lo];
  for (let i = w.lo; i < w.hi; i++) if (f[i] > m || Number.isNaN(m)) m = f[i];
  return m;
};

/** `min_over_time`: the smallest value; NaN only when every value is NaN. */
export const minOverTime: RangeFunction = (w) => {
  if (w.hi <= w.lo) return undefined;
  const f = w.f;
  let m = f[w.lo];
  for (let i = w.lo; i < w.hi; i++) if (f[i] < m || Number.isNaN(m)) m = f[i];
  return m;
};

/** `ts_of_max_over_time`: the timestamp (s) of the last occurrence of the largest value. */
export const tsOfMaxOverTime: RangeFunction = (w) => {
  if (w.hi <= w.lo) return undefined;
  const f = w.f;
  let m = f[w.lo];
  let ts = w.t[w.lo];
  for (let i = w.lo; i < w.hi; i++) {
    if (f[i] >= m || Number.isNaN(m)) {
      m = f[i];
      ts = w.t[i];
    }
  }
  return ts / 1000;
};

/** `ts_of_min_over_time`: the timestamp (s) of the last occurrence of the smallest value. */
export const tsOfMinOverTime: RangeFunction = (w) => {
  if (w.hi <= w.lo) return undefined;
  const f = w.f;
  let m = f[w.lo];
  let ts = w.t[w.lo];
  for (let i = w.lo; i < w.hi; i++) {
    if (f[i] <= m || Number.isNaN(m)) {
      m = f[i];
      ts = w.t[i];
    }
  }
  return ts / 1000;
};

/** The population variance of `f[lo..hi)`: Welford's algorithm with Kahan-compensated sums. */
function variance(f: ArrayLike<number>, lo: number, hi: number): number {
  let count = 0;
  let mean = 0;
  let cMean = 0;
  let aux = 0;
  let cAux = 0;
  for (let i = lo; i < hi; i++) {
    const v = f[i];
    count++;
    const delta = v - (mean + cMean);
    kahanSumInc(delta / count, mean, cMean, acc);
    mean = acc.sum;
    cMean = acc.c;
    kahanSumInc(delta * (v - (mean + cMean)), aux, cAux, acc2);
    aux = acc2.sum;
    cAux = acc2.c;
  }
  return (aux + cAux) / count;
}

/** `stdvar_over_time`: population variance. */
export const stdvarOverTime: RangeFunction = (w) => (w.hi > w.lo ? variance(w.f, w.lo, w.hi) : undefined);

/** `stddev_over_time`: population standard deviation. */
export const stddevOverTime: RangeFunction = (w) => (w.hi > w.lo ? Math.sqrt(variance(w.f, w.lo, w.hi)) : undefined);

/**
 * `quantile_over_time(φ, v[r])`: the φ-quantile of the values (-Inf below 0, +Inf above 1,
 * NaN for NaN, each with `InvalidQuantileWarning`).
 */
export const quantileOverTime: RangeFunction = (w, scalars, ctx) => {
  if (w.hi <= w.lo) return undefined;
  const q = scalars[0];
  if (Number.isNaN(q) || q < 0 || q > 1) ctx.annotations.warn(invalidQuantileWarning(q));
  return quantileOf(q, w.f, w.lo, w.hi);
};

/** `mad_over_time`: median absolute deviation from the median (NaN if a value is NaN). */
export const madOverTime: RangeFunction = (w) => (w.hi > w.lo ? medianAbsoluteDeviation(w.f, w.lo, w.hi) : undefined);
