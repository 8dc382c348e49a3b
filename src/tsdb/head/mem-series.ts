import type { Labels, UnixMs } from '../../model/index.js';
import { XorChunk, XorIterator, type XorEncoderState } from '../chunkenc/index.js';
import { NO_CHUNK, type ChunkStore } from './chunk-store.js';
import { OooSamples } from './ooo-samples.js';
import type { SeriesColumns } from './series-columns.js';

/** Samples per head chunk before it is sealed (Prometheus' target). */
export const SAMPLES_PER_CHUNK = 120;

const bitsView = new DataView(new ArrayBuffer(8));

/** Where `MemSeries.sampleAt` leaves the value it found (an object field keeps NaN bits). */
export const FOUND = { value: 0 };

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
 *
 * The sealed chunks live in the head's `ChunkStore`, as a list linked through `store.next` from
 * `firstSealed` to `lastSealed`: walk it with
 * `for (let id = s.firstSealed; id !== NO_CHUNK; id = store.next[id])`.
 */
export class MemSeries {
  /** The oldest and the newest sealed chunk (ids in `store`), `NO_CHUNK` when none. */
  firstSealed = NO_CHUNK;
  lastSealed = NO_CHUNK;
  /** How many sealed chunks the series has. */
  numSealed = 0;
  /** The chunk being appended to, or null before the first sample / right after a cut. */
  open: XorChunk | null = null;
  /** Samples the out-of-order window accepted behind the newest one; null when none. */
  ooo: OooSamples | null = null;
  /** The id of the appender with staged samples for this series, 0 when none. */
  pendingOwner = 0;
  /** The commit currently validating this series (see HeadAppender.validate). */
  commitSeq = 0;
  /** Whether a SERIES record for this series has been written to the WAL. */
  logged = false;
  /** Next series in the same hash bucket (collision chain). */
  nextInBucket: MemSeries | null = null;
  /**
   * False while the series exists only for the open appenders that staged samples for it: it is
   * in no postings list, not counted, not logged, and goes away when the last of those appenders
   * closes without committing a sample of it (see `Head.createPending`).
   */
  published = false;
  /** How many open appenders hold this not yet published series. */
  holders = 0;
  /** Set when `lastValue` must be decoded from the newest sealed chunk (after loading chunks). */
  private lastValueUnknown = false;

  /**
   * @param ref the series' ref; a pending series (see `Head.createPending`) has a temporary one
   *   until `moveTo` gives it its real ref.
   * @param cols the columns holding the per-series numbers, at index `idx` (default `ref`).
   * @param store where the series' sealed chunks are kept (the head's).
   */
  constructor(
    public ref: number,
    /** The labels; replaced once by their interned copy when the series is published. */
    public labels: Labels,
    private cols: SeriesColumns,
    /** The store of the series' sealed chunks. */
    readonly store: ChunkStore,
    private idx: number = ref,
  ) {
    cols.init(idx);
  }

  /** Gives a pending series its real ref, moving its numbers to `cols` at index `ref`. */
  moveTo(ref: number, cols: SeriesColumns): void {
    const from = this.cols;
    const i = this.idx;
    cols.init(ref);
    cols.lastT[ref] = from.lastT[i];
    cols.lastV[ref] = from.lastV[i];
    cols.pendingT[ref] = from.pendingT[i];
    cols.pendingV[ref] = from.pendingV[i];
    cols.commitT[ref] = from.commitT[i];
    cols.commitV[ref] = from.commitV[i];
    cols.openEnd[ref] = from.openEnd[i];
    this.cols = cols;
    this.idx = ref;
    this.ref = ref;
  }

  /** The index of this series in its columns (a slot of the head's pending columns while pending). */
  get columnIndex(): number {
    return this.idx;
  }

