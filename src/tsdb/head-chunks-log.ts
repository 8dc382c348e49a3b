import type { Logger } from '../model/index.js';
import type { ChunkStore } from './head/index.js';
import { ByteBuffer, RecordType, Wal, decodeHeadChunks, encodeHeadChunk, replayWalSteps, type FsyncPolicy, type HeadChunkEntry, type IntervalScheduler, type ReplayReport, type WalFs } from './wal/index.js';

const FLUSH_BYTES = 4 * 1024 * 1024;
const EMPTY_BYTES = new Uint8Array(0);
const ENTRY: HeadChunkEntry = { minTimeMs: 0, maxTimeMs: 0, flags: 0, bytes: EMPTY_BYTES };

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
 *
 * I/O errors never reach the head's commit (`add` swallows them; the chunks stay queued), and
 * a failed fsync is recovered without trusting the failed segment again: the next `flush` or
 * `sync` starts a new segment and rewrites, from memory, every chunk the failed one held; the
 * failed segment is deleted once the rewrite is synced (docs/formats/wal.md, "I/O errors").
 */
export class HeadChunksLog {
  private readonly buf = new ByteBuffer(1 << 20);
  private pendingMaxTimeMs = -Infinity;
  /** The newest chunk end written to each segment, so old segments can be dropped by time. */
  private readonly segmentMaxTimeMs = new Map<number, number>();
  // The chunks queued in `buf`, in order, and those written to segment `writtenSegment` (what a
  // recovery rewrites when its fsync fails): parallel arrays of series refs, chunk ids in the
  // head's store and the ids' generations (a freed id is in a block: nothing to rewrite), about
  // 12 bytes per chunk, no copies.
  private pendingRefs: number[] = [];
  private pendingIds: number[] = [];
  private pendingGens: number[] = [];
  private writtenRefs: number[] = [];
  private writtenIds: number[] = [];
  private writtenGens: number[] = [];
  private writtenSegment = -1;
  /** Abandoned segments whose chunks are queued again; deleted after the next successful sync. */
  private abandoned: number[] = [];
  private lastError = '';

  private constructor(
    private readonly wal: Wal,
    private readonly logger: Logger,
    private readonly store: ChunkStore,
  ) {}

