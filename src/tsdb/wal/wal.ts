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
import { nodeWalFs, type WalFs } from './wal-fs.js';
import { defaultScheduler, type FsyncPolicy, type WalOptions, type WalRecord, type WalStats } from './wal-options.js';

export type { FsyncPolicy, IntervalScheduler, WalOptions, WalRecord, WalStats } from './wal-options.js';

/**
 * An open write-ahead log. Single-threaded by construction: every method is synchronous and
 * must be called from the thread that opened it. Methods throw `StorageError` with
 * `ERR_STORAGE_CLOSED` after `close`, and `ERR_STORAGE_UNAVAILABLE` when an I/O error refused
 * a write. Two kinds of failure (docs/formats/wal.md, "I/O errors"):
 * - a failed write (ENOSPC) that could be cut back off the segment, or a segment that could not
 *   be created, fails only that call: the next `log` tries again, so writes resume by themselves
 *   once space returns;
 * - a failed fsync, or a failed write that could not be cut back, leaves a segment whose
 *   contents cannot be trusted. The WAL then refuses every write (`needsRecovery`) until its
 *   owner has started a new segment (`abandonSegment`), rewritten what it acknowledged from
 *   memory into a checkpoint covering the bad segment, and called `recovered`. An fsync is never
 *   retried on the same data: Linux may have dropped the dirty pages and a second fsync would
 *   report success for data that is gone (PostgreSQL's "fsyncgate").
 */
export class Wal {
  private fd = -1;
  private segment = -1;
  private segmentBytes = 0;
  private dirty = false;
  private closed = false;
  private poisoned: { error: Error; segment: number } | null = null;
  /** The last write error logged; a full disk would otherwise log at every refused commit. */
  private lastWriteError = '';
  private timer: { cancel(): void } | null = null;
  private readonly frames = new ByteBuffer(64 * 1024);
  private readonly counters: WalStats;

  private constructor(
    private readonly dir: string,
    private readonly segmentSizeBytes: number,
    private readonly policy: FsyncPolicy,
    private readonly logger: Logger,
    private readonly now: () => number,
    private readonly io: WalFs,
    private readonly slowFsyncMs: number,
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
      writeFailures: 0,
      fsyncFailures: 0,
      slowFsyncs: 0,
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
    const wal = new Wal(opts.dir, size, opts.fsync, opts.logger, now, opts.fs ?? nodeWalFs, opts.slowFsyncMs ?? 1000, opts.corruptionsRepaired ?? 0);
    wal.segment = highest;
    wal.createSegment(highest + 1);
    if (opts.fsync.mode === 'interval') {
      wal.timer = (opts.scheduler ?? defaultScheduler).every(opts.fsync.intervalMs, () => wal.onTimer());
    }
    opts.logger.info('wal: opened', { dir: opts.dir, segment: highest + 1, fsync: opts.fsync.mode });
    return wal;
  }

  /** The index of the segment being written (the last one created when a creation failed). */
  get currentSegment(): number {
    return this.segment;
  }

  /**
   * Whether an I/O error left a segment that cannot be trusted: every write is refused until
   * `abandonSegment`, a checkpoint through the segment it returns, and `recovered`.
   */
  get needsRecovery(): boolean {
    return this.poisoned !== null;
  }

