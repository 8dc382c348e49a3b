import type { Labels, UnixMs } from '../../model/index.js';
import { XorChunk, XorIterator } from '../chunkenc/index.js';

/** A sealed, immutable head chunk: exact-size encoded bytes plus its time bounds. */
export interface SealedChunk {
  readonly minTimeMs: UnixMs;
  readonly maxTimeMs: UnixMs;
  readonly bytes: Uint8Array;
}

/** Samples per head chunk before it is sealed (Prometheus' target). */
export const SAMPLES_PER_CHUNK = 120;

const bitsView = new DataView(new ArrayBuffer(8));

/** Reports whether two floats have the same bit pattern (so NaN payloads compare exactly). */
export function sameBits(a: number, b: number): boolean {
  if (a === b) return a !== 0 || 1 / a === 1 / b; // +0 and -0 differ in bits
  if (a === a || b === b) return false; // exactly one of them is NaN, or two different numbers
  bitsView.setFloat64(0, a);
  const hi = bitsView.getUint32(0);
  const lo = bitsView.getUint32(4);
  bitsView.setFloat64(0, b);
  return hi === bitsView.getUint32(0) && lo === bitsView.getUint32(4);
}

/**
 * One series in the head: its labels, sealed chunks (oldest first) and the open chunk samples
 * are appended to. Also the bookkeeping appenders use to validate order before commit.
 */
export class MemSeries {
  /** Sealed chunks, oldest first. */
  sealed: SealedChunk[] = [];
  /** The chunk being appended to, or null before the first sample / right after a cut. */
  open: XorChunk | null = null;
  /** Timestamp of the newest committed sample, or -Infinity when there is none. */
  lastTMs: UnixMs = -Infinity;
  /** Value of the newest committed sample (for duplicate detection). */
  lastValue = 0;
  /** The id of the appender with staged samples for this series, 0 when none. */
  pendingOwner = 0;
  /** Timestamp and value of the newest staged sample of `pendingOwner`. */
  pendingTMs: UnixMs = -Infinity;
  pendingValue = 0;
  /** Scratch fields of the commit validating this series (see HeadAppender.validate). */
  commitSeq = 0;
  commitTMs: UnixMs = -Infinity;
  commitValue = 0;
  /** Whether a SERIES record for this series has been written to the WAL. */
  logged = false;
  /** Next series in the same hash bucket (collision chain). */
  nextInBucket: MemSeries | null = null;
  /** Upper bound (exclusive) of the block range the open chunk belongs to. */
  openChunkEndMs: UnixMs = -Infinity;

  constructor(
    readonly ref: number,
    readonly labels: Labels,
  ) {}

  /** Earliest sample time held in memory, or +Infinity when empty. */
  minTimeMs(): UnixMs {
    if (this.sealed.length > 0) return this.sealed[0].minTimeMs;
    return this.open !== null && this.open.numSamples() > 0 ? this.open.minTimeMs() : Infinity;
  }

  /** Number of samples held in memory. */
  numSamples(): number {
    let n = this.open?.numSamples() ?? 0;
    for (const c of this.sealed) n += XorChunk.fromBytes(c.bytes).numSamples();
    return n;
  }

  /**
   * Appends a committed sample. Cuts a new chunk when the open one is full or the sample falls
   * into the next block range (`blockRangeMs`-aligned), so blocks never need to split chunks.
   * Returns the chunk it sealed, if any, so the caller can persist it.
   */
  appendCommitted(tMs: UnixMs, value: number, blockRangeMs: number): SealedChunk | null {
    let sealedNow: SealedChunk | null = null;
    let chunk = this.open;
    if (chunk !== null && (chunk.numSamples() >= SAMPLES_PER_CHUNK || tMs >= this.openChunkEndMs)) {
      sealedNow = this.sealOpen();
      chunk = null;
    }
    if (chunk === null) {
      // Size the new chunk like the previous one: series compress alike from chunk to chunk.
      const prev = this.sealed.length > 0 ? this.sealed[this.sealed.length - 1].bytes.length : 0;
      chunk = new XorChunk(undefined, prev > 0 ? prev + (prev >> 3) + 8 : 32);
      this.open = chunk;
      this.openChunkEndMs = (Math.floor(tMs / blockRangeMs) + 1) * blockRangeMs;
    }
    chunk.append(tMs, value);
    this.lastTMs = tMs;
    this.lastValue = value;
    return sealedNow;
  }

  /**
   * Adds sealed chunks loaded at open (from the head-chunks log), keeping time order, and moves
   * the newest-sample bookkeeping to their end.
   */
  loadSealed(chunks: readonly SealedChunk[]): void {
    this.sealed.push(...chunks);
    this.sealed.sort((a, b) => a.minTimeMs - b.minTimeMs);
    const last = this.sealed[this.sealed.length - 1];
    if (last.maxTimeMs <= this.lastTMs) return;
    const it = new XorIterator(last.bytes);
    while (it.next()) {
      this.lastTMs = it.at().tMs;
      this.lastValue = it.at().value;
    }
  }

  /**
   * Makes the chunk encoded in `bytes` (copied) the open chunk, so appends continue it, unless a
   * sealed chunk already covers it (it was sealed after the checkpoint that saved it). Returns
   * whether it was taken.
   */
  resumeOpen(bytes: Uint8Array, blockRangeMs: number): boolean {
    const chunk = XorChunk.resume(bytes);
    if (chunk.numSamples() === 0 || chunk.minTimeMs() <= this.lastTMs) return false;
    this.open = chunk;
    this.openChunkEndMs = (Math.floor(chunk.minTimeMs() / blockRangeMs) + 1) * blockRangeMs;
    this.lastTMs = chunk.maxTimeMs();
    this.lastValue = chunk.lastValue();
    return true;
  }

  /** Seals the open chunk (if it holds samples) and returns it. */
  sealOpen(): SealedChunk | null {
    const chunk = this.open;
    this.open = null;
    if (chunk === null || chunk.numSamples() === 0) return null;
    const sealed: SealedChunk = { minTimeMs: chunk.minTimeMs(), maxTimeMs: chunk.maxTimeMs(), bytes: chunk.sealedBytes() };
    this.sealed.push(sealed);
    return sealed;
  }

  /**
   * Drops every chunk that ends before `minTMs` (they now live in a block) and returns how many
   * samples were dropped. An open chunk entirely before the bound is dropped too.
   */
  truncateBefore(minTMs: UnixMs): number {
    let dropped = 0;
    let keepFrom = 0;
    while (keepFrom < this.sealed.length && this.sealed[keepFrom].maxTimeMs < minTMs) {
      dropped += XorChunk.fromBytes(this.sealed[keepFrom].bytes).numSamples();
      keepFrom++;
    }
    if (keepFrom > 0) this.sealed = this.sealed.slice(keepFrom);
    if (this.open !== null && this.open.numSamples() > 0 && this.open.maxTimeMs() < minTMs) {
      dropped += this.open.numSamples();
      this.open = null;
    }
    return dropped;
  }
}
