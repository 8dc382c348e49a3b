/**
 * The options, policies and counters of the WAL writer (`wal.ts`), kept apart so that the
 * writer's file reads as the write path alone.
 */
import type { DurationMs, Logger } from '../../model/index.js';
import type { RecordType } from './format.js';
import type { WalFs } from './wal-fs.js';

/**
 * When the WAL asks the kernel to put written data on stable storage. In every mode a record
 * is in the OS page cache once `log` returns, so it survives a crash of the process (kill -9).
 * The modes differ in what a power loss or kernel crash can take (docs/formats/wal.md):
 * - `always`: fdatasync before `log` returns; nothing acknowledged is lost.
 * - `interval`: a timer syncs every `intervalMs` when something was written; up to about
 *   `intervalMs` of acknowledged records can be lost.
 * - `never`: the OS writes back on its own (about 30 s on Linux defaults); that much can be lost.
 */
export type FsyncPolicy = { mode: 'always' } | { mode: 'interval'; intervalMs: DurationMs } | { mode: 'never' };

/** Runs a callback periodically; injected so that tests drive the interval policy by hand. */
export interface IntervalScheduler {
  /** Calls `fn` every `intervalMs` until the returned handle is cancelled; must not keep the process alive. */
  every(intervalMs: DurationMs, fn: () => void): { cancel(): void };
}

/** Options of `Wal.open`. */
export interface WalOptions {
  /** The WAL directory; created when missing. */
  dir: string;
  /** The size past which the next `log` starts a new segment; default 128 MiB. */
  segmentSizeBytes?: number;
  /** The fsync policy. */
  fsync: FsyncPolicy;
  /** Where the WAL reports segment changes and background sync failures. */
  logger: Logger;
  /** A monotonic clock in milliseconds used to time fsyncs; default `performance.now`. */
  now?: () => number;
  /** The timer for the `interval` policy; default `setInterval`, unref'd. */
  scheduler?: IntervalScheduler;
  /** Corruptions the replay before this open repaired, carried into `stats()`; default 0. */
  corruptionsRepaired?: number;
  /** The file operations of the write path; default `node:fs` (tests inject faults here). */
  fs?: WalFs;
  /** An fsync taking at least this long is logged as a warning and counted; default 1000 ms. */
  slowFsyncMs?: DurationMs;
}

/** Self-monitoring counters of one `Wal`, all cumulative since `open`. */
export interface WalStats {
  segmentsCreated: number;
  recordsWritten: number;
  /** Bytes written to segment files, headers and frame headers included. */
  bytesWritten: number;
  /** fdatasync/fsync calls on segments and the WAL directory. */
  fsyncs: number;
  fsyncSecondsTotal: number;
  /** Calls of `truncateBefore`. */
  truncations: number;
  corruptionsRepaired: number;
  /** Writes and segment creations that failed (a full disk, an I/O error); none was acknowledged. */
  writeFailures: number;
  /** fsyncs that failed; each one made the WAL refuse writes until its owner recovered it. */
  fsyncFailures: number;
  /** fsyncs that took at least `slowFsyncMs`. */
  slowFsyncs: number;
}

/** One record to log: its type and its encoded payload. The WAL copies the payload. */
export interface WalRecord {
  readonly type: RecordType;
  readonly payload: Uint8Array;
}

/** The production scheduler: `setInterval`, unref'd so that it never keeps the process alive. */
export const defaultScheduler: IntervalScheduler = {
  every(intervalMs, fn) {
    const handle = setInterval(fn, intervalMs);
    handle.unref();
    return { cancel: () => clearInterval(handle) };
  },
};