  /**
   * Frames `records` and writes them to the current segment in one write syscall, starting a
   * new segment first when they would push the current one past `segmentSizeBytes` (a batch
   * larger than a segment still goes into one segment). Once this returns, the records survive
   * a process crash; under the `always` policy they are also on stable storage. When it throws,
   * the records are not acknowledged: they were cut off the segment again, or the segment is
   * abandoned by the recovery. The payloads are copied: the caller may reuse their buffers as
   * soon as the call returns.
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
    if (this.fd < 0) this.createSegment(this.segment + 1); // an earlier creation failed
    else if (this.segmentBytes > SEGMENT_HEADER_BYTES && this.segmentBytes + total > this.segmentSizeBytes) {
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
      writeAll(this.fd, b, 0, total, this.io);
    } catch (err) {
      this.undoPartialWrite(err);
    }
    if (this.policy.mode === 'always') {
      try {
        this.syncSegment();
      } catch (err) {
        // Not acknowledged: cut it off (best effort) so that a replay before the recovery's
        // checkpoint does not resurrect it. The segment stays abandoned either way.
        try {
          this.io.ftruncateSync(this.fd, this.segmentBytes);
        } catch {
          // The recovery's checkpoint deletes the whole segment.
        }
        throw err;
      }
    } else this.dirty = true;
    this.lastWriteError = '';
    this.segmentBytes += total;
    this.counters.recordsWritten += records.length;
    this.counters.bytesWritten += total;
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
    if (this.fd >= 0) this.finishSegment();
    this.createSegment(this.segment + 1);
    this.logger.debug('wal: cut segment', { segment: this.segment });
    return this.segment;
  }

  /**
   * The first step of the recovery after an I/O error (`needsRecovery`): closes the untrusted
   * segment without syncing it again and starts a new one. Returns the index of the newest
   * segment before the new one: the caller writes a checkpoint through it from memory, deletes
   * the segments it covers, and calls `recovered`. Writes stay refused until then. Throws
   * `ERR_STORAGE_UNAVAILABLE` when the new segment cannot be created (call it again later).
   */
  abandonSegment(): number {
    if (this.closed) throw new StorageError(StorageErrorCode.STORAGE_CLOSED, 'wal: closed');
    if (this.poisoned === null) throw new Error('wal: abandonSegment without an I/O error to recover from');
    // A retry after a failed checkpoint: the segment started by the first call is still empty.
    if (this.fd >= 0 && this.segment > this.poisoned.segment) return this.segment - 1;
    if (this.fd >= 0) {
      try {
        this.io.closeSync(this.fd);
      } catch {
        // The segment is abandoned; its close status adds nothing.
      }
      this.fd = -1;
      this.dirty = false;
    }
    this.createSegment(this.segment + 1);
    return this.segment - 1;
  }

  /** Ends the recovery: the untrusted segments are replaced by a checkpoint; writes resume. */
  recovered(): void {
    if (this.poisoned === null) return;
    this.logger.info('wal: recovered from an I/O error; taking writes again', { dir: this.dir, abandonedSegment: this.poisoned.segment, segment: this.segment });
    this.poisoned = null;
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
    if (doomed.length > 0 && this.policy.mode !== 'never') this.timed(() => fsyncDir(this.dir, this.io));
    this.counters.truncations++;
    this.logger.info('wal: truncated', { before: index, segmentsDeleted: doomed.length });
  }

