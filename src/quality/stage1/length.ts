/**
 * Length anomalies: an answer's token count against the recent answers of the same model, as a
 * robust (median and MAD) z-score over a bounded ring per model, so that one huge answer does not
 * move the baseline it is judged against, and memory stays bounded however many models come.
 */

/** How the length baseline is kept and judged. */
export interface LengthTrackerOptions {
  /** Answers kept per model (default 256). */
  readonly window?: number;
  /** Answers needed before anything is flagged (default 30). */
  readonly minSamples?: number;
  /** |z| above this is an anomaly (default 3.5, Iglewicz and Hoaglin's cut-off for the modified z-score). */
  readonly threshold?: number;
  /** Models tracked at most; the least recently seen is forgotten beyond (default 1,000). */
  readonly maxModels?: number;
}

/** The verdict on one answer's length. */
export interface LengthVerdict {
  /** The modified z-score, 0.6745 (x − median) / MAD; null while the baseline is too small. */
  readonly z: number | null;
  readonly median: number | null;
  readonly anomaly: boolean;
}

class Ring {
  readonly values: Float64Array;
  size = 0;
  next = 0;
  /** The baseline's median and MAD as last computed, and how many answers ago. */
  median = 0;
  mad = 1;
  age = Number.POSITIVE_INFINITY;
  constructor(capacity: number) {
    this.values = new Float64Array(capacity);
  }
  push(v: number): void {
    this.values[this.next] = v;
    this.next = (this.next + 1) % this.values.length;
    if (this.size < this.values.length) this.size++;
  }
}

/** How many answers a computed baseline serves before it is computed again. */
const RECOMPUTE_EVERY = 16;

/** The median of the first `n` values of `a`, sorting `a` in place. */
function median(a: Float64Array, n: number): number {
  const s = a.subarray(0, n).sort();
  return n % 2 === 1 ? s[(n - 1) >> 1] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/**
 * The running length distributions, one bounded ring per model. `observe` judges a length
 * against the ring (before adding it), then adds it. Not safe for concurrent use across threads
 * (none in Node); one tracker per pipeline.
 */
export class LengthTracker {
  private readonly rings = new Map<string, Ring>();
  private readonly scratch: Float64Array;
  private readonly window: number;
  private readonly minSamples: number;
  private readonly threshold: number;
  private readonly maxModels: number;

  constructor(o: LengthTrackerOptions = {}) {
    this.window = Math.max(8, o.window ?? 256);
    this.minSamples = Math.min(this.window, Math.max(3, o.minSamples ?? 30));
    this.threshold = o.threshold ?? 3.5;
    this.maxModels = Math.max(1, o.maxModels ?? 1000);
    this.scratch = new Float64Array(this.window);
  }

  /** Judges `tokens` for `model`, then adds it to the model's ring. */
  observe(model: string, tokens: number): LengthVerdict {
    let ring = this.rings.get(model);
    if (ring === undefined) {
      if (this.rings.size >= this.maxModels) this.rings.delete(this.rings.keys().next().value as string);
      ring = new Ring(this.window);
    } else this.rings.delete(model); // re-inserted below: Map order is recency
    this.rings.set(model, ring);
    const verdict = this.judge(ring, tokens);
    ring.push(tokens);
    return verdict;
  }

  private judge(ring: Ring, x: number): LengthVerdict {
    const n = ring.size;
    if (n < this.minSamples) return { z: null, median: null, anomaly: false };
    // The baseline moves slowly: it is recomputed (two sorts of the window) every
    // `RECOMPUTE_EVERY` answers, not for each one.
    if (ring.age >= RECOMPUTE_EVERY) {
      const s = this.scratch;
      s.set(ring.values.subarray(0, n));
      ring.median = median(s, n);
      for (let i = 0; i < n; i++) s[i] = Math.abs(ring.values[i] - ring.median);
      // A floor of one token: a model that always answers the same length must not flag a
      // one-token difference as infinitely unusual.
      ring.mad = Math.max(1, median(s, n));
      ring.age = 0;
    }
    ring.age++;
    const med = ring.median;
    const z = (0.6745 * (x - med)) / ring.mad;
    return { z, median: med, anomaly: Math.abs(z) > this.threshold };
  }
}
