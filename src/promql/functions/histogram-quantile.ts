import { parseGoFloat, type Labels } from '../../model/index.js';
import type { Annotations } from '../annotations.js';
import type { Vector } from '../value.js';
import { sample, scalarArg, stringArg } from './args.js';
import { formatOpenMetricsFloat } from './go-format.js';
import { badBucketLabelWarning, forcedMonotonicityInfo, invalidQuantileWarning } from './messages.js';
import { bucketFraction, bucketQuantile, type Bucket } from './quantile.js';
import type { InstantFunction } from './types.js';

/**
 * `histogram_quantile`, `histogram_quantiles` and `histogram_fraction` over classic histograms:
 * float series with an `le` label, grouped into one histogram per label set without `le` (the
 * metric name stays in the group key and in the output, which drops it like every function
 * result; two histograms that differ only by name therefore collide when names are removed).
 * Native histograms never reach us (float-only storage), so the mixed classic/native checks of
 * Prometheus' `resetHistograms` have nothing to do.
 */

/** One classic histogram found in an instant vector: its labels without `le`, and its buckets. */
export interface BucketGroup {
  readonly metric: Labels;
  readonly buckets: Bucket[];
}

/**
 * Groups the `le` series of `v` into classic histograms, in order of first appearance. A sample
 * whose `le` is missing or not a float (Go's `strconv.ParseFloat`) is skipped with
 * `BadBucketLabelWarning`.
 */
export function groupClassicBuckets(v: Vector, annotations: Annotations): BucketGroup[] {
  const byKey = new Map<string, BucketGroup>();
  for (const s of v) {
    const le = s.metric.get('le');
    const upperBound = parseGoFloat(le);
    if (upperBound === undefined) {
      annotations.warn(badBucketLabelWarning(s.metric.metricName, le));
      continue;
    }
    const metric = s.metric.without('le');
    const key = metric.key();
    let g = byKey.get(key);
    if (g === undefined) {
      g = { metric, buckets: [] };
      byKey.set(key, g);
    }
    g.buckets.push({ upperBound, count: s.f });
  }
  return [...byKey.values()];
}

/** Warns when φ is outside [0, 1] (or NaN), as every `histogram_quantile` step does. */
export function checkQuantile(q: number, annotations: Annotations): void {
  if (Number.isNaN(q) || q < 0 || q > 1) annotations.warn(invalidQuantileWarning(q));
}

/** The quantile of one group, noting when its bucket counts had to be made monotonic. */
export function groupQuantile(q: number, g: BucketGroup, annotations: Annotations): number {
  const r = bucketQuantile(q, g.buckets);
  if (r.forcedMonotonic) annotations.info(forcedMonotonicityInfo(g.metric.metricName));
  return r.value;
}

/** `histogram_quantile(φ, v)`: the φ-quantile of every classic histogram in `v`. */
export const histogramQuantile: InstantFunction = (vectors, ctx) => {
  const q = scalarArg(vectors, 0);
  checkQuantile(q, ctx.annotations);
  const out: Vector = [];
  for (const g of groupClassicBuckets(vectors[1], ctx.annotations)) {
    out.push(sample(g.metric, ctx.tMs, groupQuantile(q, g, ctx.annotations), true));
  }
  return out;
};

/**
 * `histogram_quantiles(v, label, φ...)` (experimental): one output per histogram and φ, with
 * `label` set to φ in OpenMetrics float notation (`0.5`, `1.0`, `NaN`).
 */
export const histogramQuantiles: InstantFunction = (vectors, ctx) => {
  const label = stringArg(ctx.args[1]);
  const qs: number[] = [];
  for (let i = 2; i < vectors.length; i++) {
    const q = scalarArg(vectors, i);
    checkQuantile(q, ctx.annotations);
    qs.push(q);
  }
  const groups = groupClassicBuckets(vectors[0], ctx.annotations);
  const out: Vector = [];
  for (const q of qs) {
    const qText = formatOpenMetricsFloat(q);
    for (const g of groups) {
      out.push(sample(g.metric.with(label, qText), ctx.tMs, groupQuantile(q, g, ctx.annotations), true));
    }
  }
  return out;
};

/** `histogram_fraction(lower, upper, v)`: the fraction of observations between the bounds. */
export const histogramFraction: InstantFunction = (vectors, ctx) => {
  if (vectors[0].length === 0 || vectors[1].length === 0) return [];
  const lower = scalarArg(vectors, 0);
  const upper = scalarArg(vectors, 1);
  const out: Vector = [];
  for (const g of groupClassicBuckets(vectors[2], ctx.annotations)) {
    out.push(sample(g.metric, ctx.tMs, bucketFraction(lower, upper, g.buckets), true));
  }
  return out;
};
