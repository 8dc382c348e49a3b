import { formatGoFloatG, goQuote } from '../../model/index.js';

/**
 * The texts of the annotations and errors PromQL functions produce, worded exactly as Prometheus'
 * `util/annotations/annotations.go` and `promql/functions.go` word them. Our annotations carry no
 * position, so these are the texts Prometheus shows before it appends ` (line:col)`.
 */

const WARNING = 'PromQL warning';
const INFO = 'PromQL info';

function withMetricName(message: string, metricName: string): string {
  return metricName === '' ? message : `${message} for metric name ${goQuote(metricName)}`;
}

/** `InvalidQuantileWarning`: a quantile outside [0, 1] or NaN. */
export function invalidQuantileWarning(q: number): string {
  return `${WARNING}: quantile value should be between 0 and 1, got ${formatGoFloatG(q)}`;
}

/** `BadBucketLabelWarning`: an `le` label that is missing or does not parse as a float. */
export function badBucketLabelWarning(metricName: string, le: string): string {
  return withMetricName(`${WARNING}: bucket label "le" is missing or has a malformed value of ${goQuote(le)}`, metricName);
}

/**
 * `HistogramQuantileForcedMonotonicityInfo`. Prometheus merges repeated occurrences into one
 * annotation that also reports the bucket range, the largest fix and the time span once a query
 * text is attached; our de-duplicating `Annotations` keep the plain form.
 */
export function forcedMonotonicityInfo(metricName: string): string {
  return withMetricName(
    `${INFO}: input to histogram_quantile needed to be fixed for monotonicity (see https://prometheus.io/docs/prometheus/latest/querying/functions/#histogram_quantile)`,
    metricName,
  );
}

/** `PossibleNonCounterInfo`: `rate`/`increase` over a name without a counter suffix. */
export function possibleNonCounterInfo(metricName: string): string {
  return `${INFO}: metric might not be a counter, name does not end in _total/_sum/_count/_bucket: ${goQuote(metricName)}`;
}

/**
 * `SortInRangeQueryWarning`, which the evaluator adds when `sort`, `sort_desc`, `sort_by_label`
 * or `sort_by_label_desc` is evaluated over more than one step.
 */
export const SORT_IN_RANGE_QUERY_WARNING = `${WARNING}: sort is ineffective for range queries since results are always ordered by labels`;

/** The error of a function whose output (or `label_replace`'s) holds one label set twice. */
export const DUPLICATE_LABELSET_ERROR = 'vector cannot contain metrics with the same labelset';
