import type { Annotations } from '../annotations.js';
import type { Labels } from '../../model/index.js';
import type { RangeWindow } from '../value.js';
import { extendedRate } from './extended-rate.js';
import { possibleNonCounterInfo } from './messages.js';
import type { FunctionContext, RangeFunction } from './types.js';

/**
 * `rate`, `increase`, `delta`, `irate` and `idelta` over float samples, as Prometheus'
 * `extrapolatedRate` and `instantValue` (without start timestamps, which our storage lacks).
 */

/**
 * The increase (`isCounter`: with counter resets corrected) or change of a series over the
 * window, extrapolated towards the range boundaries: all the way when the first/last point lies
 * within 1.1 average sample intervals of the boundary, else by half an interval; a counter is
 * never extrapolated below zero. Divided by the range in seconds for `isRate`. Needs two points.
 */
export function extrapolatedRate(w: RangeWindow, ctx: FunctionContext, isCounter: boolean, isRate: boolean): number | undefined {
  if (ctx.anchored || ctx.smoothed) return extendedRate(w, ctx, isCounter, isRate);
  const t = w.t;
  const f = w.f;
  const first = w.lo;
  const last = w.hi - 1;
  const numMinusOne = last - first;
  if (numMinusOne < 1) return undefined;

  let result = f[last] - f[first];
  if (isCounter) {
    for (let i = first + 1; i <= last; i++) if (f[i] < f[i - 1]) result += f[i - 1];
  }

  let durationToStart = (t[first] - ctx.rangeStartMs) / 1000;
  let durationToEnd = (ctx.rangeEndMs - t[last]) / 1000;
  const sampledInterval = (t[last] - t[first]) / 1000;
  const averageInterval = sampledInterval / numMinusOne;
  const threshold = averageInterval * 1.1;

  if (durationToStart >= threshold) durationToStart = averageInterval / 2;
  if (isCounter) {
    // A counter cannot go below zero: stop extrapolating at the point where it would reach it.
    let durationToZero = durationToStart;
    if (result > 0 && f[first] >= 0) durationToZero = sampledInterval * (f[first] / result);
    if (durationToZero < durationToStart) durationToStart = durationToZero;
  }
  if (durationToEnd >= threshold) durationToEnd = averageInterval / 2;

  let factor = sampledInterval !== 0 ? (sampledInterval + durationToStart + durationToEnd) / sampledInterval : 1;
  if (isRate) factor /= (ctx.rangeEndMs - ctx.rangeStartMs) / 1000;
  return result * factor;
}

// The series last checked, per query's annotations, so that the name test runs once per series,
// not once per step. Weak: queries end.
const checkedSeries = new WeakMap<Annotations, Labels>();

/**
 * Adds `PossibleNonCounterInfo` when the series' metric name is set and ends in none of
 * `_total`, `_sum`, `_count`, `_bucket`. Prometheus does this for `rate` and `increase` over
 * every series that produced a float result.
 */
export function checkCounterName(metric: Labels, annotations: Annotations): void {
  if (checkedSeries.get(annotations) === metric) return;
  checkedSeries.set(annotations, metric);
  const name = metric.metricName;
  if (name === '' || name.endsWith('_total') || name.endsWith('_sum') || name.endsWith('_count') || name.endsWith('_bucket')) {
    return;
  }
  annotations.info(possibleNonCounterInfo(name));
}

/** `rate(v[r])`: per-second increase of a counter. */
export const rate: RangeFunction = (w, _scalars, ctx) => {
  const v = extrapolatedRate(w, ctx, true, true);
  if (v !== undefined) checkCounterName(w.metric, ctx.annotations);
  return v;
};

/** `increase(v[r])`: increase of a counter over the range. */
export const increase: RangeFunction = (w, _scalars, ctx) => {
  const v = extrapolatedRate(w, ctx, true, false);
  if (v !== undefined) checkCounterName(w.metric, ctx.annotations);
  return v;
};

/** `delta(v[r])`: change of a gauge over the range. */
export const delta: RangeFunction = (w, _scalars, ctx) => extrapolatedRate(w, ctx, false, false);

/**
 * The last two points' change (`idelta`) or per-second counter rate (`irate`, where a drop
 * counts as a reset to zero). Needs two points with different timestamps.
 */
function instantValue(w: RangeWindow, isRate: boolean): number | undefined {
  const n = w.hi - w.lo;
  if (n < 2) return undefined;
  const i = w.hi - 1;
  const prev = w.f[i - 1];
  const cur = w.f[i];
  const interval = w.t[i] - w.t[i - 1];
  if (interval === 0) return undefined;
  // A counter reset leaves the result at the current value; NaN compares false and subtracts.
  let result = isRate && cur < prev ? cur : cur - prev;
  if (isRate) result /= interval / 1000;
  return result;
}

/** `irate(v[r])`: per-second rate from the last two points. */
export const irate: RangeFunction = (w) => instantValue(w, true);

/** `idelta(v[r])`: difference of the last two points. */
export const idelta: RangeFunction = (w) => instantValue(w, false);
