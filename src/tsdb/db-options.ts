import { noopLogger, systemClock, type Clock, type DurationMs, type Logger } from '../model/index.js';
import { defaultScheduler, nodeWalFs, type FsyncPolicy, type IntervalScheduler, type WalFs } from './wal/index.js';

/** Options of `Db.open`. Every field but `dir` has a production default. */
export interface DbOptions {
  /** The data directory: `wal/` and one directory per block. Created when missing. */
  dir: string;
  /** Width of a block (and alignment of head chunks); default 2 h, as Prometheus. */
  blockRangeMs?: DurationMs;
  /** Delete blocks whose end is this far behind the newest block's end; default 15 d; 0 disables. */
  retentionMs?: DurationMs;
  /** Delete the oldest blocks while blocks + WAL + head-chunks log exceed this many bytes; 0 (default) disables. */
  retentionBytes?: number;
  /**
   * When the WAL is fsynced. Default `{ mode: 'interval', intervalMs: 1000 }`: a process crash
   * loses nothing acknowledged; a power loss can lose up to about one second of writes. See
   * docs/formats/wal.md for the full table.
   */
  fsync?: FsyncPolicy;
  /** WAL segment size; default 128 MiB. */
  walSegmentBytes?: number;
  /**
   * Write a WAL checkpoint once the WAL has grown by this much (and by at least the size of the
   * last checkpoint) since the previous one; default 64 MiB. It bounds how much WAL a restart
   * after a crash replays sample by sample.
   */
  walCheckpointBytes?: number;
  /**
   * Accept samples up to this far behind the newest sample in the store even when they are older
   * than their series' newest sample (Prometheus' `out_of_order_time_window`); default 0: such
   * samples are rejected with `ERR_OUT_OF_ORDER_SAMPLE`, as Prometheus does by default. Samples
   * older than the newest block are always rejected.
   */
  outOfOrderWindowMs?: DurationMs;
  /**
   * The most series the head may hold, pending ones included; an append that would create one
   * more is refused with `ERR_LIMIT_EXCEEDED` (the sample is not staged, the appender stays
   * usable) and leaves nothing behind. Every writer meets it: receivers, scrapes, the gateway,
   * rules. Series replayed from the WAL are never refused. Default 0: no limit.
   */
  maxSeries?: number;
  /** Wall clock (block ids, durations). */
  clock?: Clock;
  /** Random source in [0, 1) for block ids. */
  random?: () => number;
  logger?: Logger;
  /**
   * The file operations of the WAL, its checkpoints and the head-chunks log; default `node:fs`.
   * Tests inject a full disk or a failing fsync here (`wal/testing/faulty-fs.ts`).
   */
  fs?: WalFs;
  /** The timer of the `interval` fsync policy (WAL and head-chunks log); default `setInterval`, unref'd. */
  fsyncScheduler?: IntervalScheduler;
}

/** `DbOptions` with every default applied. */
export type ResolvedDbOptions = Required<DbOptions>;

/** Two hours: Prometheus' default block range. */
export const DEFAULT_BLOCK_RANGE_MS: DurationMs = 2 * 3_600_000;
/** Fifteen days: Prometheus' default retention. */
export const DEFAULT_RETENTION_MS: DurationMs = 15 * 86_400_000;

/** Applies the defaults. */
export function resolveDbOptions(o: DbOptions): ResolvedDbOptions {
  return {
    dir: o.dir,
    blockRangeMs: o.blockRangeMs ?? DEFAULT_BLOCK_RANGE_MS,
    retentionMs: o.retentionMs ?? DEFAULT_RETENTION_MS,
    retentionBytes: o.retentionBytes ?? 0,
    fsync: o.fsync ?? { mode: 'interval', intervalMs: 1000 },
    walSegmentBytes: o.walSegmentBytes ?? 128 * 1024 * 1024,
    walCheckpointBytes: o.walCheckpointBytes ?? 64 * 1024 * 1024,
    outOfOrderWindowMs: o.outOfOrderWindowMs ?? 0,
    maxSeries: o.maxSeries ?? 0,
    clock: o.clock ?? systemClock,
    random: o.random ?? Math.random,
    logger: o.logger ?? noopLogger,
    fs: o.fs ?? nodeWalFs,
    fsyncScheduler: o.fsyncScheduler ?? defaultScheduler,
  };
}
