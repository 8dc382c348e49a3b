import type { Labels, UnixMs } from '../../model/index.js';
import { StorageError, StorageErrorCode, type Appender, type SeriesRef } from '../../storage/index.js';
import type { Head } from './head.js';
import { FOUND, sameBits, type MemSeries } from './mem-series.js';

/**
 * Where a commit is made durable before it becomes visible: the DB binds it to the WAL. It gets
 * the series that have never been logged and the samples, as parallel arrays with `count` valid
 * entries, `ooo[i] === 1` marking the samples the out-of-order window accepted (null when there
 * are none). The buffers belong to the appender: copy what you keep. It must throw when the
 * write failed; the commit then fails and nothing becomes visible.
 */
export interface CommitLog {
  logCommit(
    newSeries: readonly MemSeries[],
    series: readonly MemSeries[],
    tsMs: Float64Array,
    values: Float64Array,
    ooo: Uint8Array | null,
    count: number,
  ): void;
}

let nextAppenderId = 1;
let commitSeq = 1;
const EMPTY: MemSeries[] = [];
const EMPTY_F64 = new Float64Array(0);
const EMPTY_U8 = new Uint8Array(0);
const EMPTY_BOXED: unknown[] = [];

/** Staging buffers, recycled between appenders so a commit per scrape allocates nothing. */
interface Staging {
  series: MemSeries[];
  tsMs: Float64Array;
  values: Float64Array;
  ooo: Uint8Array;
  boxedT: unknown[];
  boxedV: unknown[];
}

/**
 * An array V8 keeps in generic element mode (it holds `null` first), so that numbers stored in
 * it stay the heap numbers they are instead of being unboxed into a double array.
 */
function boxedArray(): unknown[] {
  return new Array<unknown>(512).fill(null);
}
const stagingPool: Staging[] = [];

/**
 * The head's `Appender`. Stages samples in reused typed arrays; `commit` validates them again in
 * order (another appender may have committed since), writes the valid ones to the commit log in
 * one batch and then appends them to the series' chunks (or, for samples the out-of-order window
 * accepted, to the series' out-of-order samples).
 */
export class HeadAppender implements Appender {
  private readonly id = nextAppenderId++;
  private series: MemSeries[] = EMPTY;
  private tsMs: Float64Array = EMPTY_F64;
  private values: Float64Array = EMPTY_F64;
  private ooo: Uint8Array = EMPTY_U8;
  /**
   * The staged timestamps and values again, as the very numbers `append` was given. V8 passes a
   * double that is not a small integer as a heap number; commit hands these to the chunks, where
   * passing the Float64Array copies would box each of them anew: two heap numbers per sample, a
   * quarter of what ingest allocated (and so of the young-generation collections it caused).
   * `tsMs`/`values` stay the exact copies the WAL and the validation read.
   */
  private boxedT: unknown[] = EMPTY_BOXED;
  private boxedV: unknown[] = EMPTY_BOXED;
  private count = 0;
  private oooCount = 0;
  private closed = false;
  /** The not yet published series this appender holds (see `Head.createPending`); null when none. */
  private held: Set<MemSeries> | null = null;

  constructor(private readonly head: Head) {}

  append(ref: SeriesRef, labels: Labels, tMs: UnixMs, value: number): SeriesRef {
    if (this.closed) throw new StorageError(StorageErrorCode.APPENDER_CLOSED, 'appender already committed or rolled back');
    if (!Number.isSafeInteger(tMs)) {
      throw new StorageError(StorageErrorCode.INVALID_TIMESTAMP, `timestamp ${tMs} is not an integer number of milliseconds`);
    }
    const head = this.head;
    let s = ref > 0 ? head.seriesByRef(ref) : undefined;
    // A new series is created pending: it is published only when a sample of it is committed.
    if (s === undefined) s = head.lookup(labels) ?? head.createPending(labels);
    if (!s.published) this.hold(s);
    const mine = s.pendingOwner === this.id;
    const lastT = mine ? s.pendingTMs : s.lastTMs;
    if (tMs === lastT) {
      if (sameBits(value, mine ? s.pendingValue : s.lastValue)) return s.ref; // an exact repeat is ignored
      throw this.duplicate(s, tMs);
    }
    if (tMs > lastT && tMs >= head.appendableMinValidTimeMs()) {
      s.pendingOwner = this.id;
      s.pendingTMs = tMs;
      s.pendingValue = value;
      this.stage(s, tMs, value, 0);
      return s.ref;
    }
    // Behind the series' newest sample, or behind what the in-order head accepts.
    if (head.options.oooWindowMs > 0) {
      if (tMs < head.oooMinValidTimeMs()) {
        head.stats.tooOldRejected++;
        throw new StorageError(
          StorageErrorCode.TOO_OLD_SAMPLE,
          `too old sample at ${tMs} for ${s.labels.toString()}: older than the out-of-order window allows (${head.oooMinValidTimeMs()})`,
        );
      }
      // A sample already at this timestamp, committed or staged here: a repeat or a duplicate.
      const staged = this.stagedOooIndex(s, tMs);
      if (staged >= 0 || s.sampleAt(tMs)) {
        if (sameBits(value, staged >= 0 ? this.values[staged] : FOUND.value)) return s.ref;
        throw this.duplicate(s, tMs);
      }
      this.stage(s, tMs, value, 1);
      return s.ref;
    }
    if (tMs < head.appendableMinValidTimeMs()) {
      head.stats.outOfBoundsRejected++;
      throw new StorageError(StorageErrorCode.OUT_OF_BOUNDS, `out of bounds: sample at ${tMs} for ${s.labels.toString()} is older than the head accepts`);
    }
    head.stats.outOfOrderRejected++;
    throw new StorageError(StorageErrorCode.OUT_OF_ORDER_SAMPLE, `out of order sample at ${tMs} for ${s.labels.toString()} (newest is ${lastT})`);
  }

