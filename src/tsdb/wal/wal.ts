/**
 * The WAL writer: frames records into numbered segment files, one write syscall per `log` call,
 * with a configurable fsync policy. Format: docs/formats/wal.md.
 */
import * as fs from 'node:fs';
import { crc32 } from 'node:zlib';
import type { Logger } from '../../model/index.js';
import { StorageError, StorageErrorCode } from '../../storage/index.js';
import { ByteBuffer } from './byte-buffer.js';
import {
  DEFAULT_SEGMENT_SIZE_BYTES,
  FRAME_HEADER_BYTES,
  MAX_PAYLOAD_BYTES,
  SEGMENT_HEADER_BYTES,
  isKnownRecordType,
  writeSegmentHeader,
} from './format.js';
import { fsyncDir, listWalDir, segmentPath, writeAll } from './segment-files.js';
import { defaultScheduler, type FsyncPolicy, type WalOptions, type WalRecord, type WalStats } from './wal-options.js';

export type { FsyncPolicy, IntervalScheduler, WalOptions, WalRecord, WalStats } from './wal-options.js';

/**
 * An open write-ahead log. Single-threaded by construction: every method is synchronous and
 * must be called from the thread that opened it. Methods throw `StorageError` with
 * `ERR_STORAGE_CLOSED` after `close`, and `ERR_STORAGE_UNAVAILABLE` when an I/O error left
 * the WAL unable to guarantee its contract (it then refuses every later write).
 */
export class Wal {
  private fd = -1;
  private segment = -1;
  private segmentBytes = 0;
  private dirty = false;
  private closed = false;
  private broken: Error | null = null;
  private timer: { cancel(): void } | null = null;
  private readonly frames = new ByteBuffer(64 * 1024);
  private readonly counters: WalStats;

  private constructor(
    private readonly dir: string,
    private readonly segmentSizeBytes: number,
    private readonly policy: FsyncPolicy,
    private readonly logger: Logger,
    private readonly now: () => number,
    corruptionsRepaired: number,
  ) {
    this.counters = {
      segmentsCreated: 0,
      recordsWritten: 0,
      bytesWritten: 0,
      fsyncs: 0,
      fsyncSecondsTotal: 0,
      truncations: 0,
      corruptionsRepaired,
    };
  }

  /**
   * Opens the WAL in `opts.dir`, creating the directory when needed, and starts a new segment
   * numbered after every existing segment and checkpoint: it never appends to an old segment,
   * whose tail may be torn. Replay (`replayWithCheckpoint`) must run before, never after.
   */
  static open(opts: WalOptions): Wal {
    const size = opts.segmentSizeBytes ?? DEFAULT_SEGMENT_SIZE_BYTES;
    if (!Number.isSafeInteger(size) || size < SEGMENT_HEADER_BYTES + FRAME_HEADER_BYTES) {
      throw new RangeError(`wal: segmentSizeBytes ${size} is too small`);
    }
    if (opts.fsync.mode === 'interval' && !(opts.fsync.intervalMs > 0)) {
      throw new RangeError(`wal: fsync intervalMs ${opts.fsync.intervalMs} must be positive`);
    }
    fs.mkdirSync(opts.dir, { recursive: true });
    const listing = listWalDir(opts.dir);
    const highest = Math.max(-1, ...listing.segments.slice(-1), ...listing.checkpoints.slice(-1));
    const now = opts.now ?? (() => performance.now());
    const wal = new Wal(opts.dir, size, opts.fsync, opts.logger, now, opts.corruptionsRepaired ?? 0);
    wal.createSegment(highest + 1);
    if (opts.fsync.mode === 'interval') {
      wal.timer = (opts.scheduler ?? defaultScheduler).every(opts.fsync.intervalMs, () => wal.onTimer());
    }
    opts.logger.info('wal: opened', { dir: opts.dir, segment: highest + 1, fsync: opts.fsync.mode });
    return wal;
  }

  /** The index of the segment being written. */
  get currentSegment(): number {
    return this.segment;
  }

  /**
   * Frames `records` and writes them to the current segment in one write syscall, starting a
   * new segment first when they would push the current one past `segmentSizeBytes` (a batch
   * larger than a segment still goes into one segment). Once this returns, the records survive
   * a process crash; under the `always` policy they are also on stable storage. The payloads
   * are copied: the caller may reuse their buffers as soon as the call returns.
   */
  log(records: readonly WalRecord[]): void {
    this.checkWritable();
    if (records.length === 0) return;
    let total = 0;
    for (const r of records) {
      if (!isKnownRecordType(r.type)) throw new RangeError(`wal: unknown record type ${r.type}`);
      if (r.payload.length > MAX_PAYLOAD_BYTES) throw new RangeError('wal: record payload over 4 GiB');
      total += FRAME_HEADER_BYTES + r.payload.length;
    }
    if (this.segmentBytes > SEGMENT_HEADER_BYTES && this.segmentBytes + total > this.segmentSizeBytes) {
      this.cutSegment();
    }
    const buf = this.frames;
    buf.reset();
    buf.ensure(total);
    const b = buf.bytes;
    const dv = buf.view;
    let pos = 0;
    for (const r of records) {
      const len = r.payload.length;
      dv.setUint32(pos, len, true);
      b[pos + 8] = r.type;
      b.set(r.payload, pos + FRAME_HEADER_BYTES);
      const end = pos + FRAME_HEADER_BYTES + len;
      dv.setUint32(pos + 4, crc32(b.subarray(pos + 8, end)), true);
      pos = end;
    }
    try {
      writeAll(this.fd, b, 0, total);
    } catch (err) {
      this.undoPartialWrite(err);
    }
    this.segmentBytes += total;
    this.counters.recordsWritten += records.length;
    this.counters.bytesWritten += total;
    if (this.policy.mode === 'always') this.syncSegment();
    else this.dirty = true;
  }

