import type { Sample } from './sample.js';
import type { UnixMs } from './time.js';

/**
 * A forward-only cursor over the samples of one series, in strictly increasing timestamp order.
 *
 * Contract:
 * - A new iterator is positioned before the first sample; call `next()` or `seek()` first.
 * - `next()` advances by one sample and returns false once the series is exhausted; after that
 *   every call returns false.
 * - `seek(tMs)` advances to the first sample with timestamp >= `tMs` and returns whether one
 *   exists. It never moves backwards: when the current sample already satisfies the bound it
 *   stays put (so `seek` right after a successful `seek` with a smaller bound is a no-op).
 * - `at()` returns the current sample. The returned object is owned by the iterator and is
 *   overwritten by the next `next`/`seek`: copy the fields if you need them later. Calling
 *   `at()` when not positioned on a sample is a programming error with an unspecified result.
 * - Iterators allocate nothing per sample. They are not safe for concurrent use (there is no
 *   concurrency inside one Node isolate, but do not interleave two consumers on one iterator).
 * - Stale markers are returned as ordinary samples whose value is `STALE_NAN` (bit-exact).
 * - `err()` returns the error that ended iteration early (a corrupt chunk, say), or null.
 */
export interface SeriesIterator {
  next(): boolean;
  seek(tMs: UnixMs): boolean;
  at(): Readonly<Sample>;
  err(): Error | null;
}

/** An iterator over nothing. */
export const EMPTY_ITERATOR: SeriesIterator = {
  next: () => false,
  seek: () => false,
  at: () => ({ tMs: 0, value: 0 }),
  err: () => null,
};

/**
 * A `SeriesIterator` over parallel arrays of timestamps and values (tests and small results).
 * Pass values as a Float64Array: a plain `number[]` loses the stale marker's bits.
 */
export class ArraySeriesIterator implements SeriesIterator {
  private index = -1;
  private readonly current: Sample = { tMs: 0, value: 0 };

  constructor(
    private readonly timestampsMs: ArrayLike<UnixMs>,
    private readonly values: ArrayLike<number>,
    private readonly length = timestampsMs.length,
  ) {}

  next(): boolean {
    if (this.index >= this.length) return false;
    this.index++;
    return this.load();
  }

  seek(tMs: UnixMs): boolean {
    if (this.index < 0) this.index = 0;
    if (this.index >= this.length) return false;
    // Binary search forward from the current position; never move backwards.
    let lo = this.index;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.timestampsMs[mid] < tMs) lo = mid + 1;
      else hi = mid;
    }
    this.index = lo;
    return this.load();
  }

  at(): Readonly<Sample> {
    return this.current;
  }

  err(): Error | null {
    return null;
  }

  private load(): boolean {
    if (this.index >= this.length) return false;
    this.current.tMs = this.timestampsMs[this.index];
    this.current.value = this.values[this.index];
    return true;
  }
}

/** Drains an iterator into arrays (tests, small results, debugging). Allocates; not for hot paths. */
export function collectSamples(it: SeriesIterator): Sample[] {
  const out: Sample[] = [];
  while (it.next()) {
    const s = it.at();
    out.push({ tMs: s.tMs, value: s.value });
  }
  const err = it.err();
  if (err) throw err;
  return out;
}
