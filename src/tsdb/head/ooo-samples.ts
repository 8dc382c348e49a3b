import type { UnixMs } from '../../model/index.js';

/**
 * A series' out-of-order samples: those the out-of-order window accepted behind the series'
 * newest sample. Kept sorted by time in typed arrays (bit-exact values) until the block that
 * covers them is cut; there are few of them, so inserts shift in place.
 */
export class OooSamples {
  tsMs = new Float64Array(8);
  values = new Float64Array(8);
  length = 0;

  /** The index of the sample at `tMs`, or -1. */
  indexOf(tMs: UnixMs): number {
    const i = this.lowerBound(tMs);
    return i < this.length && this.tsMs[i] === tMs ? i : -1;
  }

  /** Inserts a sample; returns false (and changes nothing) when one exists at `tMs`. */
  insert(tMs: UnixMs, value: number): boolean {
    const i = this.lowerBound(tMs);
    if (i < this.length && this.tsMs[i] === tMs) return false;
    if (this.length === this.tsMs.length) {
      const ts = new Float64Array(this.length * 2);
      ts.set(this.tsMs);
      this.tsMs = ts;
      const vs = new Float64Array(this.length * 2);
      vs.set(this.values);
      this.values = vs;
    }
    this.tsMs.copyWithin(i + 1, i, this.length);
    this.values.copyWithin(i + 1, i, this.length);
    this.tsMs[i] = tMs;
    this.values[i] = value;
    this.length++;
    return true;
  }

  /** Drops samples before `minTMs`; returns how many. */
  dropBefore(minTMs: UnixMs): number {
    const k = this.lowerBound(minTMs);
    if (k === 0) return 0;
    this.tsMs.copyWithin(0, k, this.length);
    this.values.copyWithin(0, k, this.length);
    this.length -= k;
    return k;
  }

  /** Copies of the samples in `[minTMs, maxTMs]`, or null when there are none. */
  slice(minTMs: UnixMs, maxTMs: UnixMs): { tsMs: Float64Array; values: Float64Array } | null {
    const from = this.lowerBound(minTMs);
    let to = this.lowerBound(maxTMs);
    if (to < this.length && this.tsMs[to] === maxTMs) to++;
    return to > from ? { tsMs: this.tsMs.slice(from, to), values: this.values.slice(from, to) } : null;
  }

  private lowerBound(tMs: UnixMs): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.tsMs[mid] < tMs) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
