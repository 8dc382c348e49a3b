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
 * - `nextBatch` is optional: an iterator that can decode many samples at once more cheaply than
 *   one `next()` + `at()` per sample implements it. Callers go through `readBatch`, which falls
 *   back to `next`/`at` for iterators without it.
 */
export interface SeriesIterator {
  next(): boolean;
  seek(tMs: UnixMs): boolean;
  at(): Readonly<Sample>;
  err(): Error | null;
  /**
   * Writes the samples that successive `next()` calls would return into `tMs[offset…]` and
   * `values[offset…]` (bit-exact: stale markers stay `STALE_NAN`), and returns how many it wrote.
   * It stops after `cap` samples, at the end of the series, or at the first sample whose
   * timestamp is past `maxTMs`, which is not written. The iterator is left exactly as those
   * `next()` calls leave it: on the last sample written when `cap` stopped it; on the sample past
   * `maxTMs` when that stopped it (consumed: `at()` returns it, and the next `next`/`nextBatch`
   * moves beyond it); exhausted otherwise. After a call that wrote fewer than `cap`,
   * `stoppedPast(it, maxTMs)` tells the last two apart. `cap` must fit the arrays; nothing is
   * allocated; the caller owns the arrays before and after the call.
   */
  nextBatch?(maxTMs: UnixMs, tMs: Float64Array, values: Float64Array, offset: number, cap: number): number;
}

/**
 * `it.nextBatch(...)` where the iterator has one, else the same through `next()` and `at()` (see
 * `SeriesIterator.nextBatch` for the contract). The one way every consumer reads in batches.
 */
export function readBatch(it: SeriesIterator, maxTMs: UnixMs, tMs: Float64Array, values: Float64Array, offset: number, cap: number): number {
  if (it.nextBatch !== undefined) return it.nextBatch(maxTMs, tMs, values, offset, cap);
  let n = 0;
  while (n < cap && it.next()) {
    const s = it.at();
    if (s.tMs > maxTMs) break;
    tMs[offset + n] = s.tMs;
    values[offset + n] = s.value;
    n++;
  }
  return n;
}

/**
 * After a `nextBatch`/`readBatch` up to `maxTMs` that wrote fewer samples than its `cap`: true
 * when the iterator sits on a sample past `maxTMs` (`at()` returns it), false when the series is
 * exhausted. It asks `seek` for the first timestamp after `maxTMs`, which stays put on such a
 * sample and reports the end otherwise; timestamps are integers (milliseconds), so nothing lies
 * between `maxTMs` and `floor(maxTMs) + 1`. Do not call it after a call that `cap` stopped: the
 * seek would then move.
 */
export function stoppedPast(it: SeriesIterator, maxTMs: UnixMs): boolean {
  return it.seek(Math.floor(maxTMs) + 1);
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

  /** Copies a run of samples (see `SeriesIterator.nextBatch`). */
  nextBatch(maxTMs: UnixMs, tMs: Float64Array, values: Float64Array, offset: number, cap: number): number {
    if (cap <= 0) return 0;
    const ts = this.timestampsMs;
    const vs = this.values;
    let i = this.index;
    let n = 0;
    while (n < cap) {
      if (i + 1 >= this.length) {
        this.index = this.length;
        return n;
      }
      i++;
      const t = ts[i];
      if (t > maxTMs) break;
      tMs[offset + n] = t;
      values[offset + n] = vs[i];
      n++;
    }
    // Positioned on sample i: the last one written, or the one past maxTMs.
    this.index = i;
    this.load();
    return n;
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
