import fs from 'node:fs';
import path from 'node:path';
import type { Matcher, UnixMs } from '../model/index.js';
import { StorageError, StorageErrorCode, mergeSeriesSets, type Appendable, type Appender, type Queryable, type Querier, type SelectHints, type SeriesSet } from '../storage/index.js';
import { openBlocks, type Block } from './block/index.js';
import { resolveDbOptions, type DbOptions, type ResolvedDbOptions } from './db-options.js';
import { compactHead, applyRetention, type CompactionStats } from './db-compact.js';
import { WalCommitLog, checkpointHead, loadHeadChunks, replayWalIntoHead, type HeadReplayReport } from './db-wal.js';
import { HeadChunksLog } from './head-chunks-log.js';
import { DirLock } from './db-lock.js';
import { Head } from './head/index.js';
import { Wal } from './wal/index.js';
import type { DbStats } from './db-stats.js';
import { ChangeLog, FeedAppender } from './db-changes.js';

/**
 * The least time between two attempts to recover the WAL after an I/O error: an attempt writes
 * a checkpoint of the whole head, too costly to repeat at every refused commit while a disk
 * stays broken.
 */
const WAL_RECOVERY_RETRY_MS = 1000;

/** A block with the number of open queriers reading it; deletion waits for zero. */
export interface PinnedBlock {
  block: Block;
  pins: number;
  /** Set when retention removed the block while it was pinned; the last unpin deletes it. */
  doomed: boolean;
}

/**
 * The embedded time-series database: an in-memory head backed by a write-ahead log, and
 * immutable on-disk blocks cut from the head every `blockRangeMs`. It is both an `Appendable`
 * and a `Queryable`; queriers merge blocks and head transparently.
 *
 * Opening replays the WAL (checkpoint first), so it takes time proportional to the head's size;
 * it returns once the store is ready. Compaction and retention run after commits and on a timer,
 * one at a time, without blocking appends (appends keep landing in the head).
 */
export class Db implements Appendable, Queryable {
  /** @internal */ blocks: PinnedBlock[];
  private closed = false;
  private compacting: Promise<void> | null = null;
  private readonly timer: NodeJS.Timeout;
  /** @internal */ readonly compaction: CompactionStats = { runs: 0, failures: 0, secondsTotal: 0, blocksDeleted: 0 };
  private readonly checkpoints = { count: 0, secondsTotal: 0 };
  private walBytesAtCheckpoint = 0;
  private lastCheckpointBytes = 0;
  private lastRecoveryAttemptMs = -Infinity;
  /**
   * The change feed (`db-changes.ts`): every commit, retention deletion and head cut, with the
   * least sample time each touches, for result caches that must know which answers still hold.
   */
  readonly changes: ChangeLog;

  private constructor(
    readonly options: ResolvedDbOptions,
    private readonly lock: DirLock,
    readonly head: Head,
    /** @internal */ readonly wal: Wal,
    /** @internal */ readonly chunksLog: HeadChunksLog,
    blocks: Block[],
    /** What the replay at open found. */
    readonly replay: HeadReplayReport & { durationSeconds: number },
  ) {
    this.blocks = blocks.map((block) => ({ block, pins: 0, doomed: false }));
    this.changes = new ChangeLog({ clock: options.clock });
    // Look at the head after each commit; compaction and checkpoints themselves run later, async.
    head.options.afterCommit = () => {
      if (this.isCompactable() || this.needsCheckpoint()) this.maybeCompact();
    };
    this.timer = setInterval(() => this.maybeCompact(), 60_000);
    this.timer.unref();
  }

