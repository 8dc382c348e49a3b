import type { Logger } from '../model/index.js';
import { newXorEncoderState } from './chunkenc/index.js';
import { HeadChunksLog } from './head-chunks-log.js';
import type { ChunkStore, CommitLog, Head, MemSeries } from './head/index.js';
import {
  ByteBuffer,
  HEAD_CHUNK_ENCODER,
  HEAD_CHUNK_OPEN,
  RecordType,
  decodeHeadChunks,
  decodeSamples,
  decodeSeries,
  encodeHeadChunk,
  encodeSamples,
  encodeSeries,
  replayWithCheckpointSteps,
  writeCheckpoint,
  type CheckpointReplayReport,
  type CheckpointResult,
  type HeadChunkEntry,
  type ReplayReport,
  type Wal,
  type WalFs,
  type WalRecord,
} from './wal/index.js';

/**
 * Binds the head's commit log to the WAL: per commit, one SERIES record for new series, one
 * SAMPLES record, and an OOO_SAMPLES record when the out-of-order window took samples, all in
 * one write.
 */
export class WalCommitLog implements CommitLog {
  private readonly seriesBuf = new ByteBuffer(4096);
  private readonly samplesBuf = new ByteBuffer(16384);
  private readonly oooBuf = new ByteBuffer(1024);
  // Scratch arrays reused across commits: refs always, times and values only to split a batch.
  private refs = new Float64Array(1024);
  private ts = new Float64Array(0);
  private vals = new Float64Array(0);

  constructor(private readonly wal: Wal) {}

  logCommit(
    newSeries: readonly MemSeries[],
    series: readonly MemSeries[],
    tsMs: Float64Array,
    values: Float64Array,
    ooo: Uint8Array | null,
    count: number,
  ): void {
    const records: WalRecord[] = [];
    if (newSeries.length > 0) {
      this.seriesBuf.reset();
      encodeSeries(this.seriesBuf, newSeries);
      records.push({ type: RecordType.SERIES, payload: this.seriesBuf.subarray() });
    }
    if (this.refs.length < count) this.refs = new Float64Array(Math.max(count, this.refs.length * 2));
    if (ooo === null) {
      // The common case: every sample in order, encoded straight from the appender's arrays.
      for (let i = 0; i < count; i++) this.refs[i] = series[i].ref;
      this.push(records, this.samplesBuf, RecordType.SAMPLES, tsMs, values, count);
    } else {
      if (this.ts.length < count) {
        this.ts = new Float64Array(this.refs.length);
        this.vals = new Float64Array(this.refs.length);
      }
      for (const [want, buf, type] of [[0, this.samplesBuf, RecordType.SAMPLES], [1, this.oooBuf, RecordType.OOO_SAMPLES]] as const) {
        let n = 0;
        for (let i = 0; i < count; i++) {
          if (ooo[i] !== want) continue;
          this.refs[n] = series[i].ref;
          this.ts[n] = tsMs[i];
          this.vals[n++] = values[i];
        }
        if (n > 0) this.push(records, buf, type, this.ts, this.vals, n);
      }
    }
    this.wal.log(records);
  }

  /** Encodes `count` samples (refs from `this.refs`) into `buf` as one record of `type`. */
  private push(records: WalRecord[], buf: ByteBuffer, type: RecordType, tsMs: Float64Array, values: Float64Array, count: number): void {
    buf.reset();
    encodeSamples(buf, this.refs, tsMs, values, count);
    records.push({ type, payload: buf.subarray() });
  }
}

/** What rebuilding the head at open found. */
export interface HeadReplayReport {
  wal: CheckpointReplayReport;
  headChunks: ReplayReport;
  series: number;
  /** Chunks loaded as bytes (sealed ones from the head-chunks log, open ones from the checkpoint). */
  chunksLoaded: number;
  /** Samples re-encoded from WAL SAMPLES records. */
  samples: number;
  /** Samples skipped because they were already in a block or a loaded chunk. */
  samplesSkipped: number;
  /** Samples of series the WAL never declared (a corrupt or truncated log). */
  samplesUnknownSeries: number;
}

