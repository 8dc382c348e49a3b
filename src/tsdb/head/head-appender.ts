import type { Labels, UnixMs } from '../../model/index.js';
import { StorageError, StorageErrorCode, type Appender, type SeriesRef } from '../../storage/index.js';
import type { Head } from './head.js';
import { sameBits, type MemSeries } from './mem-series.js';

/**
 * Where a commit is made durable before it becomes visible: the DB binds it to the WAL. It gets
 * the series that have never been logged and the samples, as parallel arrays with `count` valid
 * entries (buffers owned by the appender: copy what you keep). It must throw when the write
 * failed; the commit then fails and nothing becomes visible.
 */
export interface CommitLog {
  logCommit(newSeries: readonly MemSeries[], series: readonly MemSeries[], tsMs: Float64Array, values: Float64Array, count: number): void;
}

let nextAppenderId = 1;
const EMPTY: MemSeries[] = [];
const EMPTY_F64 = new Float64Array(0);

/** Staging buffers, recycled between appenders so a commit per scrape allocates nothing. */
interface Staging {
  series: MemSeries[];
  tsMs: Float64Array;
  values: Float64Array;
}
const stagingPool: Staging[] = [];
let commitSeq = 1;

/**
 * The head's `Appender`. Stages samples in reused typed arrays; `commit` validates them again in
 * order (another appender may have committed since), writes the valid ones to the commit log in
 * one record batch and then appends them to the series' chunks.
 */
export class HeadAppender implements Appender {
  private readonly id = nextAppenderId++;
  private series: MemSeries[] = EMPTY;
  private tsMs: Float64Array = EMPTY_F64;
  private values: Float64Array = EMPTY_F64;
  private count = 0;
  private closed = false;

  constructor(private readonly head: Head) {}

  append(ref: SeriesRef, labels: Labels, tMs: UnixMs, value: number): SeriesRef {
    if (this.closed) throw new StorageError(StorageErrorCode.APPENDER_CLOSED, 'appender already committed or rolled back');
    if (!Number.isSafeInteger(tMs)) {
      throw new StorageError(StorageErrorCode.INVALID_TIMESTAMP, `timestamp ${tMs} is not an integer number of milliseconds`);
    }
    const head = this.head;
    let s = ref > 0 ? head.seriesByRef(ref) : undefined;
    if (s === undefined) s = head.getOrCreate(labels);
    if (tMs < head.appendableMinValidTimeMs()) {
      head.stats.outOfBoundsRejected++;
      throw new StorageError(StorageErrorCode.OUT_OF_BOUNDS, `out of bounds: sample at ${tMs} for ${s.labels.toString()} is older than the head accepts`);
    }
    const mine = s.pendingOwner === this.id;
    const lastT = mine ? s.pendingTMs : s.lastTMs;
    if (tMs <= lastT) {
      const lastV = mine ? s.pendingValue : s.lastValue;
      if (tMs === lastT) {
        if (sameBits(value, lastV)) return s.ref; // an exact repeat is accepted and ignored
        head.stats.duplicateRejected++;
        throw new StorageError(
          StorageErrorCode.DUPLICATE_SAMPLE_FOR_TIMESTAMP,
          `duplicate sample for timestamp ${tMs} of ${s.labels.toString()} with a different value`,
        );
      }
      head.stats.outOfOrderRejected++;
      throw new StorageError(StorageErrorCode.OUT_OF_ORDER_SAMPLE, `out of order sample at ${tMs} for ${s.labels.toString()} (newest is ${lastT})`);
    }
    s.pendingOwner = this.id;
    s.pendingTMs = tMs;
    s.pendingValue = value;
    this.stage(s, tMs, value);
    return s.ref;
  }

  async commit(): Promise<void> {
    this.commitSync();
    return Promise.resolve();
  }

  /** The synchronous body of `commit`, for callers that batch many commits (replay, benchmarks). */
  commitSync(): void {
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
      if (head.options.log !== null) {
        try {
          head.options.log.logCommit(newSeries, this.series, this.tsMs, this.values, kept);
        } catch (e) {
          for (const s of newSeries) s.logged = false;
          throw new StorageError(StorageErrorCode.UNAVAILABLE, `write-ahead log write failed: ${(e as Error).message}`, { cause: e });
        }
      }
      const rangeMs = head.options.blockRangeMs;
      const onSealed = head.options.onChunkSealed;
      for (let i = 0; i < kept; i++) {
        const s = this.series[i];
        const t = this.tsMs[i];
        const hadOpen = s.open !== null;
        const sealed = s.appendCommitted(t, this.values[i], rangeMs);
        if (sealed !== null && onSealed !== undefined) onSealed(s, sealed);
        if (!hadOpen || sealed !== null) head.stats.chunksCreated++;
        head.noteTime(t);
      }
      head.stats.samplesAppended += kept;
    } finally {
      this.release();
    }
  }

  rollback(): void {
    if (this.closed) throw new StorageError(StorageErrorCode.APPENDER_CLOSED, 'appender already committed or rolled back');
    this.closed = true;
    this.clearPending();
    this.release();
  }

  private stage(s: MemSeries, tMs: UnixMs, value: number): void {
    if (this.count === this.tsMs.length) this.grow();
    this.series[this.count] = s;
    this.tsMs[this.count] = tMs;
    this.values[this.count] = value;
    this.count++;
  }

  private grow(): void {
    if (this.tsMs.length === 0) {
      const pooled = stagingPool.pop();
      if (pooled !== undefined) {
        this.series = pooled.series;
        this.tsMs = pooled.tsMs;
        this.values = pooled.values;
        return;
      }
      this.series = [];
      this.tsMs = new Float64Array(512);
      this.values = new Float64Array(512);
      return;
    }
    {
      const grownT = new Float64Array(this.count * 2);
      grownT.set(this.tsMs);
      this.tsMs = grownT;
      const grownV = new Float64Array(this.count * 2);
      grownV.set(this.values);
      this.values = grownV;
    }
  }

  /**
   * Re-checks staged samples in order against what is committed now and compacts the valid ones
   * to the front of the arrays. Returns how many remain.
   */
  private validate(): number {
    const seq = commitSeq++;
    const minValid = this.head.appendableMinValidTimeMs();
    let kept = 0;
    for (let i = 0; i < this.count; i++) {
      const s = this.series[i];
      const t = this.tsMs[i];
      const v = this.values[i];
      const seen = s.commitSeq === seq;
      const lastT = seen ? s.commitTMs : s.lastTMs;
      if (t <= lastT || t < minValid) {
        if (!(t === lastT && sameBits(v, seen ? s.commitValue : s.lastValue))) this.head.stats.droppedAtCommit++;
        continue;
      }
      s.commitSeq = seq;
      s.commitTMs = t;
      s.commitValue = v;
      this.series[kept] = s;
      this.tsMs[kept] = t;
      this.values[kept] = v;
      kept++;
    }
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
      // Drop series references so removed series can be collected; keep the arrays for reuse.
      this.series.length = 0;
      stagingPool.push({ series: this.series, tsMs: this.tsMs, values: this.values });
    }
    this.series = EMPTY;
    this.tsMs = EMPTY_F64;
    this.values = EMPTY_F64;
    this.count = 0;
  }
}
