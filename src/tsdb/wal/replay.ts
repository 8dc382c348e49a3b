/**
 * Replay of a WAL directory: hands every valid record to the caller in order and repairs the
 * directory at the first invalid byte, so that the next writer starts from a clean state.
 */
import * as fs from 'node:fs';
import type { Logger } from '../../model/index.js';
import type { RecordType } from './format.js';
import { scanFrames, type CorruptionReason } from './frames.js';
import { fileSizeBytes, fsyncDir, listWalDir, segmentPath } from './segment-files.js';

/** Options of `replayWal`. */
export interface ReplayOptions {
  /**
   * Called once per valid record, in log order. `payload` is a view into the segment's bytes,
   * valid only during the call: decode it (or copy it) before returning. An exception aborts
   * the replay and propagates; nothing is repaired then.
   */
  onRecord: (type: RecordType, payload: Uint8Array) => void;
  /** Receives one warning per dropped piece of data. */
  logger: Logger;
  /** Segments below this index are skipped (they are covered by a checkpoint); default 0. */
  fromSegment?: number;
  /**
   * When true, every segment is read into one reused buffer, so payload views are only valid
   * during the callback, strictly. Fresh memory costs a page fault per 4 KiB on first touch,
   * which on small VMs makes reading three times slower than the copy itself; callers that
   * copy what they keep (the WAL replay) set it. Default false: each segment gets its own
   * buffer, which a caller may keep views into (the head-chunks log does).
   */
  reuseBuffer?: boolean;
}

/** Where and why a replay cut the WAL short. */
export interface ReplayTruncation {
  /** The segment whose data ended early (for `missing-segment`: the first segment dropped). */
  segment: number;
  /** The byte offset in that segment where the valid data ends; the file was truncated there. */
  offset: number;
  /** Bytes dropped in total: the rest of that segment plus every later segment. */
  droppedBytes: number;
  reason: CorruptionReason;
}

/** What a replay read and what it dropped. */
export interface ReplayReport {
  segmentsRead: number;
  recordsRead: number;
  /** Bytes of valid data read, segment headers included. */
  bytesRead: number;
  /** The repair made, or null when every byte was valid. */
  truncated: ReplayTruncation | null;
}

/** An empty report, as for a missing directory. */
export function emptyReplayReport(): ReplayReport {
  return { segmentsRead: 0, recordsRead: 0, bytesRead: 0, truncated: null };
}

/**
 * Replays the segments of `dir` in index order. The first invalid frame (length past the end,
 * checksum mismatch, unknown record type), a bad segment header or a gap in the segment
 * numbers ends the valid data: the segment is truncated at that frame (deleted when its header
 * is bad), every later segment is deleted, the changes are synced, and a warning names each
 * dropped piece. A missing directory replays as empty. Throws `StorageError` `ERR_CORRUPTION`
 * (changing nothing) when a segment carries a format version this build cannot read.
 */
export function replayWal(dir: string, opts: ReplayOptions): ReplayReport {
  return drainSteps(replayWalSteps(dir, opts));
}

/** Runs a step generator to its end synchronously and returns its result. */
export function drainSteps<T>(steps: Generator<number, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

/**
 * `replayWal` as a generator that yields the index of each segment once it has been replayed,
 * so that a caller can give the event loop a turn between segments (a server answering
 * `/-/ready` with 503 while it replays). Draining it gives `replayWal`'s result.
 */
export function* replayWalSteps(dir: string, opts: ReplayOptions): Generator<number, ReplayReport> {
  const report = emptyReplayReport();
  const from = opts.fromSegment ?? 0;
  const segments = listWalDir(dir).segments.filter((s) => s >= from);
  if (opts.fromSegment !== undefined && segments.length > 0 && segments[0] > from) {
    opts.logger.warn('wal: segments missing before the first one replayed', {
      dir,
      expected: from,
      first: segments[0],
    });
  }
  // The reused read buffer lives as long as this replay, not the process (it reaches a segment's size).
  const reader = opts.reuseBuffer === true ? new ReusedReader() : null;
  for (let k = 0; k < segments.length; k++) {
    const seg = segments[k];
    if (k > 0 && seg !== segments[k - 1] + 1) {
      report.truncated = { segment: seg, offset: 0, droppedBytes: 0, reason: 'missing-segment' };
      opts.logger.warn('wal: segment missing, dropping every later segment', { dir, missing: segments[k - 1] + 1 });
      report.truncated.droppedBytes = dropSegments(dir, segments.slice(k), opts.logger);
      break;
    }
    const file = segmentPath(dir, seg);
    const buf = reader !== null ? reader.read(file) : fs.readFileSync(file);
    // A plain Uint8Array view: subarrays of a Buffer go through Buffer's slower constructor,
    // and replay takes a subarray per record and per chunk.
    const data = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
    const scan = scanFrames(data, opts.onRecord, file);
    report.segmentsRead++;
    report.recordsRead += scan.frames;
    report.bytesRead += scan.validEnd;
    if (scan.reason === null) {
      yield seg;
      continue;
    }
    const tailBytes = data.length - scan.validEnd;
    opts.logger.warn('wal: dropping invalid data', {
      dir,
      segment: seg,
      offset: scan.validEnd,
      droppedBytes: tailBytes,
      reason: scan.reason,
    });
    if (scan.validEnd === 0) {
      fs.rmSync(file, { force: true }); // nothing valid, not even the header
    } else {
      const fd = fs.openSync(file, 'r+');
      try {
        fs.ftruncateSync(fd, scan.validEnd);
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
    }
    const laterBytes = dropSegments(dir, segments.slice(k + 1), opts.logger);
    if (scan.validEnd === 0 && k + 1 === segments.length) fsyncDir(dir); // else dropSegments synced it
    report.truncated = { segment: seg, offset: scan.validEnd, droppedBytes: tailBytes + laterBytes, reason: scan.reason };
    break;
  }
  return report;
}

/** Deletes the given segments, logging each, syncs the directory; returns the bytes dropped. */
function dropSegments(dir: string, segments: readonly number[], logger: Logger): number {
  let total = 0;
  for (const seg of segments) {
    const file = segmentPath(dir, seg);
    const bytes = fileSizeBytes(file);
    fs.rmSync(file, { force: true });
    logger.warn('wal: deleted segment after invalid data', { dir, segment: seg, droppedBytes: bytes });
    total += bytes;
  }
  if (segments.length > 0) fsyncDir(dir);
  return total;
}

/** Reads files into one buffer that grows as needed; each result is a view, valid until the next read. */
class ReusedReader {
  private buf = Buffer.alloc(0);

  read(file: string): Buffer {
    const fd = fs.openSync(file, 'r');
    try {
      const size = fs.fstatSync(fd).size;
      if (this.buf.length < size) this.buf = Buffer.allocUnsafe(Math.max(size, this.buf.length * 2));
      let off = 0;
      while (off < size) {
        const n = fs.readSync(fd, this.buf, off, size - off, off);
        if (n === 0) break; // the file shrank meanwhile: treat what was read as the file
        off += n;
      }
      return this.buf.subarray(0, off);
    } finally {
      fs.closeSync(fd);
    }
  }
}
