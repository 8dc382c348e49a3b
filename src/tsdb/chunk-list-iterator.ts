import type { Sample, SeriesIterator, UnixMs } from '../model/index.js';
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
