import { stoppedPast, type Sample, type SeriesIterator, type UnixMs } from '../model/index.js';
import { XorIterator } from './chunkenc/index.js';

/**
 * A `SeriesIterator` over a series' chunks in time order, clipped to `[minTMs, maxTMs]`. Chunks
 * are given as parallel arrays of encoded bytes and sample counts (undefined: the chunk's own header; a count lets a reader see a
 * prefix of a chunk that is still being appended to). Reuses one `XorIterator` for all chunks
 * and allocates nothing per sample.
 */
export class ChunkListIterator implements SeriesIterator {
  private chunks: Uint8Array[] = [];
  private counts: (number | undefined)[] = [];
  private minTMs: UnixMs = 0;
  private maxTMs: UnixMs = 0;
  private index = -1;
  private readonly inner = new XorIterator();
  private done = false;
  private failure: Error | null = null;

  /** Points the iterator at a new chunk list; previous state is discarded. The arrays are retained, not copied. */
  reset(chunks: Uint8Array[], counts: (number | undefined)[], minTMs: UnixMs, maxTMs: UnixMs): this {
    this.chunks = chunks;
    this.counts = counts;
    this.minTMs = minTMs;
    this.maxTMs = maxTMs;
    this.index = -1;
    this.done = chunks.length === 0;
    this.failure = null;
    return this;
  }

  next(): boolean {
    if (this.done) return false;
    if (this.index < 0) return this.seek(this.minTMs);
    for (;;) {
      if (this.inner.next()) return this.checkEnd();
      if (!this.nextChunk()) return false;
    }
  }

  seek(tMs: UnixMs): boolean {
    if (this.done) return false;
    if (tMs < this.minTMs) tMs = this.minTMs;
    if (this.index < 0 && !this.nextChunk()) return false;
    for (;;) {
      if (this.inner.seek(tMs)) return this.checkEnd();
      if (!this.nextChunk()) return false;
    }
  }

  at(): Readonly<Sample> {
    return this.inner.at();
  }

  /**
   * Decodes a run of samples into the caller's arrays (see `SeriesIterator.nextBatch`): each
   * chunk through the XOR batch decoder, bounded by the tighter of `maxTMs` and the list's end;
   * the step from one chunk to the next goes through `next()`.
   */
  nextBatch(maxTMs: UnixMs, tMs: Float64Array, values: Float64Array, offset: number, cap: number): number {
    const bound = maxTMs < this.maxTMs ? maxTMs : this.maxTMs;
    let n = 0;
    while (n < cap) {
      if (this.index >= 0 && !this.done) {
        n += this.inner.nextBatch(bound, tMs, values, offset + n, cap - n);
        if (n >= cap) return n;
        if (stoppedPast(this.inner, bound)) {
          // On a sample past the bound: past the list's end means exhausted, as `next()` says.
          if (this.inner.at().tMs > this.maxTMs) this.stop(null);
          return n;
        }
      }
      // Not started, or this chunk is done: `next()` opens the next chunk (or reports the end).
      if (!this.next()) return n;
      const s = this.inner.at();
      if (s.tMs > maxTMs) return n;
      tMs[offset + n] = s.tMs;
      values[offset + n] = s.value;
      n++;
    }
    return n;
  }

  err(): Error | null {
    return this.failure;
  }

  private nextChunk(): boolean {
    const e = this.index >= 0 ? this.inner.err() : null;
    if (e !== null) return this.stop(e);
    this.index++;
    if (this.index >= this.chunks.length) return this.stop(null);
    this.inner.reset(this.chunks[this.index], this.counts[this.index]);
    return true;
  }

  private checkEnd(): boolean {
    return this.inner.at().tMs <= this.maxTMs ? true : this.stop(null);
  }

  private stop(e: Error | null): boolean {
    this.done = true;
    this.failure = e;
    return false;
  }
}