  /**
   * Opens (or creates) the database in `options.dir` and replays its WAL, giving the event loop
   * a turn after every WAL segment so that a server can answer (`/-/ready`: 503) meanwhile.
   */
  static async open(options: DbOptions): Promise<Db> {
    const o = resolveDbOptions(options);
    const started = performance.now();
    fs.mkdirSync(o.dir, { recursive: true });
    const lock = DirLock.acquire(o.dir);
    let blocks: Block[];
    try {
      blocks = openBlocks(o.dir, o.logger);
    } catch (e) {
      lock.release();
      throw e;
    }
    const head = new Head({ blockRangeMs: o.blockRangeMs, oooWindowMs: o.outOfOrderWindowMs, log: null, maxSeries: o.maxSeries });
    const newestBlockEnd = blocks.reduce((m, b) => Math.max(m, b.meta.maxTimeMs), -Infinity);
    head.minValidTimeMs = newestBlockEnd;
    const walDir = path.join(o.dir, 'wal');
    const chunksDir = path.join(o.dir, 'chunks_head');
    let replay: HeadReplayReport;
    let chunksLog: HeadChunksLog | null = null;
    try {
      const loaded = await drainYielding(loadHeadChunks(chunksDir, head.minValidTimeMs, o.logger, head.chunks));
      head.reserveRef(loaded.maxRef);
      // Open the head-chunks log before the WAL replay: chunks the replay seals go there too.
      chunksLog = HeadChunksLog.open(chunksDir, o.fsync, o.logger, loaded.segmentMaxTimeMs, head.chunks, { fs: o.fs, scheduler: o.fsyncScheduler });
      const log = chunksLog;
      head.options.onChunkSealed = (series, chunk) => log.add(series.ref, chunk);
      replay = await drainYielding(replayWalIntoHead(walDir, head, loaded, o.logger));
    } catch (e) {
      chunksLog?.close();
      for (const b of blocks) b.close();
      lock.release();
      throw e;
    }
    const truncations = [replay.wal.segments, replay.wal.checkpointReport, replay.headChunks];
    const corruptions = truncations.filter((r) => r?.truncated).length;
    let wal: Wal;
    try {
      wal = Wal.open({ dir: walDir, fsync: o.fsync, segmentSizeBytes: o.walSegmentBytes, logger: o.logger, corruptionsRepaired: corruptions, fs: o.fs, scheduler: o.fsyncScheduler });
    } catch (e) {
      chunksLog.close();
      for (const b of blocks) b.close();
      lock.release();
      throw e;
    }
    head.options.log = new WalCommitLog(wal);
    const durationSeconds = (performance.now() - started) / 1000;
    o.logger.info('tsdb opened', {
      dir: o.dir,
      blocks: blocks.length,
      series: head.numSeries(),
      chunksLoaded: replay.chunksLoaded,
      samplesReplayed: replay.samples,
      walSegments: replay.wal.segments.segmentsRead,
      seconds: durationSeconds.toFixed(3),
    });
    return new Db(o, lock, head, wal, chunksLog, blocks, { ...replay, durationSeconds });
  }

  /**
   * A new appender. While the WAL refuses writes after an I/O error, it first tries the recovery
   * (at most once a second): before anything is staged, so that a recovery checkpoint never
   * holds a series of a commit that then fails. Its commit notes the batch in `changes`.
   */
  appender(): Appender {
    this.checkOpen();
    if (this.wal.needsRecovery) this.recoverWal();
    return new FeedAppender(this.head.appender(), this.changes);
  }

  querier(minTMs: UnixMs, maxTMs: UnixMs): Querier {
    this.checkOpen();
    const pinned = this.blocks.filter((p) => p.block.meta.maxTimeMs > minTMs && p.block.meta.minTimeMs <= maxTMs);
    for (const p of pinned) p.pins++;
    const queriers = [...pinned.map((p) => p.block.querier(minTMs, maxTMs)), this.head.querier(minTMs, maxTMs)];
    return new DbQuerier(queriers, () => {
      for (const p of pinned) {
        p.pins--;
        if (p.doomed && p.pins === 0) p.block.close();
      }
    });
  }

  /** Reports whether the head spans enough time to cut a block (Prometheus: 1.5 block ranges). */
  isCompactable(): boolean {
    const h = this.head;
    return h.maxTimeMs - h.minTimeMs > this.options.blockRangeMs * 1.5;
  }

  /**
   * Cuts every compactable block range out of the head, then applies retention. Runs one at a
   * time; a call while one runs waits for it. Errors are logged and counted, never thrown at the
   * appender.
   */
  async compact(): Promise<void> {
    while (this.compacting !== null) await this.compacting;
    if (this.closed) return;
    this.compacting = (async () => {
      try {
        while (!this.closed && this.isCompactable()) await compactHead(this);
        if (!this.closed && (this.needsCheckpoint() || this.wal.needsRecovery)) this.checkpoint();
        if (!this.closed) await applyRetention(this);
      } catch (e) {
        this.compaction.failures++;
        this.options.logger.error('compaction failed', { err: (e as Error).message });
      }
    })();
    try {
      await this.compacting;
    } finally {
      this.compacting = null;
    }
  }

