/**
 * Checkpoints: a summary of the WAL up to some segment, holding only what the head still needs
 * (the TSDB writes its live series and open chunks from memory), so that old segments can be
 * deleted and a restart replays little. The crash-safety argument is in docs/formats/wal.md ("Checkpoints").
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { noopLogger, type Logger } from '../../model/index.js';
import { DEFAULT_SEGMENT_SIZE_BYTES, checkpointDirName } from './format.js';
import { drainSteps, replayWalSteps, type ReplayOptions, type ReplayReport } from './replay.js';
import { fsyncDir, fsyncFile, listWalDir, segmentPath } from './segment-files.js';
import { Wal, type WalRecord } from './wal.js';
import { nodeWalFs, type WalFs } from './wal-fs.js';

/** Options of `writeCheckpoint`. */
export interface CheckpointOptions {
  /** The last segment the checkpoint covers. It must exist and must not be the one being written. */
  throughSegment: number;
  /**
   * Writes the checkpoint's records by calling `log` (as often as it likes). They must describe
   * everything the segments up to `throughSegment` hold that is still needed: the TSDB writes its
   * live series and open head chunks from memory right after cutting a segment.
   */
  write(log: (records: readonly WalRecord[]) => void): void;
  /** Receives a summary line and cleanup notes. */
  logger: Logger;
  /** The size of the checkpoint's own segment files; default that of the WAL (128 MiB). */
  segmentSizeBytes?: number;
  /** The file operations of the write path; default `node:fs`. */
  fs?: WalFs;
}

/** What `writeCheckpoint` did. */
export interface CheckpointResult {
  /** False when a checkpoint through `throughSegment` or later already existed (nothing done). */
  written: boolean;
  throughSegment: number;
  /** The checkpoint that was replaced and deleted, or null. */
  previous: number | null;
  /** Records and bytes written. */
  records: number;
  bytes: number;
}

/** What `replayWithCheckpoint` read. */
export interface CheckpointReplayReport {
  /** The segment the replayed checkpoint covers up to, or null when there was none. */
  checkpoint: number | null;
  /** The replay of the checkpoint's own segments, or null. */
  checkpointReport: ReplayReport | null;
  /** The replay of the WAL segments after the checkpoint. */
  segments: ReplayReport;
}

/**
 * Writes `checkpoint.<throughSegment>` into `walDir` with the records `opts.write` produces. The
 * data is written into `checkpoint.<n>.tmp`, synced, and renamed into place; the parent
 * directory is synced and older checkpoints are deleted. Afterwards the caller deletes the
 * covered segments with `wal.truncateBefore(throughSegment + 1)`. Throws `RangeError` when
 * `throughSegment` is missing or the newest segment (records logged after the checkpoint was
 * taken would then be skipped by every later replay).
 *
 * Crash safety: until the rename, a restart ignores (and deletes) the `.tmp` directory and
 * replays the previous checkpoint and every segment; after it, the new checkpoint and the
 * segments after `throughSegment`, so segments not yet truncated are simply skipped.
 */
