import { Labels, METRIC_NAME_LABEL, type UnixMs } from '../../model/index.js';
import { StorageError, StorageErrorCode, type Appender, type Querier } from '../../storage/index.js';
import { HeadAppender, type CommitLog } from './head-appender.js';
import { ChunkStore, NO_CHUNK } from './chunk-store.js';
import { HeadQuerier } from './head-querier.js';
import { MemPostings } from './postings.js';
import { SeriesColumns } from './series-columns.js';
import { MemSeries } from './mem-series.js';

/**
 * Where the temporary refs of pending series start: far above any real ref (refs count up from 1),
 * still exact as doubles. A temporary ref is never handed out twice.
 */
const TEMP_REF_BASE = 2 ** 52;

/** Options of the in-memory head. */
export interface HeadOptions {
  /** Block range: chunks are cut at multiples of it so blocks never split a chunk. */
  blockRangeMs: UnixMs;
  /** Where commits are made durable before they become visible (the WAL); null for memory only. */
  log: CommitLog | null;
  /**
   * How far behind the newest sample in the head a sample may be and still be accepted out of
   * order (Prometheus' `out_of_order_time_window`); 0 disables. Never further back than the
   * newest persisted block.
   */
  oooWindowMs: UnixMs;
  /** The most series (published and pending) `createPending` may bring the head to; 0 or absent: no limit. */
  maxSeries?: number;
  /** Called after every successful commit (the DB checks whether to compact or checkpoint). */
  afterCommit?: () => void;
  /** Called with every chunk the head seals (its id in `Head.chunks`), so it can be persisted (head chunks file). */
  onChunkSealed?: (series: MemSeries, chunkId: number) => void;
}

/** Counters the head keeps for self-monitoring. Plain numbers, read by the metrics exporter. */
export interface HeadStats {
  seriesCreated: number;
  /** New series refused by the `maxSeries` limit. */
  seriesRefused: number;
  seriesRemoved: number;
  samplesAppended: number;
  outOfOrderRejected: number;
  duplicateRejected: number;
  outOfBoundsRejected: number;
  tooOldRejected: number;
  oooAppended: number;
  droppedAtCommit: number;
  chunksCreated: number;
  /** Series an appender created and then dropped, because none of their samples was committed. */
  seriesDiscarded: number;
}

/**
 * The in-memory head of the TSDB: every series with recent samples, an inverted index over their
 * labels, and their compressed chunks. Writes arrive through `appender()`; reads through
 * `querier()`. The DB cuts old chunks into blocks and then calls `truncateBefore`.
 */
export class Head {
  /** Series by ref (refs start at 1; removed series leave holes). */
  private readonly byRef: (MemSeries | undefined)[] = [];
  private readonly byHash = new Map<number, MemSeries>();
  private readonly symbols = new Map<string, string>();
  private readonly columns = new SeriesColumns();
  /** The sealed chunks of every series. */
  readonly chunks = new ChunkStore();
  /** Pending series: by temporary ref, and their numbers in slots that are reused. */
  private readonly pendingByRef = new Map<number, MemSeries>();
  private readonly pendingColumns = new SeriesColumns();
  private readonly freeSlots: number[] = [];
  private nextSlot = 0;
  private nextTempRef = TEMP_REF_BASE;
  readonly postings = new MemPostings();
  private lastRef = 0;
  private numSeriesLive = 0;
  private numPending = 0;
  /** Time bounds of the samples in the head; +Inf/-Inf when empty. */
  minTimeMs: UnixMs = Infinity;
  maxTimeMs: UnixMs = -Infinity;
  /** Samples older than this are out of bounds (they would belong to a persisted block). */
  minValidTimeMs: UnixMs = -Infinity;
  readonly stats: HeadStats = {
    seriesCreated: 0,
    seriesRefused: 0,
    seriesRemoved: 0,
    samplesAppended: 0,
    outOfOrderRejected: 0,
    duplicateRejected: 0,
    outOfBoundsRejected: 0,
    tooOldRejected: 0,
    oooAppended: 0,
    droppedAtCommit: 0,
    chunksCreated: 0,
    seriesDiscarded: 0,
  };

  constructor(readonly options: HeadOptions) {}

  /** Number of series currently in the head (published ones: with at least one committed sample). */
  numSeries(): number {
    return this.numSeriesLive;
  }

  /** Number of series open appenders created that are not published yet. */
  numPendingSeries(): number {
    return this.numPending;
  }

  /** The series with `ref`, if it is in the head (published, or pending with its temporary ref). */
  seriesByRef(ref: number): MemSeries | undefined {
    return ref >= TEMP_REF_BASE ? this.pendingByRef.get(ref) : this.byRef[ref];
  }

  /** Every published series in ref order (for compaction, checkpoints and stats). */
  *allSeries(): IterableIterator<MemSeries> {
    for (const s of this.byRef) if (s !== undefined && s.published) yield s;
  }

