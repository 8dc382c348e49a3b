import type { Logger } from '../model/index.js';
import type { SealedChunk } from './head/index.js';
import { ByteBuffer, RecordType, Wal, decodeHeadChunks, encodeHeadChunk, replayWalSteps, type FsyncPolicy, type HeadChunkEntry, type ReplayReport } from './wal/index.js';

const FLUSH_BYTES = 4 * 1024 * 1024;
const ENTRY: HeadChunkEntry = { minTimeMs: 0, maxTimeMs: 0, flags: 0, bytes: new Uint8Array(0) };

/**
 * The head-chunks log (`<data>/chunks_head/`): every chunk the head seals is appended here once,
 * as a HEAD_CHUNK record in WAL framing (checksummed, torn tails repaired on replay). A restart
 * loads these chunks as bytes instead of re-encoding their samples from the WAL, and WAL
 * checkpoints only need the head's open chunks. Prometheus keeps m-mapped head chunks for the
 * same reason.
 *
 * Writes are buffered (a few MiB) because nothing depends on them until `sync()`: until a WAL
 * checkpoint drops the segments that hold the same samples, the WAL can rebuild any chunk lost
 * here. The DB therefore calls `sync()` before every checkpoint.
 */
export class HeadChunksLog {
  private readonly buf = new ByteBuffer(1 << 20);
  private pendingMaxTimeMs = -Infinity;
  /** The newest chunk end written to each segment, so old segments can be dropped by time. */
  private readonly segmentMaxTimeMs = new Map<number, number>();

  private constructor(private readonly wal: Wal) {}

  /** Opens the log for appending (after `replay`), starting a new segment. */
  static open(dir: string, fsync: FsyncPolicy, logger: Logger, segmentMaxTimeMs: ReadonlyMap<number, number>): HeadChunksLog {
    const log = new HeadChunksLog(Wal.open({ dir, fsync, logger, segmentSizeBytes: 64 * 1024 * 1024 }));
    for (const [seg, t] of segmentMaxTimeMs) log.segmentMaxTimeMs.set(seg, t);
    return log;
  }

  /**
   * Reads every chunk in `dir`, calling `onChunk` with a view valid during the call. A generator
   * yielding after each segment (see `replayWalSteps`); returns the newest chunk end per segment.
   */
  static *replay(
    dir: string,
    logger: Logger,
    onChunk: (ref: number, chunk: HeadChunkEntry) => void,
  ): Generator<number, { report: ReplayReport; segmentMaxTimeMs: Map<number, number> }> {
    const segmentMaxTimeMs = new Map<number, number>();
    let maxT = -Infinity;
    const steps = replayWalSteps(dir, {
      logger,
      onRecord: (type, payload) => {
        if (type !== RecordType.HEAD_CHUNK) return;
        decodeHeadChunks(payload, (ref, chunk) => {
          if (chunk.maxTimeMs > maxT) maxT = chunk.maxTimeMs;
          onChunk(ref, chunk);
        });
      },
    });
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done === true) return { report: step.value, segmentMaxTimeMs };
      segmentMaxTimeMs.set(step.value, maxT);
      maxT = -Infinity;
      yield step.value;
    }
  }

  /** Queues a sealed chunk of series `ref`. */
  add(ref: number, chunk: SealedChunk): void {
    ENTRY.minTimeMs = chunk.minTimeMs;
    ENTRY.maxTimeMs = chunk.maxTimeMs;
    ENTRY.bytes = chunk.bytes;
    encodeHeadChunk(this.buf, ref, ENTRY);
    if (chunk.maxTimeMs > this.pendingMaxTimeMs) this.pendingMaxTimeMs = chunk.maxTimeMs;
    if (this.buf.length >= FLUSH_BYTES) this.flush();
  }

  /** Writes queued chunks to the log as one HEAD_CHUNK record (one write). */
  flush(): void {
    if (this.buf.length === 0) return;
    this.wal.log([{ type: RecordType.HEAD_CHUNK, payload: this.buf.subarray() }]);
    const seg = this.wal.currentSegment;
    this.segmentMaxTimeMs.set(seg, Math.max(this.segmentMaxTimeMs.get(seg) ?? -Infinity, this.pendingMaxTimeMs));
    this.buf.reset();
    this.pendingMaxTimeMs = -Infinity;
  }

  /** Flushes and fsyncs: afterwards every queued chunk survives a power loss. */
  sync(): void {
    this.flush();
    this.wal.sync();
  }

  /** Deletes the oldest segments whose chunks all end before `minTMs` (now in blocks). */
  truncateBefore(minTMs: number): void {
    this.flush();
    const current = this.wal.currentSegment;
    let keepFrom = current;
    for (const seg of [...this.segmentMaxTimeMs.keys()].sort((a, b) => a - b)) {
      if (seg >= current || (this.segmentMaxTimeMs.get(seg) ?? Infinity) >= minTMs) {
        keepFrom = Math.min(keepFrom, seg);
        break;
      }
    }
    const range = this.wal.segments();
    if (range === null || keepFrom <= range.first) return;
    this.wal.truncateBefore(keepFrom);
    for (const seg of [...this.segmentMaxTimeMs.keys()]) if (seg < keepFrom) this.segmentMaxTimeMs.delete(seg);
  }

  /** Bytes written since open (for size retention's head estimate). */
  bytesWritten(): number {
    return this.wal.stats().bytesWritten;
  }

  /** Flushes and closes. */
  close(): void {
    this.flush();
    this.wal.close();
  }
}