  /**
   * Reports whether the WAL has grown enough since the last checkpoint to write another: at
   * least `walCheckpointBytes`, and at least as much as the last checkpoint wrote, so that
   * checkpoints never write more than the WAL itself (bounded write amplification) while replay
   * after a crash reads at most about that much WAL.
   */
  needsCheckpoint(): boolean {
    const written = this.wal.stats().bytesWritten - this.walBytesAtCheckpoint;
    return written >= Math.max(this.options.walCheckpointBytes, this.lastCheckpointBytes);
  }

  /** Writes a WAL checkpoint from memory now and deletes the WAL segments it covers. */
  checkpoint(): void {
    this.checkOpen();
    this.checkpointNow();
  }

  private checkpointNow(): void {
    const started = performance.now();
    const o = this.options;
    const result = checkpointHead(path.join(o.dir, 'wal'), this.wal, this.head, this.chunksLog, o.logger, o.walSegmentBytes, o.fs);
    this.walBytesAtCheckpoint = this.wal.stats().bytesWritten;
    this.lastCheckpointBytes = result.bytes;
    this.checkpoints.count++;
    this.checkpoints.secondsTotal += (performance.now() - started) / 1000;
  }

  /** Self-monitoring numbers; see `DbStats`. */
  stats(): DbStats {
    let blockBytes = 0;
    for (const p of this.blocks) blockBytes += p.block.sizeBytes();
    return {
      head: { ...this.head.stats, series: this.head.numSeries(), minTimeMs: this.head.minTimeMs, maxTimeMs: this.head.maxTimeMs },
      wal: this.wal.stats(),
      blocks: { count: this.blocks.length, bytes: blockBytes },
      compaction: { ...this.compaction },
      checkpoints: { ...this.checkpoints },
      replaySeconds: this.replay.durationSeconds,
    };
  }

  /** Waits for a running compaction, syncs and closes the WAL, closes every block. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    if (this.compacting !== null) await this.compacting.catch(() => undefined);
    if (this.wal.needsRecovery) this.tryRecoverWal(); // a last chance to make the head durable
    try {
      // A full disk can fail the last sync or flush: close every file and the lock regardless.
      for (const log of [this.wal, this.chunksLog]) {
        try {
          log.close();
        } catch (e) {
          this.options.logger.error('tsdb: closing a log failed', { err: (e as Error).message });
        }
      }
      for (const p of this.blocks) p.block.close();
    } finally {
      this.lock.release();
    }
  }

  /**
   * Called for a new appender while the WAL refuses writes after an I/O error: writes the
   * recovery checkpoint (`checkpointHead`) unless an attempt ran within `WAL_RECOVERY_RETRY_MS`.
   * Never throws; the appender's commit then fails with the WAL's own error.
   */
  private recoverWal(): void {
    const now = this.options.clock();
    if (now - this.lastRecoveryAttemptMs < WAL_RECOVERY_RETRY_MS) return;
    this.lastRecoveryAttemptMs = now;
    this.tryRecoverWal();
  }

  private tryRecoverWal(): void {
    try {
      this.checkpointNow();
    } catch (e) {
      this.options.logger.error('wal: recovery after an I/O error failed; writes stay refused', { err: (e as Error).message });
    }
  }

  private maybeCompact(): void {
    if (this.compacting !== null || this.closed) return;
    this.compact().catch(() => undefined); // compact() logs its own failures
  }

  private checkOpen(): void {
    if (this.closed) throw new StorageError(StorageErrorCode.STORAGE_CLOSED, 'the TSDB is closed');
  }
}

/** A querier over blocks and head that merges their series and unpins the blocks on close. */
class DbQuerier implements Querier {
  private closed = false;

  constructor(
    private readonly parts: Querier[],
    private readonly release: () => void,
  ) {}

  select(matchers: readonly Matcher[], hints?: SelectHints): SeriesSet {
    return mergeSeriesSets(this.parts.map((q) => q.select(matchers, hints)));
  }

  labelNames(matchers?: readonly Matcher[]): string[] {
    return mergeSorted(this.parts.map((q) => q.labelNames(matchers)));
  }

  labelValues(name: string, matchers?: readonly Matcher[]): string[] {
    return mergeSorted(this.parts.map((q) => q.labelValues(name, matchers)));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const q of this.parts) q.close();
    this.release();
  }
}

/** Runs a step generator to its end, giving the event loop a turn after every step. */
async function drainYielding<T>(steps: Generator<number, T>): Promise<T> {
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done === true) return step.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

function mergeSorted(lists: string[][]): string[] {
  if (lists.length === 1) return lists[0];
  return [...new Set(lists.flat())].sort();
}