  /** Opens the log for appending (after `replay`), starting a new segment; chunk ids given to `add` are in `store`. */
  static open(
    dir: string,
    fsync: FsyncPolicy,
    logger: Logger,
    segmentMaxTimeMs: ReadonlyMap<number, number>,
    store: ChunkStore,
    io?: { fs?: WalFs; scheduler?: IntervalScheduler },
  ): HeadChunksLog {
    const log = new HeadChunksLog(Wal.open({ dir, fsync, logger, segmentSizeBytes: 64 * 1024 * 1024, fs: io?.fs, scheduler: io?.scheduler }), logger, store);
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

  /**
   * Queues sealed chunk `id` (in the store) of series `ref`. Never throws: it runs inside a head
   * commit that the WAL already made durable. A failed flush keeps the chunks queued for the next one.
   */
  add(ref: number, id: number): void {
    this.queue(ref, id, this.store.gen[id]);
    if (this.buf.length < FLUSH_BYTES) return;
    try {
      this.flush();
      this.lastError = '';
    } catch (err) {
      const msg = (err as Error).message;
      // Once per distinct error: a full disk would otherwise log at every sealed chunk.
      if (msg !== this.lastError) this.logger.error('head chunks log: write failed; chunks stay queued (the WAL still holds their samples)', { error: msg });
      this.lastError = msg;
    }
  }

  /**
   * Writes queued chunks to the log as one HEAD_CHUNK record (one write), recovering first from
   * an earlier failed fsync. Throws `ERR_STORAGE_UNAVAILABLE` on an I/O error (still queued).
   */
  flush(): void {
    if (this.wal.needsRecovery) this.recover();
    if (this.buf.length === 0) return;
    this.wal.log([{ type: RecordType.HEAD_CHUNK, payload: this.buf.subarray() }]);
    const seg = this.wal.currentSegment;
    this.segmentMaxTimeMs.set(seg, Math.max(this.segmentMaxTimeMs.get(seg) ?? -Infinity, this.pendingMaxTimeMs));
    if (seg !== this.writtenSegment) {
      this.writtenRefs = [];
      this.writtenIds = [];
      this.writtenGens = [];
      this.writtenSegment = seg;
    }
    for (let i = 0; i < this.pendingRefs.length; i++) {
      this.writtenRefs.push(this.pendingRefs[i]);
      this.writtenIds.push(this.pendingIds[i]);
      this.writtenGens.push(this.pendingGens[i]);
    }
    this.pendingRefs = [];
    this.pendingIds = [];
    this.pendingGens = [];
    this.buf.reset();
    this.pendingMaxTimeMs = -Infinity;
  }

  /** Flushes and fsyncs: afterwards every queued chunk survives a power loss. */
  sync(): void {
    this.flush();
    this.wal.sync();
    // The abandoned segments' chunks are durable in a later segment now.
    for (const seg of this.abandoned) this.wal.removeSegment(seg);
    this.abandoned = [];
  }

  /**
   * After a failed fsync: starts a new segment and queues every chunk of the failed one again,
   * ahead of the chunks queued since. Its fsync is never retried; the segment is deleted after
   * the rewrite is synced. Until then a crash replays the failed segment's valid prefix plus
   * the rewrite (the loader drops the repeats).
   */
  private recover(): void {
    const bad = this.wal.abandonSegment();
    this.wal.recovered();
    const both = bad === this.writtenSegment;
    const refs = both ? this.writtenRefs.concat(this.pendingRefs) : this.pendingRefs;
    const ids = both ? this.writtenIds.concat(this.pendingIds) : this.pendingIds;
    const gens = both ? this.writtenGens.concat(this.pendingGens) : this.pendingGens;
    const fromBad = refs.length - this.pendingRefs.length;
    let again = 0;
    this.buf.reset();
    this.pendingRefs = [];
    this.pendingIds = [];
    this.pendingGens = [];
    this.pendingMaxTimeMs = -Infinity;
    // A chunk freed since (its id's generation moved on) is in a block: it needs no rewrite.
    for (let i = 0; i < refs.length; i++) {
      if (this.store.gen[ids[i]] !== gens[i]) continue;
      this.queue(refs[i], ids[i], gens[i]);
      if (i < fromBad) again++;
    }
    this.writtenRefs = [];
    this.writtenIds = [];
    this.writtenGens = [];
    this.writtenSegment = -1;
    this.segmentMaxTimeMs.delete(bad);
    this.abandoned.push(bad);
    this.logger.warn('head chunks log: rewriting the chunks of a segment whose fsync failed', { segment: bad, chunks: again });
  }

  private queue(ref: number, id: number, gen: number): void {
    const store = this.store;
    const maxT = store.maxT[id];
    ENTRY.minTimeMs = store.minT[id];
    ENTRY.maxTimeMs = maxT;
    ENTRY.bytes = store.bytes(id);
    encodeHeadChunk(this.buf, ref, ENTRY);
    ENTRY.bytes = EMPTY_BYTES; // do not pin the slab
    this.pendingRefs.push(ref);
    this.pendingIds.push(id);
    this.pendingGens.push(gen);
    if (maxT > this.pendingMaxTimeMs) this.pendingMaxTimeMs = maxT;
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
    // Chunks now in blocks (freed, or ending before the bound) need no rewrite after a failed fsync.
    const store = this.store;
    const keep = this.writtenIds.map((id, i) => store.gen[id] === this.writtenGens[i] && store.maxT[id] >= minTMs);
    this.writtenRefs = this.writtenRefs.filter((_, i) => keep[i]);
    this.writtenIds = this.writtenIds.filter((_, i) => keep[i]);
    this.writtenGens = this.writtenGens.filter((_, i) => keep[i]);
    // An abandoned segment may hold the only synced copy of chunks that a checkpoint dropped
    // from the WAL: it goes only once their rewrite is synced (`sync`).
    for (const seg of this.abandoned) keepFrom = Math.min(keepFrom, seg);
    const range = this.wal.segments();
    if (range === null || keepFrom <= range.first) return;
    this.wal.truncateBefore(keepFrom);
    for (const seg of [...this.segmentMaxTimeMs.keys()]) if (seg < keepFrom) this.segmentMaxTimeMs.delete(seg);
  }

  /** Bytes written since open (for size retention's head estimate). */
  bytesWritten(): number {
    return this.wal.stats().bytesWritten;
  }

  /** Flushes and closes; the file is closed even when the flush fails (the WAL holds those samples). */
  close(): void {
    try {
      this.flush();
    } finally {
      this.wal.close();
    }
  }
}
