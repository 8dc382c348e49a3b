/**
 * Public surface of `src/promql/functions`: the PromQL function library of Prometheus v3.14 for
 * float samples, registered by name in `FUNCTION_IMPLS`, plus the helpers the evaluator shares.
 */
import { changes, resets } from './counters.js';
import { histogramFraction, histogramQuantile, histogramQuantiles } from './histogram-quantile.js';
import { labelJoin, labelReplace } from './labels.js';
import {
  absent,
  clamp,
  clampMax,
  clampMin,
  elementWise,
  maxOf,
  minOf,
  nativeHistogramOnly,
  pi,
  round,
  scalar,
  SIMPLE_MATH,
  vector,
} from './math.js';
import {
  absentOverTime,
  avgOverTime,
  countOverTime,
  firstOverTime,
  lastOverTime,
  madOverTime,
  maxOverTime,
  minOverTime,
  presentOverTime,
  quantileOverTime,
  stddevOverTime,
  stdvarOverTime,
  sumOverTime,
  tsOfFirstOverTime,
  tsOfLastOverTime,
  tsOfMaxOverTime,
  tsOfMinOverTime,
} from './over-time.js';
import { delta, idelta, increase, irate, rate } from './rate.js';
import { deriv, doubleExponentialSmoothing, predictLinear } from './regression.js';
import { sort, sortByLabel, sortByLabelDesc, sortDesc } from './sort.js';
import { DATE_FUNCTIONS, end, range, start, step, time, timestamp } from './time.js';
import type { FunctionImpl, InstantFunction, RangeFunction } from './types.js';

// The contract, and the helpers the evaluator shares (each documented where it is defined).
export type { FunctionContext, FunctionImpl, InstantFunction, RangeFunction } from './types.js';
export { absentLabels, isValidLabelName, stringArg, unwrapArg } from './args.js';
export { formatOpenMetricsFloat } from './go-format.js';
export { DUPLICATE_LABELSET_ERROR, SORT_IN_RANGE_QUERY_WARNING, badBucketLabelWarning, invalidQuantileWarning, possibleNonCounterInfo } from './messages.js';
export { checkQuantile, groupQuantile, type BucketGroup } from './histogram-quantile.js';
export { bucketFraction, bucketQuantile, quantileOf, type Bucket, type BucketQuantileResult } from './quantile.js';
export { naturalLess } from './sort.js';

function instant(call: InstantFunction): FunctionImpl {
  return { kind: 'instant', call };
}

function ranged(call: RangeFunction, dropsName = true): FunctionImpl {
  return { kind: 'range', call, dropsName };
}

const entries: [string, FunctionImpl][] = [
  // Range vectors: rates and counters.
  ['rate', ranged(rate)],
  ['increase', ranged(increase)],
  ['delta', ranged(delta)],
  ['irate', ranged(irate)],
  ['idelta', ranged(idelta)],
  ['changes', ranged(changes)],
  ['resets', ranged(resets)],
  ['deriv', ranged(deriv)],
  ['predict_linear', ranged(predictLinear)],
  ['double_exponential_smoothing', ranged(doubleExponentialSmoothing)],
  // Range vectors: the *_over_time family. last/first_over_time act like offset: keep the name.
  ['avg_over_time', ranged(avgOverTime)],
  ['sum_over_time', ranged(sumOverTime)],
  ['count_over_time', ranged(countOverTime)],
  ['min_over_time', ranged(minOverTime)],
  ['max_over_time', ranged(maxOverTime)],
  ['stddev_over_time', ranged(stddevOverTime)],
  ['stdvar_over_time', ranged(stdvarOverTime)],
  ['quantile_over_time', ranged(quantileOverTime)],
  ['mad_over_time', ranged(madOverTime)],
  ['last_over_time', ranged(lastOverTime, false)],
  ['first_over_time', ranged(firstOverTime, false)],
  ['ts_of_last_over_time', ranged(tsOfLastOverTime)],
  ['ts_of_first_over_time', ranged(tsOfFirstOverTime)],
  ['ts_of_max_over_time', ranged(tsOfMaxOverTime)],
  ['ts_of_min_over_time', ranged(tsOfMinOverTime)],
  ['present_over_time', ranged(presentOverTime)],
  ['absent_over_time', ranged(absentOverTime)],
  // Instant vectors.
  ...[...SIMPLE_MATH].map(([name, fn]): [string, FunctionImpl] => [name, instant(elementWise(fn))]),
  ['clamp', instant(clamp)],
  ['clamp_min', instant(clampMin)],
  ['clamp_max', instant(clampMax)],
  ['round', instant(round)],
  ['absent', instant(absent)],
  ['scalar', instant(scalar)],
  ['vector', instant(vector)],
  ['pi', instant(pi)],
  ['min_of', instant(minOf)],
  ['max_of', instant(maxOf)],
  ['time', instant(time)],
  ['timestamp', instant(timestamp)],
  ['start', instant(start)],
  ['end', instant(end)],
  ['range', instant(range)],
  ['step', instant(step)],
  ...[...DATE_FUNCTIONS].map(([name, fn]): [string, FunctionImpl] => [name, instant(fn)]),
  ['label_replace', instant(labelReplace)],
  ['label_join', instant(labelJoin)],
  ['sort', instant(sort)],
  ['sort_desc', instant(sortDesc)],
  ['sort_by_label', instant(sortByLabel)],
  ['sort_by_label_desc', instant(sortByLabelDesc)],
  ['histogram_quantile', instant(histogramQuantile)],
  ['histogram_quantiles', instant(histogramQuantiles)],
  ['histogram_fraction', instant(histogramFraction)],
  ['histogram_count', instant(nativeHistogramOnly)],
  ['histogram_sum', instant(nativeHistogramOnly)],
  ['histogram_avg', instant(nativeHistogramOnly)],
  ['histogram_stddev', instant(nativeHistogramOnly)],
  ['histogram_stdvar', instant(nativeHistogramOnly)],
  ['start_timestamp', instant(nativeHistogramOnly)],
];

/**
 * Every PromQL function of Prometheus v3.14 except `info` (the evaluator's: it reads storage),
 * by name. Range functions say whether their output drops the metric name; instant functions set
 * `dropName` on each output sample. See README.md for the calling conventions.
 */
export const FUNCTION_IMPLS: ReadonlyMap<string, FunctionImpl> = new Map(entries);
