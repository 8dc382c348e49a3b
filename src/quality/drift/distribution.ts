/**
 * Distances between two binned distributions (a recent window against a baseline window): the
 * population stability index (PSI) over the bins and the two-sample Kolmogorov–Smirnov statistic
 * over the bins' cumulative distribution. Both take counts per bin (not cumulative), the same bins
 * on both sides, in order. Pure.
 */

/** Counts per bin, in bin order (histogram buckets by upper bound; categories in a fixed order). */
export interface Bins {
  /** The bins' upper bounds (histograms) or indexes (categories), for summaries. */
  readonly upper: readonly number[];
  readonly counts: readonly number[];
}

/** The total of a bins' counts. */
export function total(b: Bins): number {
  let n = 0;
  for (const c of b.counts) n += c;
  return n;
}

/**
 * Bins from Prometheus' cumulative histogram buckets (`le` → count, `+Inf` included): sorted by
 * bound, differenced, a negative difference (a counter reset inside a window) clamped to 0.
 */
export function binsFromBuckets(buckets: ReadonlyMap<number, number>): Bins {
  const upper = [...buckets.keys()].filter((le) => !Number.isNaN(le)).sort((a, b) => a - b);
  const counts: number[] = [];
  let prev = 0;
  for (const le of upper) {
    const c = buckets.get(le) ?? 0;
    counts.push(Math.max(0, Number.isFinite(c) ? c - prev : 0));
    if (Number.isFinite(c)) prev = Math.max(prev, c);
  }
  return { upper, counts };
}

/**
 * The two sides restricted to the bounds both have (a bucket layout that changed between the
 * windows leaves only the common bounds, which a cumulative histogram allows: counts of merged
 * bins are sums). Returns null when fewer than two bins are common.
 */
export function alignBins(a: Bins, b: Bins): [Bins, Bins] | null {
  const inB = new Set(b.upper);
  const common = a.upper.filter((u) => inB.has(u));
  if (common.length < 2) return null;
  const merge = (x: Bins): Bins => {
    const counts: number[] = [];
    let acc = 0;
    let j = 0;
    for (let i = 0; i < x.upper.length; i++) {
      acc += x.counts[i] ?? 0;
      if (x.upper[i] === common[j]) {
        counts.push(acc);
        acc = 0;
        j++;
      }
    }
    if (acc > 0 && counts.length > 0) counts[counts.length - 1] = (counts[counts.length - 1] ?? 0) + acc;
    return { upper: common, counts };
  };
  return [merge(a), merge(b)];
}

/**
 * PSI = Σ (pᵢ − qᵢ) · ln(pᵢ / qᵢ) over the bins, p the recent shares and q the baseline's. A bin
 * empty on one side gets `smoothing` counts on both (0.5 by default), so the index stays finite;
 * bins empty on both sides add nothing. Conventions: < 0.1 no change, 0.1–0.25 a moderate
 * change, > 0.25 a major one. Returns NaN when a side has no counts.
 */
export function psi(recent: Bins, baseline: Bins, smoothing = 0.5): number {
  if (!(total(recent) > 0 && total(baseline) > 0)) return Number.NaN;
  const k = Math.min(recent.counts.length, baseline.counts.length);
  let n = 0;
  let m = 0;
  const used: [number, number][] = [];
  for (let i = 0; i < k; i++) {
    let r = recent.counts[i] ?? 0;
    let b = baseline.counts[i] ?? 0;
    if (r <= 0 && b <= 0) continue;
    if (r <= 0 || b <= 0) {
      r += smoothing;
      b += smoothing;
    }
    used.push([r, b]);
    n += r;
    m += b;
  }
  let out = 0;
  for (const [r, b] of used) {
    const p = r / n;
    const q = b / m;
    out += (p - q) * Math.log(p / q);
  }
  return out;
}

/** The two-sample KS statistic on binned data: the largest gap between the two cumulative shares at the bins' bounds. NaN when a side is empty. */
export function ksStatistic(recent: Bins, baseline: Bins): number {
  const n = total(recent);
  const m = total(baseline);
  if (n <= 0 || m <= 0) return Number.NaN;
  const k = Math.min(recent.counts.length, baseline.counts.length);
  let fr = 0;
  let fb = 0;
  let d = 0;
  for (let i = 0; i < k; i++) {
    fr += recent.counts[i] ?? 0;
    fb += baseline.counts[i] ?? 0;
    d = Math.max(d, Math.abs(fr / n - fb / m));
  }
  return d;
}

/**
 * The KS critical value at level `alpha` for sample sizes `n` and `m` (the asymptotic
 * c(α) · √((n + m) / (n · m)), c(α) = √(−ln(α / 2) / 2): 1.358 at 0.05, 1.628 at 0.01). Binning
 * only lowers the statistic, so the test on bins is conservative.
 */
export function ksCritical(alpha: number, n: number, m: number): number {
  if (!(n > 0 && m > 0) || !(alpha > 0 && alpha < 1)) return Number.NaN;
  return Math.sqrt(-Math.log(alpha / 2) / 2) * Math.sqrt((n + m) / (n * m));
}

/** The mean of a histogram's bins, each bin counted at its upper bound (the last finite bound for `+Inf`), for summaries in words. */
export function binnedMean(b: Bins): number {
  const n = total(b);
  if (n <= 0) return Number.NaN;
  let lastFinite = 0;
  let s = 0;
  for (let i = 0; i < b.counts.length; i++) {
    const u = b.upper[i] ?? 0;
    if (Number.isFinite(u)) lastFinite = u;
    s += (b.counts[i] ?? 0) * (Number.isFinite(u) ? u : lastFinite);
  }
  return s / n;
}
