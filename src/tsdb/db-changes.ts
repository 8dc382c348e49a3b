import type { Appender, SeriesRef } from '../storage/index.js';
import type { Labels, UnixMs } from '../model/index.js';

/** What changed in the store after a mark (`ChangeLog.seq()` taken earlier). */
export interface StoreChanges {
  /**
   * The lowest timestamp of a sample committed after the mark; +Infinity when none was. It may be
   * lower than the truth (commits close to the mark are summarised together), never higher.
   */
  readonly minTMs: UnixMs;
  /** Samples below this time may have been deleted after the mark (retention); -Infinity when none were. */
  readonly deletedBeforeMs: UnixMs;
  /**
   * Whether a block was cut from the head after the mark. The data did not change, but a reader
   * whose selects straddled the cut may have missed the cut samples (see the engine's README), so
   * its answer must not be kept.
   */
  readonly headCut: boolean;
}

const NOTHING: StoreChanges = { minTMs: Infinity, deletedBeforeMs: -Infinity, headCut: false };

/** Options of `ChangeLog`. */
export interface ChangeLogOptions {
  /** Slots kept (default 4,096); older history is folded into the oldest slot, never lost. */
  readonly slots?: number;
  /** Events this close (ms, by `clock`) to the start of the newest slot share it (default 100). */
  readonly coalesceMs?: number;
  /** The clock that decides coalescing. */
  readonly clock: () => UnixMs;
}

/**
 * The store's change feed: a monotonic sequence number bumped by every commit, retention
 * deletion and head cut, and for any earlier sequence number the least sample time changed since
 * (`since`). A result cache takes `seq()` before it reads and asks `since(seq)` before it reuses
 * what it read: steps whose reads lie entirely below `minTMs` (and above `deletedBeforeMs`) are
 * still exact.
 *
 * Bounded: a ring of `slots` slots, each summarising the events of up to `coalesceMs` (min of
 * the sample times, max of the deletion bounds). When the ring is full the two oldest slots are
 * folded into one, so a very old mark gets a lower (more conservative) answer, never a wrong one.
 * Memory: 33 bytes a slot. Single-threaded; every method is O(1) but `since`, which walks the
 * slots newer than the mark.
 */
export class ChangeLog {
  private readonly capacity: number;
  private readonly coalesceMs: number;
  private readonly clock: () => UnixMs;
  /** Per slot: the last sequence number it covers (a slot covers `(previous slot's hi, hi]`). */
  private readonly hi: Float64Array;
  private readonly minT: Float64Array;
  private readonly deletedBefore: Float64Array;
  private readonly openedMs: Float64Array;
  private readonly cut: Uint8Array;
  /** Ring position of the oldest slot, and how many slots are in use. */
  private first = 0;
  private count = 0;
  private current = 0;

  constructor(o: ChangeLogOptions) {
    this.capacity = Math.max(2, o.slots ?? 4096);
    this.coalesceMs = o.coalesceMs ?? 100;
    this.clock = o.clock;
    this.hi = new Float64Array(this.capacity);
    this.minT = new Float64Array(this.capacity);
    this.deletedBefore = new Float64Array(this.capacity);
    this.openedMs = new Float64Array(this.capacity);
    this.cut = new Uint8Array(this.capacity);
  }

  /** The sequence number of the newest event (0 before any). */
  seq(): number {
    return this.current;
  }

  /** What changed after `seq` (a value `seq()` returned). */
  since(seq: number): StoreChanges {
    if (seq >= this.current) return NOTHING;
    let minTMs = Infinity;
    let deletedBeforeMs = -Infinity;
    let headCut = false;
    for (let k = this.count - 1; k >= 0; k--) {
      const i = (this.first + k) % this.capacity;
      if (this.hi[i] <= seq) break;
      // The slot may also hold events at or before `seq`: counting them is conservative.
      if (this.minT[i] < minTMs) minTMs = this.minT[i];
      if (this.deletedBefore[i] > deletedBeforeMs) deletedBeforeMs = this.deletedBefore[i];
      if (this.cut[i] === 1) headCut = true;
    }
    return { minTMs, deletedBeforeMs, headCut };
  }

  /** Records a commit whose samples are all at or after `minTMs`. Call once they are visible. */
  noteCommit(minTMs: UnixMs): void {
    const i = this.slot();
    if (minTMs < this.minT[i]) this.minT[i] = minTMs;
  }

  /** Records that samples below `beforeMs` may be gone. Call in the same turn as they vanish from queriers. */
  noteDeletion(beforeMs: UnixMs): void {
    const i = this.slot();
    if (beforeMs > this.deletedBefore[i]) this.deletedBefore[i] = beforeMs;
  }

  /** Records a block cut from the head. Call in the same turn as the head drops the chunks. */
  noteHeadCut(): void {
    this.cut[this.slot()] = 1;
  }

  /** Bumps the sequence and returns the ring index of the slot that covers it. */
  private slot(): number {
    this.current++;
    const now = this.clock();
    if (this.count > 0) {
      const newest = (this.first + this.count - 1) % this.capacity;
      if (now - this.openedMs[newest] < this.coalesceMs && now >= this.openedMs[newest]) {
        this.hi[newest] = this.current;
        return newest;
      }
    }
    if (this.count === this.capacity) this.foldOldest();
    const i = (this.first + this.count) % this.capacity;
    this.count++;
    this.hi[i] = this.current;
    this.minT[i] = Infinity;
    this.deletedBefore[i] = -Infinity;
    this.cut[i] = 0;
    this.openedMs[i] = now;
    return i;
  }

  /** Merges the oldest slot into the next one, which then covers both ranges. */
  private foldOldest(): void {
    const a = this.first;
    const b = (a + 1) % this.capacity;
    this.minT[b] = Math.min(this.minT[a], this.minT[b]);
    this.deletedBefore[b] = Math.max(this.deletedBefore[a], this.deletedBefore[b]);
    this.cut[b] |= this.cut[a];
    this.first = b;
    this.count--;
  }
}

/**
 * The Db's appender: the head's, plus the least timestamp it staged, noted in the change feed
 * when the commit is done (also when it failed: a failed commit may still have applied part of
 * its batch, and an extra note only costs a recomputation). Noting after the samples are visible
 * keeps the feed safe: a reader that saw them before the note treats them as changed since.
 */
export class FeedAppender implements Appender {
  private minTMs = Infinity;

  constructor(
    private readonly inner: Appender,
    private readonly changes: ChangeLog,
  ) {}

  append(ref: SeriesRef, labels: Labels, tMs: UnixMs, value: number): SeriesRef {
    const out = this.inner.append(ref, labels, tMs, value);
    if (tMs < this.minTMs) this.minTMs = tMs;
    return out;
  }

  async commit(): Promise<void> {
    try {
      await this.inner.commit();
    } finally {
      if (this.minTMs !== Infinity) this.changes.noteCommit(this.minTMs);
    }
  }

  rollback(): void {
    this.inner.rollback();
  }
}