  /** Timestamp of the newest committed sample, or -Infinity when there is none. */
  get lastTMs(): UnixMs {
    return this.cols.lastT[this.idx];
  }
  set lastTMs(t: UnixMs) {
    this.cols.lastT[this.idx] = t;
  }
  /** Value of the newest committed sample (for duplicate detection). */
  get lastValue(): number {
    if (this.lastValueUnknown) {
      this.lastValueUnknown = false;
      this.cols.lastV[this.idx] = XorChunk.fromBytes(this.store.bytes(this.lastSealed)).lastValue();
    }
    return this.cols.lastV[this.idx];
  }
  set lastValue(v: number) {
    this.lastValueUnknown = false;
    this.cols.lastV[this.idx] = v;
  }
  /** Timestamp and value of the newest staged sample of `pendingOwner`. */
  get pendingTMs(): UnixMs {
    return this.cols.pendingT[this.idx];
  }
  set pendingTMs(t: UnixMs) {
    this.cols.pendingT[this.idx] = t;
  }
  get pendingValue(): number {
    return this.cols.pendingV[this.idx];
  }
  set pendingValue(v: number) {
    this.cols.pendingV[this.idx] = v;
  }
  /** Scratch of the commit validating this series: its newest kept sample. */
  get commitTMs(): UnixMs {
    return this.cols.commitT[this.idx];
  }
  set commitTMs(t: UnixMs) {
    this.cols.commitT[this.idx] = t;
  }
  get commitValue(): number {
    return this.cols.commitV[this.idx];
  }
  set commitValue(v: number) {
    this.cols.commitV[this.idx] = v;
  }
  /** Upper bound (exclusive) of the block range the open chunk belongs to. */
  get openChunkEndMs(): UnixMs {
    return this.cols.openEnd[this.idx];
  }
  set openChunkEndMs(t: UnixMs) {
    this.cols.openEnd[this.idx] = t;
  }

  /** Earliest sample time held in memory, or +Infinity when empty. */
  minTimeMs(): UnixMs {
    let t = Infinity;
    if (this.firstSealed !== NO_CHUNK) t = this.store.minT[this.firstSealed];
    else if (this.open !== null && this.open.numSamples() > 0) t = this.open.minTimeMs();
    const ooo = this.ooo;
    return ooo !== null && ooo.length > 0 && ooo.tsMs[0] < t ? ooo.tsMs[0] : t;
  }

  /** Newest sample time held (in order or out of order), or -Infinity when empty. */
  maxTimeMs(): UnixMs {
    const ooo = this.ooo;
    const last = this.lastTMs;
    return ooo !== null && ooo.length > 0 && ooo.tsMs[ooo.length - 1] > last ? ooo.tsMs[ooo.length - 1] : last;
  }

  /**
   * Looks for a committed sample at exactly `tMs` (in order or out of order). Returns whether one
   * exists; its value is then in `FOUND.value`. Decodes at most one chunk: used only on the
   * out-of-order path, to tell an exact repeat from a duplicate.
   */
  sampleAt(tMs: UnixMs): boolean {
    const ooo = this.ooo;
    if (ooo !== null) {
      const i = ooo.indexOf(tMs);
      if (i >= 0) {
        FOUND.value = ooo.values[i];
        return true;
      }
    }
    let bytes: Uint8Array | null = null;
    let count: number | undefined;
    const store = this.store;
    for (let id = this.firstSealed; id !== NO_CHUNK; id = store.next[id]) {
      if (store.minT[id] <= tMs && tMs <= store.maxT[id]) bytes = store.bytes(id);
    }
    const open = this.open;
    if (bytes === null && open !== null && open.numSamples() > 0 && open.minTimeMs() <= tMs && tMs <= open.maxTimeMs()) {
      bytes = open.bytes();
      count = open.numSamples();
    }
    if (bytes === null) return false;
    const it = new XorIterator(bytes, count);
    if (!it.seek(tMs) || it.at().tMs !== tMs) return false;
    FOUND.value = it.at().value;
    return true;
  }

  /** Stores an out-of-order sample; false when one exists at `tMs` already. */
  insertOoo(tMs: UnixMs, value: number): boolean {
    this.ooo ??= new OooSamples();
    return this.ooo.insert(tMs, value);
  }

