/**
 * Quantiles, as Prometheus' `promql/quantile.go`: the φ-quantile of a set of values
 * (`quantile_over_time`, `mad_over_time`, and the `quantile` aggregation) and the quantile and
 * fraction of a classic histogram's `le` buckets (`BucketQuantile`, `BucketFraction`).
 */

/** Relative difference below which neighbouring bucket counts are taken as equal. */
const SMALL_DELTA_TOLERANCE = 1e-12;
const MIN_NORMAL = 2.2250738585072014e-308;

// Scratch space for sorting window values; grows, never shrinks.
let scratch = new Float64Array(64);

/** The scratch buffer, at least `n` long. Its contents belong to the last caller. */
function scratchOf(n: number): Float64Array {
  if (scratch.length < n) scratch = new Float64Array(Math.max(n, scratch.length * 2));
  return scratch;
}

/** Sorts `a[0..n)` ascending in place (heapsort; no allocation). NaN must not be present. */
function sortPrefix(a: Float64Array, n: number): void {
  if (n < 17) {
    for (let i = 1; i < n; i++) {
      const x = a[i];
      let j = i - 1;
      while (j >= 0 && a[j] > x) {
        a[j + 1] = a[j];
        j--;
      }
      a[j + 1] = x;
    }
    return;
  }
  for (let i = (n >> 1) - 1; i >= 0; i--) siftDown(a, i, n);
  for (let end = n - 1; end > 0; end--) {
    const x = a[0];
    a[0] = a[end];
    a[end] = x;
    siftDown(a, 0, end);
  }
}

function siftDown(a: Float64Array, i: number, n: number): void {
  for (;;) {
    let c = 2 * i + 1;
    if (c >= n) return;
    if (c + 1 < n && a[c + 1] > a[c]) c++;
    if (!(a[c] > a[i])) return;
    const x = a[i];
    a[i] = a[c];
    a[c] = x;
    i = c;
  }
}

/**
 * The φ-quantile of `n` values sorted ascending in `sorted`, preceded (logically) by `nans` NaN
 * values, as Go sorts NaN first: linear interpolation between the two nearest ranks.
 */
function sortedQuantile(q: number, sorted: Float64Array, nans: number, n: number): number {
  const total = nans + n;
  const rank = q * (total - 1);
  const lower = Math.max(0, Math.floor(rank));
  const upper = Math.min(total - 1, lower + 1);
  const weight = rank - Math.floor(rank);
  const lv = lower < nans ? NaN : sorted[lower - nans];
  const uv = upper < nans ? NaN : sorted[upper - nans];
  return lv * (1 - weight) + uv * weight;
}

/**
 * Prometheus' `quantile(q, values)` over `values[lo..hi)`: NaN for no values or a NaN φ, -Inf
 * below 0, +Inf above 1, else the interpolated φ-quantile (NaN values sort first). Allocates
 * nothing per call.
 */
export function quantileOf(q: number, values: ArrayLike<number>, lo: number, hi: number): number {
  const total = hi - lo;
  if (total <= 0 || Number.isNaN(q)) return NaN;
  if (q < 0) return -Infinity;
  if (q > 1) return Infinity;
  const buf = scratchOf(total);
  let n = 0;
  for (let i = lo; i < hi; i++) {
    const v = values[i];
    if (!Number.isNaN(v)) buf[n++] = v;
  }
  sortPrefix(buf, n);
  return sortedQuantile(q, buf, total - n, n);
}

/**
 * `mad_over_time`'s median absolute deviation of `values[lo..hi)`: NaN as soon as one value is
 * NaN (the median is then undefined), NaN for no values.
 */
export function medianAbsoluteDeviation(values: ArrayLike<number>, lo: number, hi: number): number {
  const n = hi - lo;
  if (n <= 0) return NaN;
  const buf = scratchOf(n);
  for (let i = 0; i < n; i++) {
    const v = values[lo + i];
    if (Number.isNaN(v)) return NaN;
    buf[i] = v;
  }
  sortPrefix(buf, n);
  const median = sortedQuantile(0.5, buf, 0, n);
  for (let i = 0; i < n; i++) buf[i] = Math.abs(buf[i] - median);
  sortPrefix(buf, n);
  return sortedQuantile(0.5, buf, 0, n);
}

/** One bucket of a classic histogram: its `le` and its cumulative count. */
export interface Bucket {
  upperBound: number;
  count: number;
}

/** What `bucketQuantile` found besides the quantile: whether and where counts had to be raised. */
export interface BucketQuantileResult {
  readonly value: number;
  /** Some bucket's count was below a lower bucket's and was raised to it. */
  readonly forcedMonotonic: boolean;
  /** Lowest and highest `le` whose count was raised, and the largest raise. */
  readonly minBucket: number;
  readonly maxBucket: number;
  readonly maxDiff: number;
}

/** A sorted copy of `input` in which buckets with the same upper bound are merged. */
function sortAndCoalesce(input: readonly Bucket[]): Bucket[] {
  const sorted = [...input].sort((a, b) => (a.upperBound < b.upperBound ? -1 : a.upperBound > b.upperBound ? 1 : 0));
  const out: Bucket[] = [];
  for (const b of sorted) {
    const last = out.length > 0 ? out[out.length - 1] : undefined;
    if (last !== undefined && last.upperBound === b.upperBound) last.count += b.count;
    else out.push({ upperBound: b.upperBound, count: b.count });
  }
  return out;
}