  /** The series with exactly these labels, published or pending, if the head has it. */
  lookup(labels: Labels): MemSeries | undefined {
    for (let s = this.byHash.get(labels.hash()) ?? null; s !== null; s = s.nextInBucket) {
      if (s.labels.equals(labels)) return s;
    }
    return undefined;
  }

  /**
   * The series with exactly these labels, created, indexed and published when new (a pending
   * one is published). Throws `ERR_INVALID_LABELS` for a label set without a metric name or with
   * an empty label name. `ref` forces the ref of a new series (WAL replay); 0 assigns the next one.
   */
  getOrCreate(labels: Labels, ref = 0): MemSeries {
    const found = this.lookup(labels);
    if (found !== undefined) {
      if (!found.published) this.publish(found);
      return found;
    }
    const series = this.insert(labels, ref);
    this.publish(series);
    return series;
  }

  /**
   * A new series for an appender that stages its first sample: known by labels and by a
   * temporary ref (so that a second appender staging the same labels shares it), but in no
   * postings list, not counted, and holding no real ref nor a slot of the ref-indexed columns.
   * The appender holds it (`holders`). The commit of its first sample gives it a real ref
   * (`assignRef`, before the log write, which records refs) and then publishes it; when the last
   * holder closes without that (rollback, every sample refused, a failed log write),
   * `releasePending` forgets it and its slot is reused. So a refused write leaves nothing behind
   * in the head, not even an empty column slot. A temporary ref a caller kept as a hint resolves
   * to nothing later, and the series is then found by its labels. Throws like `getOrCreate`.
   */
  createPending(labels: Labels): MemSeries {
    validateLabels(labels);
    const max = this.options.maxSeries ?? 0;
    if (max > 0 && this.numSeriesLive + this.numPending >= max) {
      this.stats.seriesRefused++;
      throw new StorageError(
        StorageErrorCode.LIMIT_EXCEEDED,
        `head series limit exceeded: the store holds ${this.numSeriesLive} series (${this.numPending} more pending) and may hold at most ${max} (--storage.tsdb.max-series); refused new series ${labels.toString().slice(0, 200)}`,
      );
    }
    const slot = this.freeSlots.pop() ?? this.nextSlot++;
    const series = new MemSeries(this.nextTempRef++, labels, this.pendingColumns, this.chunks, slot);
    this.link(series);
    this.pendingByRef.set(series.ref, series);
    this.numPending++;
    return series;
  }

  /** Gives pending series `s` its real ref (it stays pending until `publish`). */
  assignRef(s: MemSeries): void {
    if (s.ref < TEMP_REF_BASE) return;
    this.pendingByRef.delete(s.ref);
    this.freeSlots.push(s.columnIndex);
    s.moveTo(++this.lastRef, this.columns);
    this.byRef[s.ref] = s;
  }

  /** Makes a pending series a real one: a real ref, interned labels, indexed, counted. */
  publish(s: MemSeries): void {
    if (s.published) return;
    this.assignRef(s);
    s.published = true;
    this.numPending--;
    s.labels = this.intern(s.labels);
    this.postings.add(s.ref, s.labels);
    this.numSeriesLive++;
    this.stats.seriesCreated++;
  }

  /**
   * Called by an appender that held pending series `s` when it closes: once no appender holds it
   * and it is still not published, it is forgotten. (Only a series whose log write failed had a
   * real ref by then; that ref is never handed out again.)
   */
  releasePending(s: MemSeries): void {
    if (--s.holders > 0 || s.published) return;
    this.unlink(s);
    if (s.ref >= TEMP_REF_BASE) {
      this.pendingByRef.delete(s.ref);
      this.freeSlots.push(s.columnIndex);
    }
    this.numPending--;
    this.stats.seriesDiscarded++;
  }

  private insert(labels: Labels, ref: number): MemSeries {
    validateLabels(labels);
    if (ref === 0 || this.byRef[ref] !== undefined) ref = ++this.lastRef;
    else if (ref > this.lastRef) this.lastRef = ref;
    const series = new MemSeries(ref, labels, this.columns, this.chunks);
    this.link(series);
    this.byRef[ref] = series;
    this.numPending++;
    return series;
  }

  /** Puts `s` into its hash chain. */
  private link(s: MemSeries): void {
    const hash = s.labels.hash();
    s.nextInBucket = this.byHash.get(hash) ?? null;
    this.byHash.set(hash, s);
  }

  /** Makes sure refs up to `ref` are never handed out again (WAL replay of aliased refs). */
  reserveRef(ref: number): void {
    if (ref > this.lastRef) this.lastRef = ref;
  }

  /** Opens an appender. */
  appender(): Appender {
    return new HeadAppender(this);
  }

  /** Opens a querier over `[minTMs, maxTMs]`. */
  querier(minTMs: UnixMs, maxTMs: UnixMs): Querier {
    return new HeadQuerier(this, minTMs, maxTMs);
  }