  /** Flushes everything written so far to stable storage, whatever the policy. */
  sync(): void {
    this.checkWritable();
    if (this.dirty) this.syncSegment();
  }

  /**
   * Closes the current segment (syncing it unless the policy is `never`) and starts the next
   * one; returns the new segment's index. Use it before checkpointing the segments so far.
   */
  cutSegment(): number {
    this.checkWritable();
    const next = this.segment + 1;
    this.finishSegment();
    this.createSegment(next);
    this.logger.debug('wal: cut segment', { segment: next });
    return next;
  }

  /**
   * Deletes every segment whose index is below `index`. Call it after a checkpoint through
   * `index - 1` has been written. Throws `RangeError` when it would delete the current segment.
   */
  truncateBefore(index: number): void {
    if (!this.closed && index > this.segment) {
      throw new RangeError(`wal: cannot truncate before ${index}: segment ${this.segment} is being written`);
    }
    const doomed = listWalDir(this.dir).segments.filter((s) => s < index);
    for (const s of doomed) fs.rmSync(segmentPath(this.dir, s), { force: true });
    if (doomed.length > 0 && this.policy.mode !== 'never') this.timed(() => fsyncDir(this.dir));
    this.counters.truncations++;
    this.logger.info('wal: truncated', { before: index, segmentsDeleted: doomed.length });
  }

  /** The lowest and highest segment indexes in the directory, or null when it holds none. */
  segments(): { first: number; last: number } | null {
    const s = listWalDir(this.dir).segments;
    return s.length === 0 ? null : { first: s[0], last: s[s.length - 1] };
  }

  /** A snapshot of the self-monitoring counters. */
  stats(): WalStats {
    return { ...this.counters };
  }

  /** Syncs and closes the WAL. Idempotent; later writes throw `ERR_STORAGE_CLOSED`. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.timer?.cancel();
    this.timer = null;
    if (this.fd < 0) return;
    try {
      if (this.dirty && this.broken === null) this.syncSegment();
    } finally {
      fs.closeSync(this.fd);
      this.fd = -1;
    }
  }

  private checkWritable(): void {
    if (this.closed) throw new StorageError(StorageErrorCode.STORAGE_CLOSED, 'wal: closed');
    if (this.broken !== null) {
      throw new StorageError(StorageErrorCode.UNAVAILABLE, `wal: unusable after an I/O error: ${this.broken.message}`, {
        cause: this.broken,
      });
    }
  }

  private createSegment(index: number): void {
    const file = segmentPath(this.dir, index);
    const header = new Uint8Array(SEGMENT_HEADER_BYTES);
    writeSegmentHeader(header, 0);
    try {
      // 'ax': append-only, and fail rather than reuse a file that already exists.
      this.fd = fs.openSync(file, 'ax');
      this.segment = index;
      writeAll(this.fd, header, 0, header.length);
      if (this.policy.mode !== 'never') this.timed(() => fsyncDir(this.dir));
    } catch (err) {
      throw this.fail(err);
    }
    this.segmentBytes = SEGMENT_HEADER_BYTES;
    this.counters.segmentsCreated++;
    this.counters.bytesWritten += SEGMENT_HEADER_BYTES;
  }

  private finishSegment(): void {
    try {
      if (this.dirty && this.policy.mode !== 'never') this.syncSegment();
      fs.closeSync(this.fd);
    } catch (err) {
      throw this.fail(err);
    } finally {
      this.fd = -1;
      this.dirty = false;
    }
  }

  private syncSegment(): void {
    const fd = this.fd;
    try {
      this.timed(() => fs.fdatasyncSync(fd));
    } catch (err) {
      // After a failed fsync the kernel may have dropped the dirty pages: retrying cannot make
      // acknowledged data durable, so the WAL stops taking writes (as PostgreSQL does).
      throw this.fail(err);
    }
    this.dirty = false;
  }

  private undoPartialWrite(err: unknown): never {
    try {
      fs.ftruncateSync(this.fd, this.segmentBytes);
    } catch {
      throw this.fail(err); // a partial frame stays on disk; replay will drop it and all after it
    }
    throw new StorageError(StorageErrorCode.UNAVAILABLE, `wal: write failed: ${String(err)}`, { cause: err });
  }

  private fail(err: unknown): StorageError {
    this.broken = err instanceof Error ? err : new Error(String(err));
    this.logger.error('wal: I/O error, refusing further writes', { segment: this.segment, error: this.broken.message });
    return new StorageError(StorageErrorCode.UNAVAILABLE, `wal: ${this.broken.message}`, { cause: err });
  }

  private timed(fn: () => void): void {
    const start = this.now();
    fn();
    this.counters.fsyncs++;
    this.counters.fsyncSecondsTotal += (this.now() - start) / 1000;
  }

  private onTimer(): void {
    if (!this.dirty || this.closed || this.broken !== null) return;
    try {
      this.syncSegment();
    } catch {
      // Already logged by fail(); the next log() reports the error to its caller.
    }
  }
}