  // Synchronous inside: validation, the WAL write and the apply happen in one turn, so no other
  // commit can interleave. Async only to honour the contract (remote appenders need it).
  async commit(): Promise<void> {
    if (this.closed) throw new StorageError(StorageErrorCode.APPENDER_CLOSED, 'appender already committed or rolled back');
    this.closed = true;
    const head = this.head;
    this.clearPending();
    try {
      const kept = this.validate();
      if (kept === 0) return;
      const newSeries: MemSeries[] = [];
      for (let i = 0; i < kept; i++) {
        const s = this.series[i];
        if (!s.logged) {
          s.logged = true; // also de-duplicates within this batch
          newSeries.push(s);
        }
      }
      // Real refs before the log write (it records them); published only after it, so that a
      // failed write leaves the new series pending, to be dropped.
      for (const s of newSeries) if (!s.published) head.assignRef(s);
      if (head.options.log !== null) {
        try {
          head.options.log.logCommit(newSeries, this.series, this.tsMs, this.values, this.oooCount > 0 ? this.ooo : null, kept);
        } catch (e) {
          for (const s of newSeries) s.logged = false;
          throw new StorageError(StorageErrorCode.UNAVAILABLE, `write-ahead log write failed: ${(e as Error).message}`, { cause: e });
        }
      }
      for (const s of newSeries) head.publish(s);
      for (let i = 0; i < kept; i++) {
        const s = this.series[i];
        const t = this.tsMs[i];
        if (this.oooCount > 0 && this.ooo[i] === 1) {
          s.insertOoo(t, this.values[i]);
          head.stats.oooAppended++;
          head.noteTime(t);
        } else {
          head.appendCommitted(s, this.boxedT[i] as number, this.boxedV[i] as number);
        }
      }
      head.stats.samplesAppended += kept;
    } finally {
      this.releaseHeld();
      this.release();
    }
    head.options.afterCommit?.();
  }

  rollback(): void {
    if (this.closed) throw new StorageError(StorageErrorCode.APPENDER_CLOSED, 'appender already committed or rolled back');
    this.closed = true;
    this.clearPending();
    this.releaseHeld();
    this.release();
  }

  /** Holds pending series `s` until this appender closes. */
  private hold(s: MemSeries): void {
    this.held ??= new Set();
    if (this.held.has(s)) return;
    this.held.add(s);
    s.holders++;
  }

  /** Lets go of the pending series: those none of whose samples was committed are dropped. */
  private releaseHeld(): void {
    if (this.held === null) return;
    for (const s of this.held) this.head.releasePending(s);
    this.held = null;
  }

  /** The index of this appender's staged out-of-order sample of `s` at `tMs`, or -1. */
  private stagedOooIndex(s: MemSeries, tMs: UnixMs): number {
    if (this.oooCount === 0) return -1;
    for (let i = 0; i < this.count; i++) {
      if (this.ooo[i] === 1 && this.series[i] === s && this.tsMs[i] === tMs) return i;
    }
    return -1;
  }

  private duplicate(s: MemSeries, tMs: UnixMs): StorageError {
    this.head.stats.duplicateRejected++;
    return new StorageError(
      StorageErrorCode.DUPLICATE_SAMPLE_FOR_TIMESTAMP,
      `duplicate sample for timestamp ${tMs} of ${s.labels.toString()} with a different value`,
    );
  }