  /** The lowest timestamp an append may carry now (Prometheus' appendable window). */
  appendableMinValidTimeMs(): UnixMs {
    // Like Prometheus, refuse samples more than half a block range behind the newest one, so the
    // head never grows backwards past what the next block cut can take.
    return Math.max(this.minValidTimeMs, this.maxTimeMs - this.options.blockRangeMs / 2);
  }

  /** The lowest timestamp the out-of-order window accepts now. */
  oooMinValidTimeMs(): UnixMs {
    return Math.max(this.minValidTimeMs, this.maxTimeMs - this.options.oooWindowMs);
  }

  /**
   * Puts a committed in-order sample into its series' chunks: seals a full chunk (handing it to
   * `onChunkSealed`), counts new chunks, and widens the head's time range. The one path both
   * commits and WAL replay take, so a sealed chunk always reaches the head-chunks log.
   */
  appendCommitted(s: MemSeries, tMs: UnixMs, value: number): void {
    const hadOpen = s.open !== null;
    const sealed = s.appendCommitted(tMs, value, this.options.blockRangeMs);
    if (sealed !== NO_CHUNK) this.options.onChunkSealed?.(s, sealed);
    if (!hadOpen || sealed !== NO_CHUNK) this.stats.chunksCreated++;
    this.noteTime(tMs);
  }

  /** Records that a committed sample at `tMs` entered the head. */
  noteTime(tMs: UnixMs): void {
    if (tMs < this.minTimeMs) this.minTimeMs = tMs;
    if (tMs > this.maxTimeMs) this.maxTimeMs = tMs;
  }

  /**
   * Drops every chunk before `minTMs` (now persisted in a block), raises the minimum valid time,
   * and removes series left without samples. Returns the refs of removed series.
   */
  truncateBefore(minTMs: UnixMs): Set<number> {
    this.minValidTimeMs = Math.max(this.minValidTimeMs, minTMs);
    const removed = new Set<number>();
    let newMin = Infinity;
    for (const s of this.allSeries()) {
      s.truncateBefore(minTMs);
      const sMin = s.minTimeMs();
      if (sMin === Infinity && s.pendingOwner === 0) removed.add(s.ref);
      else if (sMin < newMin) newMin = sMin;
    }
    this.postings.delete(removed, (ref) => (this.byRef[ref] as MemSeries).labels);
    for (const ref of removed) this.removeSeries(ref);
    if (removed.size > 0) this.rebuildSymbols();
    this.minTimeMs = newMin;
    if (newMin === Infinity) this.maxTimeMs = Math.max(this.maxTimeMs, minTMs - 1);
    return removed;
  }

  private removeSeries(ref: number): void {
    const s = this.byRef[ref];
    if (s === undefined) return;
    this.unlink(s);
    this.numSeriesLive--;
    this.stats.seriesRemoved++;
  }

  /** Takes `s` out of the hash chains and the ref table. */
  private unlink(s: MemSeries): void {
    const hash = s.labels.hash();
    let prev: MemSeries | null = null;
    for (let cur = this.byHash.get(hash) ?? null; cur !== null; prev = cur, cur = cur.nextInBucket) {
      if (cur !== s) continue;
      if (prev === null) {
        if (cur.nextInBucket === null) this.byHash.delete(hash);
        else this.byHash.set(hash, cur.nextInBucket);
      } else prev.nextInBucket = cur.nextInBucket;
      break;
    }
    if (this.byRef[s.ref] === s) this.byRef[s.ref] = undefined;
  }

  /** Drops symbols no live series uses any more. */
  private rebuildSymbols(): void {
    this.symbols.clear();
    for (const s of this.allSeries()) for (const sym of s.labels.flat()) this.symbols.set(sym, sym);
  }

  /** Replaces each label string by one shared instance, so 300k series share their symbols. */
  private intern(labels: Labels): Labels {
    const flat = labels.flat();
    const out = new Array<string>(flat.length);
    for (let i = 0; i < flat.length; i++) {
      const s = flat[i];
      let canonical = this.symbols.get(s);
      if (canonical === undefined) {
        // Flatten sliced/concatenated strings so the symbol table does not pin their parents.
        canonical = s.length > 0 ? (' ' + s).slice(1) : s;
        this.symbols.set(canonical, canonical);
      }
      out[i] = canonical;
    }
    return Labels.fromSortedPairsUnchecked(out);
  }
}

function validateLabels(labels: Labels): void {
  if (labels.get(METRIC_NAME_LABEL) === '') {
    throw new StorageError(StorageErrorCode.INVALID_LABELS, `series ${labels.toString()} has no metric name`);
  }
  for (let i = 0; i < labels.size; i++) {
    if (labels.nameAt(i) === '') throw new StorageError(StorageErrorCode.INVALID_LABELS, `series ${labels.toString()} has an empty label name`);
  }
}