  /**
   * Appends a committed sample. Cuts a new chunk when the open one is full or the sample falls
   * into the next block range (`blockRangeMs`-aligned), so blocks never need to split chunks.
   * Returns the id of the chunk it sealed, `NO_CHUNK` when none, so the caller can persist it.
   */
  appendCommitted(tMs: UnixMs, value: number, blockRangeMs: number): number {
    let sealedNow = NO_CHUNK;
    let chunk = this.open;
    if (chunk !== null && (chunk.numSamples() >= SAMPLES_PER_CHUNK || tMs >= this.openChunkEndMs)) {
      sealedNow = this.sealOpen();
      chunk = null;
    }
    if (chunk === null) {
      // Size the new chunk like the previous one: series compress alike from chunk to chunk.
      const prev = this.lastSealed !== NO_CHUNK ? this.store.byteLength(this.lastSealed) : 0;
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
   * Adds sealed chunks loaded at open (ids in `store`, from the head-chunks log), keeping time
   * order, and moves the newest-sample bookkeeping to their end.
   */
  loadSealed(ids: readonly number[]): void {
    if (ids.length === 0) return;
    const store = this.store;
    const merged: number[] = [];
    for (let id = this.firstSealed; id !== NO_CHUNK; id = store.next[id]) merged.push(id);
    for (const id of ids) merged.push(id);
    for (let i = 1; i < merged.length; i++) {
      if (store.minT[merged[i]] < store.minT[merged[i - 1]]) {
        merged.sort((a, b) => store.minT[a] - store.minT[b]);
        break;
      }
    }
    for (let i = 0; i < merged.length; i++) store.next[merged[i]] = i + 1 < merged.length ? merged[i + 1] : NO_CHUNK;
    this.firstSealed = merged[0];
    this.lastSealed = merged[merged.length - 1];
    this.numSealed = merged.length;
    const lastMaxT = store.maxT[this.lastSealed];
    if (lastMaxT <= this.lastTMs) return;
    this.lastTMs = lastMaxT;
    // Decoding every series' last chunk at open would cost a second per 300k series; the value
    // is only needed to tell an exact repeat from a duplicate, so it is decoded on first use.
    this.lastValueUnknown = true;
  }

  /**
   * Makes the chunk encoded in `bytes` (copied) the open chunk, so appends continue it, unless a
   * sealed chunk already covers it (it was sealed after the checkpoint that saved it). With the
   * encoder state saved beside it, nothing is decoded. Returns whether it was taken.
   */
  resumeOpen(bytes: Uint8Array, minTimeMs: UnixMs, blockRangeMs: number, encoder?: XorEncoderState): boolean {
    // A sealed chunk covering it came from the head-chunks log: it was sealed after the checkpoint.
    if (minTimeMs <= this.lastTMs) return false;
    const chunk = XorChunk.resume(bytes, encoder);
    if (chunk.numSamples() === 0) return false;
    this.open = chunk;
    this.openChunkEndMs = (Math.floor(chunk.minTimeMs() / blockRangeMs) + 1) * blockRangeMs;
    this.lastTMs = chunk.maxTimeMs();
    this.lastValue = chunk.lastValue();
    return true;
  }

  /**
   * Seals the open chunk (if it holds samples): copies its bytes into the store, appends it to
   * the sealed list and returns its id, or `NO_CHUNK` when there was nothing to seal.
   */
  sealOpen(): number {
    const chunk = this.open;
    this.open = null;
    if (chunk === null || chunk.numSamples() === 0) return NO_CHUNK;
    const store = this.store;
    const id = store.add(chunk.bytes(), chunk.minTimeMs(), chunk.maxTimeMs());
    if (this.lastSealed === NO_CHUNK) this.firstSealed = id;
    else store.next[this.lastSealed] = id;
    this.lastSealed = id;
    this.numSealed++;
    return id;
  }

  /**
   * Drops every chunk that ends before `minTMs` (they now live in a block) and returns how many
   * samples were dropped. An open chunk entirely before the bound is dropped too.
   */
  truncateBefore(minTMs: UnixMs): number {
    let dropped = 0;
    const store = this.store;
    let id = this.firstSealed;
    while (id !== NO_CHUNK && store.maxT[id] < minTMs) {
      dropped += store.numSamples(id);
      const next = store.next[id];
      store.free(id);
      this.numSealed--;
      id = next;
    }
    this.firstSealed = id;
    if (id === NO_CHUNK) this.lastSealed = NO_CHUNK;
    if (this.open !== null && this.open.numSamples() > 0 && this.open.maxTimeMs() < minTMs) {
      dropped += this.open.numSamples();
      this.open = null;
    }
    if (this.ooo !== null) {
      dropped += this.ooo.dropBefore(minTMs);
      if (this.ooo.length === 0) this.ooo = null;
    }
    return dropped;
  }
}