/** The sealed chunks of the head-chunks log, by series ref, waiting for their series. */
export interface LoadedHeadChunks {
  /** Chunk ids in the head's `ChunkStore`, indexed by series ref (refs are dense small integers). */
  sealedByRef: (number[] | undefined)[];
  report: ReplayReport;
  /** The newest chunk end per head-chunks segment, for `HeadChunksLog.open`. */
  segmentMaxTimeMs: Map<number, number>;
  /**
   * The largest series ref in the log. New series must never reuse a ref that has chunks here:
   * when a WAL repair lost a series' SERIES record, its chunks stay in the log (orphans, ignored)
   * until a block cut drops them, and a new series with the same ref would inherit them.
   */
  maxRef: number;
}

/**
 * Reads the head-chunks log into `store`, keeping chunks not yet in a block. Yields after each
 * segment. `replayWalIntoHead` hands the chunks to their series and frees the orphans.
 */
export function* loadHeadChunks(chunksDir: string, minValidTimeMs: number, logger: Logger, store: ChunkStore): Generator<number, LoadedHeadChunks> {
  const sealedByRef: (number[] | undefined)[] = [];
  let maxRef = 0;
  const { report, segmentMaxTimeMs } = yield* HeadChunksLog.replay(chunksDir, logger, (ref, c) => {
    if (ref > maxRef) maxRef = ref;
    if (c.maxTimeMs < minValidTimeMs) return; // already in a block
    let list = sealedByRef[ref];
    if (list === undefined) sealedByRef[ref] = list = [];
    // A chunk rewritten after a failed fsync can also be in the failed segment's valid prefix.
    // Chunks of one series never share a start, so a repeated start is the same chunk.
    for (let i = list.length - 1; i >= 0; i--) if (store.minT[list[i]] === c.minTimeMs) return;
    // Adopted, not copied: the chunks of one head-chunks segment share the file's buffer (about a
    // third of the memory of separate buffers), and they leave the head together at a block cut.
    list.push(store.adopt(c.bytes, c.minTimeMs, c.maxTimeMs));
  });
  return { sealedByRef, report, segmentMaxTimeMs, maxRef };
}

/**
 * Rebuilds the head from the WAL (newest checkpoint with the series and their open chunks, then
 * the segments after it), attaching the sealed chunks loaded from the head-chunks log to their
 * series. Only samples newer than what the loaded chunks hold are re-encoded. A generator that
 * yields after each segment, so the caller can let the event loop run in between.
 */
export function* replayWalIntoHead(walDir: string, head: Head, loaded: LoadedHeadChunks, logger: Logger): Generator<number, HeadReplayReport> {
  let series = 0;
  let chunksLoaded = 0;
  let samples = 0;
  let samplesSkipped = 0;
  let samplesUnknownSeries = 0;
  const minValid = head.minValidTimeMs;
  const rangeMs = head.options.blockRangeMs;
  const { sealedByRef } = loaded;

  // A series removed by garbage collection and created again gets a new ref, so the log can
  // name one label set under two refs; records of the older ref go to the live series.
  const aliases = new Map<number, MemSeries>();
  const lookup = (ref: number): MemSeries | undefined => head.seriesByRef(ref) ?? aliases.get(ref);
  const onSample = (ref: number, tMs: number, value: number): void => {
    const s = lookup(ref);
    if (s === undefined) {
      samplesUnknownSeries++;
      return;
    }
    if (tMs < minValid || tMs <= s.lastTMs) {
      samplesSkipped++;
      return;
    }
    head.appendCommitted(s, tMs, value);
    samples++;
  };
  const onOooSample = (ref: number, tMs: number, value: number): void => {
    const s = lookup(ref);
    if (s === undefined) samplesUnknownSeries++;
    else if (tMs < minValid || !s.insertOoo(tMs, value)) samplesSkipped++;
    else {
      head.noteTime(tMs);
      samples++;
    }
  };
  const wal = yield* replayWithCheckpointSteps(walDir, {
    logger,
    reuseBuffer: true, // every record is decoded or copied in its callback
    onRecord: (type, payload) => {
      if (type === RecordType.SERIES) {
        series += decodeSeries(payload, (ref, labels) => {
          const s = head.getOrCreate(labels, ref);
          s.logged = true;
          if (s.ref !== ref) {
            aliases.set(ref, s);
            head.reserveRef(ref);
          }
          const sealed = sealedByRef[ref];
          if (sealed !== undefined) {
            sealedByRef[ref] = undefined;
            chunksLoaded += sealed.length;
            s.loadSealed(sealed);
            head.noteTime(s.minTimeMs());
            head.noteTime(s.lastTMs);
          }
        });
      } else if (type === RecordType.SAMPLES) {
        decodeSamples(payload, onSample);
      } else if (type === RecordType.OOO_SAMPLES) {
        decodeSamples(payload, onOooSample);
      } else if (type === RecordType.HEAD_CHUNK) {
        decodeHeadChunks(payload, (ref, c) => {
          const s = lookup(ref);
          if ((c.flags & HEAD_CHUNK_OPEN) === 0 || s === undefined || c.maxTimeMs < minValid) return;
          if (s.resumeOpen(c.bytes, c.minTimeMs, rangeMs, c.encoder)) {
            chunksLoaded++;
            head.noteTime(c.minTimeMs);
            head.noteTime(s.lastTMs);
          }
        });
      }
    },
  });
  // Chunks of series the WAL never declared (a repair lost their SERIES record) stay unused.
  for (const ids of sealedByRef) if (ids !== undefined) for (const id of ids) head.chunks.free(id);
  head.stats.samplesAppended += samples;
  return { wal, headChunks: loaded.report, series, chunksLoaded, samples, samplesSkipped, samplesUnknownSeries };
}