  /**
   * Deletes segment `index` alone and syncs the directory: for a segment abandoned after an
   * I/O error whose contents the owner has rewritten (and synced) into a later one. Throws
   * `RangeError` for the current segment.
   */
  removeSegment(index: number): void {
    if (!this.closed && this.fd >= 0 && index === this.segment) throw new RangeError(`wal: cannot remove segment ${index}: it is being written`);
    fs.rmSync(segmentPath(this.dir, index), { force: true });
    this.timed(() => fsyncDir(this.dir, this.io));
    this.logger.info('wal: removed an abandoned segment', { dir: this.dir, segment: index });
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
      if (this.dirty && this.poisoned === null) this.syncSegment();
    } finally {
      this.io.closeSync(this.fd);
      this.fd = -1;
    }
  }

  private checkWritable(): void {
    if (this.closed) throw new StorageError(StorageErrorCode.STORAGE_CLOSED, 'wal: closed');
    if (this.poisoned !== null) {
      const { error, segment } = this.poisoned;
      throw new StorageError(
        StorageErrorCode.UNAVAILABLE,
        `wal: refusing writes until segment ${segment} is replaced by a checkpoint after an I/O error: ${error.message}`,
        { cause: error },
      );
    }
  }

  /**
   * Creates segment `index` and makes it current. On failure (a full disk) it removes what it
   * made and throws `ERR_STORAGE_UNAVAILABLE`: no acknowledged data is at stake, so the next
   * call simply tries again.
   */
  private createSegment(index: number): void {
    const file = segmentPath(this.dir, index);
    const header = new Uint8Array(SEGMENT_HEADER_BYTES);
    writeSegmentHeader(header, 0);
    let fd = -1;
    try {
      // 'ax': append-only, and fail rather than reuse a file that already exists.
      fd = this.io.openSync(file, 'ax');
      writeAll(fd, header, 0, header.length, this.io);
      if (this.policy.mode !== 'never') this.timed(() => fsyncDir(this.dir, this.io));
    } catch (err) {
      if (fd >= 0) {
        try {
          this.io.closeSync(fd);
        } catch {
          // Removed below anyway.
        }
      }
      fs.rmSync(file, { force: true });
      this.counters.writeFailures++;
      if (String(err) !== this.lastWriteError) this.logger.error('wal: cannot create a segment', { dir: this.dir, segment: index, error: String(err) });
      this.lastWriteError = String(err);
      throw new StorageError(StorageErrorCode.UNAVAILABLE, `wal: cannot create segment ${index}: ${String(err)}`, { cause: err });
    }
    this.fd = fd;
    this.segment = index;
    this.segmentBytes = SEGMENT_HEADER_BYTES;
    this.counters.segmentsCreated++;
    this.counters.bytesWritten += SEGMENT_HEADER_BYTES;
  }

  private finishSegment(): void {
    try {
      if (this.dirty && this.policy.mode !== 'never') this.syncSegment();
      try {
        this.io.closeSync(this.fd);
      } catch (err) {
        throw this.poison(err); // close(2) can report a lost writeback (NFS)
      }
    } finally {
      this.fd = -1;
      this.dirty = false;
    }
  }

  private syncSegment(): void {
    const fd = this.fd;
    try {
      this.timed(() => this.io.fdatasyncSync(fd));
    } catch (err) {
      this.counters.fsyncFailures++;
      throw this.poison(err);
    }
    this.dirty = false;
  }

  private undoPartialWrite(err: unknown): never {
    this.counters.writeFailures++;
    try {
      this.io.ftruncateSync(this.fd, this.segmentBytes);
    } catch {
      throw this.poison(err); // a partial frame stays on disk: only a checkpoint can replace the segment
    }
    if (String(err) !== this.lastWriteError) this.logger.warn('wal: write failed; nothing was acknowledged (logged once until a write succeeds)', { dir: this.dir, segment: this.segment, error: String(err) });
    this.lastWriteError = String(err);
    throw new StorageError(StorageErrorCode.UNAVAILABLE, `wal: write failed: ${String(err)}`, { cause: err });
  }

  private poison(err: unknown): StorageError {
    const error = err instanceof Error ? err : new Error(String(err));
    this.poisoned ??= { error, segment: this.segment };
    this.logger.error('wal: I/O error, refusing writes until a checkpoint replaces the segment', { dir: this.dir, segment: this.segment, error: error.message });
    return new StorageError(StorageErrorCode.UNAVAILABLE, `wal: ${error.message}`, { cause: err });
  }

  private timed(fn: () => void): void {
    const start = this.now();
    try {
      fn();
    } finally {
      const ms = this.now() - start;
      this.counters.fsyncs++;
      this.counters.fsyncSecondsTotal += ms / 1000;
      if (ms >= this.slowFsyncMs) {
        this.counters.slowFsyncs++;
        this.logger.warn('wal: slow fsync', { dir: this.dir, segment: this.segment, ms: Math.round(ms) });
      }
    }
  }

  private onTimer(): void {
    if (!this.dirty || this.closed || this.poisoned !== null || this.fd < 0) return;
    try {
      this.syncSegment();
    } catch {
      // Logged by poison(); every later log() refuses until the owner recovers.
    }
  }
}
