/**
 * Public surface of the TSDB's write-ahead log: the writer, the record codecs, replay and
 * checkpoints. The byte layout is documented in docs/formats/wal.md.
 */
export { ByteBuffer } from './byte-buffer.js';
export {
  DEFAULT_SEGMENT_SIZE_BYTES,
  RecordType,
  WAL_FORMAT_VERSION,
  checkpointDirName,
  segmentFileName,
} from './format.js';
export type { CorruptionReason } from './frames.js';
export {
  decodeSamples,
  decodeSamplesInto,
  decodeSeries,
  encodeSamples,
  encodeSeries,
  samplesCount,
  type SeriesEntry,
} from './records.js';
export { drainSteps, replayWal, replayWalSteps, type ReplayOptions, type ReplayReport, type ReplayTruncation } from './replay.js';
export { HEAD_CHUNK_ENCODER, HEAD_CHUNK_OPEN, decodeHeadChunks, encodeHeadChunk, type HeadChunkEntry } from './head-chunk-record.js';
export {
  replayWithCheckpoint,
  replayWithCheckpointSteps,
  writeCheckpoint,
  type CheckpointOptions,
  type CheckpointReplayReport,
  type CheckpointResult,
} from './checkpoint.js';
export { nodeWalFs, type WalFs } from './wal-fs.js';
export { defaultScheduler } from './wal-options.js';
export {
  Wal,
  type FsyncPolicy,
  type IntervalScheduler,
  type WalOptions,
  type WalRecord,
  type WalStats,
} from './wal.js';