/**
 * Writes a WAL checkpoint from the head's memory and drops the segments it covers. The
 * checkpoint holds every live series (SERIES) and its open chunk (HEAD_CHUNK, open flag);
 * sealed chunks are in the head-chunks log, which is synced first. Everything committed is in
 * segments up to the one cut here and in memory, so the checkpoint covers those segments.
 *
 * It is also the WAL's recovery after an I/O error (`wal.needsRecovery`): the untrusted segment
 * is abandoned instead of synced again, the checkpoint rewrites everything acknowledged from
 * memory (commits were refused meanwhile, so memory holds exactly what was acknowledged) and
 * deletes it, and only then does the WAL take writes again.
 */
export function checkpointHead(
  walDir: string,
  wal: Wal,
  head: Head,
  chunksLog: HeadChunksLog,
  logger: Logger,
  segmentSizeBytes: number,
  fs?: WalFs,
): CheckpointResult {
  chunksLog.sync();
  const recovering = wal.needsRecovery;
  const through = recovering ? wal.abandonSegment() : wal.cutSegment() - 1;
  const result = writeCheckpoint(walDir, {
    throughSegment: through,
    logger,
    segmentSizeBytes,
    fs,
    write: (log) => {
      const seriesBuf = new ByteBuffer(1 << 20);
      const chunkBuf = new ByteBuffer(1 << 20);
      const batch: MemSeries[] = [];
      const oooSeries: MemSeries[] = [];
      const encoder = newXorEncoderState();
      const entry: HeadChunkEntry = { minTimeMs: 0, maxTimeMs: 0, flags: HEAD_CHUNK_OPEN, bytes: new Uint8Array(0), encoder };
      const flush = (): void => {
        if (batch.length === 0) return;
        seriesBuf.reset();
        encodeSeries(seriesBuf, batch);
        const records: WalRecord[] = [{ type: RecordType.SERIES, payload: seriesBuf.subarray() }];
        if (chunkBuf.length > 0) records.push({ type: RecordType.HEAD_CHUNK, payload: chunkBuf.subarray() });
        log(records);
        batch.length = 0;
        chunkBuf.reset();
      };
      for (const s of head.allSeries()) {
        if (!s.logged) continue; // never committed: its first commit will log it
        batch.push(s);
        const open = s.open;
        if (open !== null && open.numSamples() > 0) {
          entry.minTimeMs = open.minTimeMs();
          entry.maxTimeMs = open.maxTimeMs();
          entry.bytes = open.bytes();
          entry.flags = open.encoderState(encoder) ? HEAD_CHUNK_OPEN | HEAD_CHUNK_ENCODER : HEAD_CHUNK_OPEN;
          encodeHeadChunk(chunkBuf, s.ref, entry);
        }
        if (s.ooo !== null && s.ooo.length > 0) oooSeries.push(s);
        if (batch.length >= 1000) flush();
      }
      flush();
      // Out-of-order samples live only in memory and the WAL: carry them over.
      for (const s of oooSeries) {
        const ooo = s.ooo;
        if (ooo === null || ooo.length === 0) continue;
        seriesBuf.reset();
        encodeSamples(seriesBuf, new Float64Array(ooo.length).fill(s.ref), ooo.tsMs, ooo.values, ooo.length);
        log([{ type: RecordType.OOO_SAMPLES, payload: seriesBuf.subarray() }]);
      }
    },
  });
  wal.truncateBefore(through + 1);
  if (recovering) wal.recovered();
  return result;
}