  private stage(s: MemSeries, tMs: UnixMs, value: number, ooo: number): void {
    if (this.count === this.tsMs.length) this.grow();
    this.series[this.count] = s;
    this.tsMs[this.count] = tMs;
    this.values[this.count] = value;
    this.boxedT[this.count] = tMs;
    this.boxedV[this.count] = value;
    this.ooo[this.count] = ooo;
    this.oooCount += ooo;
    this.count++;
  }

  private grow(): void {
    if (this.tsMs.length === 0) {
      const pooled = stagingPool.pop();
      if (pooled !== undefined) {
        ({ series: this.series, tsMs: this.tsMs, values: this.values, ooo: this.ooo, boxedT: this.boxedT, boxedV: this.boxedV } = pooled);
        return;
      }
      this.series = [];
      this.tsMs = new Float64Array(512);
      this.values = new Float64Array(512);
      this.ooo = new Uint8Array(512);
      this.boxedT = boxedArray();
      this.boxedV = boxedArray();
      return;
    }
    const size = this.count * 2;
    const t = new Float64Array(size);
    t.set(this.tsMs);
    this.tsMs = t;
    const v = new Float64Array(size);
    v.set(this.values);
    this.values = v;
    const o = new Uint8Array(size);
    o.set(this.ooo);
    this.ooo = o;
  }

  /**
   * Re-checks staged samples in order against what is committed now and compacts the valid ones
   * to the front of the arrays. An in-order sample that another commit overtook meanwhile becomes
   * out-of-order when the window takes it, else it is dropped (and counted). Returns how many remain.
   */
  private validate(): number {
    const head = this.head;
    const seq = commitSeq++;
    const minValid = head.appendableMinValidTimeMs();
    const window = head.options.oooWindowMs > 0;
    const oooMin = head.oooMinValidTimeMs();
    let kept = 0;
    let oooKept = 0;
    for (let i = 0; i < this.count; i++) {
      const s = this.series[i];
      const t = this.tsMs[i];
      const v = this.values[i];
      let ooo = this.oooCount > 0 ? this.ooo[i] : 0;
      if (ooo === 0) {
        const seen = s.commitSeq === seq;
        const lastT = seen ? s.commitTMs : s.lastTMs;
        if (t === lastT && sameBits(v, seen ? s.commitValue : s.lastValue)) continue; // exact repeat
        if (t > lastT && t >= minValid) {
          s.commitSeq = seq;
          s.commitTMs = t;
          s.commitValue = v;
        } else if (window && t !== lastT && t >= oooMin) {
          ooo = 1;
        } else {
          head.stats.droppedAtCommit++;
          continue;
        }
      }
      if (ooo === 1) {
        if (t < oooMin) {
          head.stats.droppedAtCommit++;
          continue;
        }
        if (s.sampleAt(t)) {
          if (!sameBits(v, FOUND.value)) head.stats.droppedAtCommit++;
          continue;
        }
      }
      this.series[kept] = s;
      this.tsMs[kept] = t;
      this.values[kept] = v;
      this.boxedT[kept] = this.boxedT[i];
      this.boxedV[kept] = this.boxedV[i];
      this.ooo[kept] = ooo;
      oooKept += ooo;
      kept++;
    }
    this.oooCount = oooKept;
    return kept;
  }

  /** Gives up this appender's claim on the series it staged samples for. */
  private clearPending(): void {
    for (let i = 0; i < this.count; i++) {
      const s = this.series[i];
      if (s.pendingOwner === this.id) s.pendingOwner = 0;
    }
  }

  private release(): void {
    if (this.tsMs.length > 0 && stagingPool.length < 64) {
      // Drop series references so removed series can be collected, and the boxed numbers so a
      // pooled array does not keep them alive through a collection; keep the arrays for reuse.
      this.series.length = 0;
      this.boxedT.fill(null, 0, this.count);
      this.boxedV.fill(null, 0, this.count);
      stagingPool.push({ series: this.series, tsMs: this.tsMs, values: this.values, ooo: this.ooo, boxedT: this.boxedT, boxedV: this.boxedV });
    }
    this.series = EMPTY;
    this.tsMs = EMPTY_F64;
    this.values = EMPTY_F64;
    this.ooo = EMPTY_U8;
    this.boxedT = EMPTY_BOXED;
    this.boxedV = EMPTY_BOXED;
    this.count = 0;
    this.oooCount = 0;
  }
}
