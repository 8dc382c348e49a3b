/**
 * Walks the frames of one segment file held in memory, verifying header, lengths and
 * checksums, and reports where the valid data ends and why. Shared by replay (which repairs)
 * and checkpointing (which refuses corrupt input).
 */
import { crc32 } from 'node:zlib';
import { StorageError, StorageErrorCode } from '../../storage/index.js';
import {
  FRAME_HEADER_BYTES,
  SEGMENT_HEADER_BYTES,
  WAL_FORMAT_VERSION,
  hasSegmentMagic,
  isKnownRecordType,
  type RecordType,
} from './format.js';

/** Why the valid data of a WAL ended before the end of its files. */
export type CorruptionReason =
  /** The segment file is empty (the process died right after creating it). */
  | 'empty-segment'
  /** The segment file is shorter than its 8-byte header. */
  | 'torn-segment-header'
  /** The segment file does not start with the WAL magic. */
  | 'bad-segment-header'
  /** Fewer than 9 bytes (a frame header) remain. */
  | 'torn-frame-header'
  /** The frame's payload length runs past the end of the file. */
  | 'torn-frame'
  /** The frame's CRC-32 does not match its type and payload. */
  | 'checksum-mismatch'
  /** The frame's checksum is right but its record type is not one format v1 defines. */
  | 'unknown-record-type'
  /** Everything from the frame on is zero bytes (a file extended but never written). */
  | 'zero-filled-tail'
  /** A segment index is missing from an otherwise consecutive run. */
  | 'missing-segment';

/** The outcome of walking one segment. */
export interface FrameScan {
  /** The number of valid frames handed to the callback. */
  frames: number;
  /** The byte offset where the valid data ends (the file length when all of it is valid). */
  validEnd: number;
  /** Why the data ended early, or null when the whole file is valid. */
  reason: CorruptionReason | null;
}

function allZero(data: Uint8Array, from: number): boolean {
  for (let i = from; i < data.length; i++) if (data[i] !== 0) return false;
  return true;
}

/**
 * Walks the frames of a segment's bytes, calling `onFrame` with a view of each valid payload
 * (valid only during the call). Stops at the first invalid frame. Throws `StorageError`
 * `ERR_CORRUPTION` for a well-formed header of a format version this code does not read,
 * because truncating a newer writer's data would destroy it.
 */
export function scanFrames(
  data: Uint8Array,
  onFrame: (type: RecordType, payload: Uint8Array) => void,
  fileName: string,
): FrameScan {
  if (data.length === 0) return { frames: 0, validEnd: 0, reason: 'empty-segment' };
  if (!hasSegmentMagic(data)) {
    const reason = data.length < 4 ? 'torn-segment-header' : 'bad-segment-header';
    return { frames: 0, validEnd: 0, reason: allZero(data, 0) ? 'zero-filled-tail' : reason };
  }
  if (data.length < SEGMENT_HEADER_BYTES) return { frames: 0, validEnd: 0, reason: 'torn-segment-header' };
  if (data[4] !== WAL_FORMAT_VERSION) {
    throw new StorageError(
      StorageErrorCode.CORRUPTION,
      `wal: ${fileName} has format version ${data[4]}; this build reads version ${WAL_FORMAT_VERSION}`,
    );
  }
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let off = SEGMENT_HEADER_BYTES;
  let frames = 0;
  let reason: CorruptionReason | null = null;
  while (off < data.length) {
    if (data.length - off < FRAME_HEADER_BYTES) {
      reason = 'torn-frame-header';
      break;
    }
    const len = dv.getUint32(off, true);
    const end = off + FRAME_HEADER_BYTES + len;
    if (end > data.length) {
      reason = 'torn-frame';
      break;
    }
    if (crc32(data.subarray(off + 8, end)) !== dv.getUint32(off + 4, true)) {
      reason = 'checksum-mismatch';
      break;
    }
    const type = data[off + 8];
    if (!isKnownRecordType(type)) {
      reason = 'unknown-record-type';
      break;
    }
    onFrame(type, data.subarray(off + FRAME_HEADER_BYTES, end));
    frames++;
    off = end;
  }
  if (reason !== null && allZero(data, off)) reason = 'zero-filled-tail';
  return { frames, validEnd: off, reason };
}