export function writeCheckpoint(walDir: string, opts: CheckpointOptions): CheckpointResult {
  const n = opts.throughSegment;
  const listing = listWalDir(walDir);
  const previous = listing.checkpoints.length > 0 ? listing.checkpoints[listing.checkpoints.length - 1] : null;
  const segmentSizeBytes = opts.segmentSizeBytes ?? DEFAULT_SEGMENT_SIZE_BYTES;
  const io = opts.fs ?? nodeWalFs;
  if (previous !== null && previous >= n) {
    // A retry after a failed directory sync finds its checkpoint renamed already: sync again,
    // never assume the earlier attempt made the rename durable.
    fsyncDir(walDir, io);
    opts.logger.info('wal: checkpoint already covers the segments', { dir: walDir, checkpoint: previous, throughSegment: n });
    return { written: false, throughSegment: n, previous, records: 0, bytes: 0 };
  }
  if (!listing.segments.includes(n)) throw new RangeError(`wal: cannot checkpoint through missing segment ${n}`);
  if (n === listing.segments[listing.segments.length - 1]) {
    throw new RangeError(`wal: cannot checkpoint through the newest segment ${n}; cut a new segment first`);
  }

  const finalDir = path.join(walDir, checkpointDirName(n));
  const tmpDir = `${finalDir}.tmp`;
  fs.rmSync(tmpDir, { recursive: true, force: true });
  let writer: Wal | null = null;
  let stats: { recordsWritten: number; bytesWritten: number };
  try {
    const w = (writer = Wal.open({
      dir: tmpDir,
      fsync: { mode: 'never' }, // synced file by file below, once, before the rename
      logger: noopLogger,
      segmentSizeBytes,
      fs: io,
    }));
    opts.write((records) => w.log(records));
    stats = w.stats();
    w.close();
    for (const s of listWalDir(tmpDir).segments) fsyncFile(segmentPath(tmpDir, s), io);
    fsyncDir(tmpDir, io);
  } catch (err) {
    try {
      writer?.close();
    } catch {
      // The directory is removed below; the first error is the one to report.
    }
    fs.rmSync(tmpDir, { recursive: true, force: true });
    throw err;
  }
  fs.renameSync(tmpDir, finalDir);
  fsyncDir(walDir, io);
  for (const old of listing.checkpoints) fs.rmSync(path.join(walDir, checkpointDirName(old)), { recursive: true, force: true });
  if (listing.checkpoints.length > 0) fsyncDir(walDir, io);
  const out: CheckpointResult = { written: true, throughSegment: n, previous, records: stats.recordsWritten, bytes: stats.bytesWritten };
  opts.logger.info('wal: checkpoint written', { dir: walDir, ...out });
  return out;
}

/**
 * Replays a WAL directory the way a restart must: removes unfinished `checkpoint.*.tmp`
 * directories and superseded checkpoints, replays the newest complete checkpoint, then the
 * segments after it (older segments, left by a crash before truncation, are skipped). Both
 * replays repair invalid tails as `replayWal` does. A missing directory replays as empty.
 */
export function replayWithCheckpoint(walDir: string, opts: Omit<ReplayOptions, 'fromSegment'>): CheckpointReplayReport {
  return drainSteps(replayWithCheckpointSteps(walDir, opts));
}

/** `replayWithCheckpoint` as a generator yielding after each segment (see `replayWalSteps`). */
export function* replayWithCheckpointSteps(walDir: string, opts: Omit<ReplayOptions, 'fromSegment'>): Generator<number, CheckpointReplayReport> {
  const listing = listWalDir(walDir);
  for (const name of listing.checkpointTmps) {
    fs.rmSync(path.join(walDir, name), { recursive: true, force: true });
    opts.logger.info('wal: removed unfinished checkpoint', { dir: walDir, name });
  }
  const cps = listing.checkpoints;
  for (const old of cps.slice(0, -1)) {
    fs.rmSync(path.join(walDir, checkpointDirName(old)), { recursive: true, force: true });
    opts.logger.info('wal: removed superseded checkpoint', { dir: walDir, checkpoint: old });
  }
  if (listing.checkpointTmps.length > 0 || cps.length > 1) fsyncDir(walDir);
  if (cps.length === 0) {
    return { checkpoint: null, checkpointReport: null, segments: yield* replayWalSteps(walDir, opts) };
  }
  const n = cps[cps.length - 1];
  const checkpointReport = yield* replayWalSteps(path.join(walDir, checkpointDirName(n)), {
    onRecord: opts.onRecord,
    logger: opts.logger,
    reuseBuffer: opts.reuseBuffer,
  });
  const segments = yield* replayWalSteps(walDir, { onRecord: opts.onRecord, logger: opts.logger, reuseBuffer: opts.reuseBuffer, fromSegment: n + 1 });
  return { checkpoint: n, checkpointReport, segments };
}
