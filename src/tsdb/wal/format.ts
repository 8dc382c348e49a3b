/**
 * Constants and small helpers of the WAL's on-disk format, version 1 (docs/formats/wal.md).
 *
 * A segment file is an 8-byte header followed by frames. A frame is
 * `uint32 LE payload length | uint32 LE CRC-32 over type byte + payload | uint8 type | payload`.
 * Everything here is pure; the file-system side lives in `segment-files.ts`.
 */

/** The four magic bytes that open every segment file: ASCII "IWAL". */
export const SEGMENT_MAGIC: readonly number[] = [0x49, 0x57, 0x41, 0x4c];

/** The format version written into byte 4 of every segment header. */
export const WAL_FORMAT_VERSION = 1;

/** The length of a segment header: magic (4), version (1), reserved zeros (3). */
export const SEGMENT_HEADER_BYTES = 8;

/** The length of a frame header: payload length (4), CRC-32 (4), record type (1). */
export const FRAME_HEADER_BYTES = 9;

/** The largest payload one frame can carry (the length field is a uint32). */
export const MAX_PAYLOAD_BYTES = 0xffff_ffff;

/** The default size at which the WAL starts a new segment file: 128 MiB. */
export const DEFAULT_SEGMENT_SIZE_BYTES = 128 * 1024 * 1024;

/**
 * Record types of format v1. `TOMBSTONES` is reserved: v1 writers never write it, v1 readers
 * accept it as a valid frame and hand it to the caller unchanged.
 */
export const RecordType = {
  /** New series: `(ref, labels)` entries. */
  SERIES: 1,
  /** A batch of float samples: `(ref, tMs, value)`. */
  SAMPLES: 2,
  /** Reserved for deletion requests. */
  TOMBSTONES: 3,
  /** Encoded head chunks: sealed ones in the head-chunks log, open ones in checkpoints. */
  HEAD_CHUNK: 4,
  /** A batch of out-of-order samples (same payload as SAMPLES), accepted by the out-of-order window. */
  OOO_SAMPLES: 5,
} as const;

/** One of the values of `RecordType`. */
export type RecordType = (typeof RecordType)[keyof typeof RecordType];

/** Reports whether `type` is a record type that format v1 defines (reserved ones included). */
export function isKnownRecordType(type: number): type is RecordType {
  return type >= RecordType.SERIES && type <= RecordType.OOO_SAMPLES;
}

/** Writes a v1 segment header into `out` at `pos` (8 bytes must be available). */
export function writeSegmentHeader(out: Uint8Array, pos: number): void {
  out[pos] = SEGMENT_MAGIC[0];
  out[pos + 1] = SEGMENT_MAGIC[1];
  out[pos + 2] = SEGMENT_MAGIC[2];
  out[pos + 3] = SEGMENT_MAGIC[3];
  out[pos + 4] = WAL_FORMAT_VERSION;
  out[pos + 5] = 0;
  out[pos + 6] = 0;
  out[pos + 7] = 0;
}

/** Reports whether the first four bytes of `data` are the segment magic. */
export function hasSegmentMagic(data: Uint8Array): boolean {
  return (
    data.length >= 4 &&
    data[0] === SEGMENT_MAGIC[0] &&
    data[1] === SEGMENT_MAGIC[1] &&
    data[2] === SEGMENT_MAGIC[2] &&
    data[3] === SEGMENT_MAGIC[3]
  );
}

/** The file name of segment `index`: eight zero-padded decimal digits (more past 99,999,999). */
export function segmentFileName(index: number): string {
  return String(index).padStart(8, '0');
}

/** The directory name of the checkpoint that covers segments up to and including `index`. */
export function checkpointDirName(index: number): string {
  return `checkpoint.${segmentFileName(index)}`;
}

const SEGMENT_NAME = /^\d{8,15}$/;
const CHECKPOINT_NAME = /^checkpoint\.(\d{8,15})$/;
const CHECKPOINT_TMP_NAME = /^checkpoint\.(\d{8,15})\.tmp$/;

/** The segment index a file name denotes, or -1 when the name is not a segment's. */
export function parseSegmentFileName(name: string): number {
  return SEGMENT_NAME.test(name) ? Number(name) : -1;
}

/** The segment index a complete checkpoint directory name denotes, or -1. */
export function parseCheckpointDirName(name: string): number {
  const m = CHECKPOINT_NAME.exec(name);
  return m === null ? -1 : Number(m[1]);
}

/** Reports whether `name` is a checkpoint directory that was never finished (`checkpoint.N.tmp`). */
export function isCheckpointTmpDirName(name: string): boolean {
  return CHECKPOINT_TMP_NAME.test(name);
}
