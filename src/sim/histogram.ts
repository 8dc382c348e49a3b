/**
 * A classic Prometheus histogram kept as plain numbers: per-bucket (non-cumulative) counts in a
 * `Float64Array`, a sum and a count. Renderers turn it into `_bucket{le}` / `_sum` / `_count`.
 * `observeN` records many equal observations at once: the simulator advances a whole batch of
 * identical decode steps in one go and records their inter-token latencies together.
 */
export class Histogram {
  /** Counts per bucket; the last slot is the `+Inf` bucket. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  /** Creates an empty histogram over ascending upper bounds (without `+Inf`). */
  constructor(readonly upper: readonly number[]) {
    this.counts = new Float64Array(upper.length + 1);
  }

  /** Records one observation. */
  observe(v: number): void {
    this.observeN(v, 1);
  }

  /** Records `n` observations of the value `v`. */
  observeN(v: number, n: number): void {
    if (n <= 0) return;
    let lo = 0;
    let hi = this.upper.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (v <= this.upper[mid]) hi = mid;
      else lo = mid + 1;
    }
    this.counts[lo] += n;
    this.sum += v * n;
    this.count += n;
  }

  /** The cumulative count of observations `<= upper[i]` (`i = upper.length` is `+Inf`). */
  cumulative(out: Float64Array): void {
    let acc = 0;
    for (let i = 0; i < this.counts.length; i++) {
      acc += this.counts[i];
      out[i] = acc;
    }
  }
}

/** vLLM's `build_1_2_5_buckets(max)`: 1, 2, 5, 10, 20, 50, ... up to and including `max`. */
export function buckets125(max: number): number[] {
  const out: number[] = [];
  for (let exp = 1; ; exp *= 10) {
    for (const m of [1, 2, 5]) {
      const v = m * exp;
      if (v > max) return out;
      out.push(v);
    }
  }
}

/** `count` buckets starting at `start`, each `factor` times the previous one. */
export function exponentialBuckets(start: number, factor: number, count: number): number[] {
  const out: number[] = [];
  for (let i = 0, v = start; i < count; i++, v *= factor) out.push(v);
  return out;
}
