/**
 * The iterator of one block series: walks the series' chunks in time order, reading each from
 * the segment files only when needed, and clips the samples to the querier's inclusive range.
 */
import { stoppedPast, type Sample, type SeriesIterator, type UnixMs } from '../../model/index.js';
import { CorruptChunkError, XorIterator } from '../chunkenc/index.js';
import { newChunkScratch, type ChunkFilesReader, type ChunkScratch } from './chunk-files.js';
import { corruption } from './format.js';

const INIT = 0;
const POSITIONED = 1;
const DONE = 2;

/**
 * A `SeriesIterator` over chunks given as `[minTimeMs, maxTimeMs, chunkRef]` triplets (in time
 * order, not overlapping), yielding only samples in `[minTMs, maxTMs]`. Chunks whose time range
 * ends before a seek target are skipped without being read. Reusable through `reset`; owns its
 * chunk buffer and decoder, so nothing is allocated per sample (nor per chunk, once the buffer
 * has grown to the largest chunk).
 */
export class BlockSeriesIterator implements SeriesIterator {
  private readonly xor = new XorIterator();
  private readonly scratch: ChunkScratch = newChunkScratch();
  private chunks: ChunkFilesReader | null = null;
  private metas: Float64Array = new Float64Array(0);
  private count = 0;
  private minTMs = 0;
  private maxTMs = 0;
  private index = -1;
  private state = DONE;
  private error: Error | null = null;

  /** Points the iterator at a series; returns `this`. */
  reset(chunks: ChunkFilesReader, metas: Float64Array, minTMs: UnixMs, maxTMs: UnixMs): this {
    this.chunks = chunks;
    this.metas = metas;
    this.count = metas.length / 3;
    this.minTMs = minTMs;
    this.maxTMs = maxTMs;
    this.index = -1;
    this.state = INIT;
    this.error = null;
    return this;
  }

  /** Advances to the next sample in range. */
  next(): boolean {
    if (this.state === DONE) return false;
    if (this.state === POSITIONED && this.xor.next()) return this.accept();
    return this.seekFrom(this.minTMs);
  }

  /** Advances to the first sample at or after `tMs` (and in range); never moves backwards. */
  seek(tMs: UnixMs): boolean {
    if (this.state === DONE) return false;
    if (this.state === POSITIONED && this.xor.at().tMs >= tMs) return true;
    return this.seekFrom(tMs > this.minTMs ? tMs : this.minTMs);
  }

  /**
   * Decodes a run of samples into the caller's arrays (see `SeriesIterator.nextBatch`): the
   * current chunk through the XOR batch decoder, bounded by the tighter of `maxTMs` and the
   * querier's end; loading the next chunk goes through `next()`.
   */
  nextBatch(maxTMs: UnixMs, tMs: Float64Array, values: Float64Array, offset: number, cap: number): number {
    const bound = maxTMs < this.maxTMs ? maxTMs : this.maxTMs;
    let n = 0;
    while (n < cap) {
      if (this.state === POSITIONED) {
        n += this.xor.nextBatch(bound, tMs, values, offset + n, cap - n);
        if (n >= cap) return n;
        if (stoppedPast(this.xor, bound)) {
          this.accept(); // past the querier's end: exhausted, as `next()` would say
          return n;
        }
      }
      if (!this.next()) return n;
      const s = this.xor.at();
      if (s.tMs > maxTMs) return n;
      tMs[offset + n] = s.tMs;
      values[offset + n] = s.value;
      n++;
    }
    return n;
  }

  /** The current sample, owned by the iterator. */
  at(): Readonly<Sample> {
    return this.xor.at();
  }

  /** The error that ended iteration (a corrupt chunk), or null. */
  err(): Error | null {
    return this.error;
  }

  private seekFrom(tMs: number): boolean {
    const m = this.metas;
    // The current chunk first, if it can still hold tMs.
    if (this.index >= 0 && m[3 * this.index + 1] >= tMs) {
      if (this.xor.seek(tMs)) return this.accept();
      if (this.xor.err() !== null) return this.fail(this.xor.err()!);
    }
    for (let j = this.index + 1; j < this.count; j++) {
      if (m[3 * j] > this.maxTMs) break;
      if (m[3 * j + 1] < tMs) continue;
      if (!this.load(j)) return false;
      if (this.xor.seek(tMs)) return this.accept();
      if (this.xor.err() !== null) return this.fail(this.xor.err()!);
    }
    this.index = this.count;
    this.state = DONE;
    return false;
  }

  private load(j: number): boolean {
    this.index = j;
    try {
      const bytes = this.chunks!.readChunk(this.metas[3 * j + 2], this.scratch);
      this.xor.reset(bytes);
      return true;
    } catch (err) {
      return this.fail(err);
    }
  }

  private accept(): boolean {
    if (this.xor.at().tMs > this.maxTMs) {
      this.state = DONE;
      return false;
    }
    this.state = POSITIONED;
    return true;
  }

  private fail(err: unknown): boolean {
    this.state = DONE;
    if (err instanceof CorruptChunkError) {
      const ref = this.metas[3 * this.index + 2];
      this.error = corruption(this.chunks!.pathOf(ref), `chunk at reference ${ref}: ${err.message}`, err);
    } else {
      this.error = err instanceof Error ? err : new Error(String(err));
    }
    return false;
  }
}