/** Go's `almost.Equal`: equal, both NaN, or within `epsilon` relative difference. */
function almostEqual(a: number, b: number, epsilon: number): boolean {
  if (Number.isNaN(a) && Number.isNaN(b)) return true;
  if (a === b) return true;
  const absSum = Math.abs(a) + Math.abs(b);
  const diff = Math.abs(a - b);
  if (a === 0 || b === 0 || absSum < MIN_NORMAL) return diff < epsilon * MIN_NORMAL;
  return diff / Math.min(absSum, Number.MAX_VALUE) < epsilon;
}

/**
 * `BucketQuantile`: the φ-quantile of classic histogram buckets (any order; equal bounds are
 * merged), interpolated linearly within the bucket it falls into, with 0 as the lower bound of
 * a first bucket above 0. NaN when the highest bucket is not +Inf, when there are fewer than two
 * buckets or no observations; the upper bound of the second-highest bucket when the quantile
 * falls into the +Inf bucket. Counts that decrease are first raised to the running maximum
 * (differences below 1e-12 relative are ignored silently), which the result reports.
 */
export function bucketQuantile(q: number, input: readonly Bucket[]): BucketQuantileResult {
  const none = { forcedMonotonic: false, minBucket: 0, maxBucket: 0, maxDiff: 0 };
  if (Number.isNaN(q)) return { value: NaN, ...none };
  if (q < 0) return { value: -Infinity, ...none };
  if (q > 1) return { value: Infinity, ...none };
  if (input.length === 0) return { value: NaN, ...none };
  const buckets = sortAndCoalesce(input);
  if (buckets[buckets.length - 1].upperBound !== Infinity) return { value: NaN, ...none };

  // ensureMonotonicAndIgnoreSmallDeltas
  let forcedMonotonic = false;
  let minBucket = Infinity;
  let maxBucket = -Infinity;
  let maxDiff = 0;
  let prev = buckets[0].count;
  for (let i = 1; i < buckets.length; i++) {
    const cur = buckets[i].count;
    if (cur === prev) continue;
    if (almostEqual(prev, cur, SMALL_DELTA_TOLERANCE)) {
      buckets[i].count = prev;
      continue;
    }
    if (cur < prev) {
      buckets[i].count = prev;
      forcedMonotonic = true;
      minBucket = Math.min(minBucket, buckets[i].upperBound);
      maxBucket = Math.max(maxBucket, buckets[i].upperBound);
      maxDiff = Math.max(maxDiff, prev - cur);
      continue;
    }
    prev = cur;
  }
  const fix = { forcedMonotonic, minBucket, maxBucket, maxDiff };

  const n = buckets.length;
  if (n < 2) return { value: NaN, ...fix };
  const observations = buckets[n - 1].count;
  if (observations === 0) return { value: NaN, ...fix };
  let rank = q * observations;
  // Go's sort.Search over all but the +Inf bucket (a binary search, which matters for NaN counts).
  let b = 0;
  let j = n - 1;
  while (b < j) {
    const h = (b + j) >>> 1;
    if (!(buckets[h].count >= rank)) b = h + 1;
    else j = h;
  }
  if (b === n - 1) return { value: buckets[n - 2].upperBound, ...fix };
  if (b === 0 && buckets[0].upperBound <= 0) return { value: buckets[0].upperBound, ...fix };
  let start = 0;
  const end = buckets[b].upperBound;
  let count = buckets[b].count;
  if (b > 0) {
    start = buckets[b - 1].upperBound;
    count -= buckets[b - 1].count;
    rank -= buckets[b - 1].count;
  }
  return { value: start + (end - start) * (rank / count), ...fix };
}

/**
 * `BucketFraction`: the fraction of a classic histogram's observations between `lower` and
 * `upper`, interpolating linearly inside buckets (not inside the first bucket when it reaches
 * down to -Inf, nor the +Inf bucket). The first bucket starts at 0 when its `le` is positive.
 * NaN without a +Inf bucket, without observations, or for a NaN bound; 0 when lower ≥ upper.
 */
export function bucketFraction(lower: number, upper: number, input: readonly Bucket[]): number {
  if (input.length === 0) return NaN;
  const buckets = sortAndCoalesce(input);
  if (buckets[buckets.length - 1].upperBound !== Infinity) return NaN;
  const count = buckets[buckets.length - 1].count;
  if (count === 0 || Number.isNaN(lower) || Number.isNaN(upper)) return NaN;
  if (lower >= upper) return 0;

  let rank = 0;
  let lowerRank = 0;
  let upperRank = 0;
  let lowerSet = false;
  let upperSet = false;
  let lowerBound = buckets[0].upperBound <= 0 ? -Infinity : 0;
  for (let i = 0; i < buckets.length; i++) {
    const b = buckets[i];
    if (i > 0) lowerBound = buckets[i - 1].upperBound;
    const upperBound = b.upperBound;
    const interpolate = (v: number): number =>
      lowerBound === -Infinity ? b.count : rank + ((b.count - rank) * (v - lowerBound)) / (upperBound - lowerBound);
    if (!lowerSet && lowerBound >= lower) {
      lowerRank = rank;
      lowerSet = true;
    }
    if (!upperSet && lowerBound >= upper) {
      upperRank = rank;
      upperSet = true;
    }
    if (lowerSet && upperSet) break;
    if (!lowerSet && lowerBound < lower && upperBound > lower) {
      lowerRank = interpolate(lower);
      lowerSet = true;
    }
    if (!upperSet && lowerBound < upper && upperBound > upper) {
      upperRank = interpolate(upper);
      upperSet = true;
    }
    if (lowerSet && upperSet) break;
    rank = b.count;
  }
  if (!lowerSet || lowerRank > count) lowerRank = count;
  if (!upperSet || upperRank > count) upperRank = count;
  return (upperRank - lowerRank) / count;
}
