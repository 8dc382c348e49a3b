/**
 * The HEAD_CHUNK record (type 4): head chunks as encoded bytes, so that a restart loads them
 * instead of re-encoding their samples. Written to the head-chunks log as chunks are sealed and
 * to checkpoints for every series' open chunk; one record holds many chunks, of any series.
 * Layout (docs/formats/wal.md), per chunk: uvarint series ref, zigzag varint minTimeMs, uvarint
 * maxTimeMs - minTimeMs, uvarint flags (bit 0: the chunk was still open; bit 1: the XOR encoder
 * state follows), uvarint length, bytes, then with bit 1: uvarint last delta, uvarint high and
 * low 32 bits of the last value, one byte each for the leading and trailing zero window, uvarint
 * bit length. The state lets a restart continue an open chunk without decoding it.
 */
import { StorageError, StorageErrorCode } from '../../storage/index.js';
import { newXorEncoderState, type XorEncoderState } from '../chunkenc/index.js';
import type { ByteBuffer } from './byte-buffer.js';
import { ByteReader, putUvarint, putVarint } from './varint.js';

/** Flag bit of a chunk that was still being appended to when it was written. */
export const HEAD_CHUNK_OPEN = 1;
/** Flag bit of an entry that carries the XOR encoder state after its bytes. */
export const HEAD_CHUNK_ENCODER = 2;

const ENCODER: XorEncoderState = newXorEncoderState();

/** One chunk in a HEAD_CHUNK record. */
export interface HeadChunkEntry {
  minTimeMs: number;
  maxTimeMs: number;
  flags: number;
  bytes: Uint8Array;
  /** With `HEAD_CHUNK_ENCODER`: the encoder state (tFirst/tLast are the entry's times). */
  encoder?: XorEncoderState;
}

/** Appends one chunk entry of series `ref` to a HEAD_CHUNK payload being built in `out`. */
export function encodeHeadChunk(out: ByteBuffer, ref: number, chunk: HeadChunkEntry): void {
  out.ensure(80 + chunk.bytes.length);
  const b = out.bytes;
  let pos = putUvarint(b, out.length, ref);
  pos = putVarint(b, pos, chunk.minTimeMs);
  pos = putUvarint(b, pos, chunk.maxTimeMs - chunk.minTimeMs);
  pos = putUvarint(b, pos, chunk.flags);
  pos = putUvarint(b, pos, chunk.bytes.length);
  b.set(chunk.bytes, pos);
  pos += chunk.bytes.length;
  const e = chunk.encoder;
  if ((chunk.flags & HEAD_CHUNK_ENCODER) !== 0 && e !== undefined) {
    pos = putUvarint(b, pos, e.delta);
    pos = putUvarint(b, pos, e.vHi >>> 0);
    pos = putUvarint(b, pos, e.vLo >>> 0);
    b[pos++] = e.leading;
    b[pos++] = e.trailing;
    pos = putUvarint(b, pos, e.lengthBits);
  }
  out.length = pos;
}

/**
 * Decodes a HEAD_CHUNK payload, calling `fn` per chunk with an entry object and a view of the
 * bytes that are both reused and valid only during the call (copy what you keep). Returns the
 * number of chunks. Throws `ERR_CORRUPTION` when the payload is malformed.
 */
export function decodeHeadChunks(payload: Uint8Array, fn: (ref: number, chunk: HeadChunkEntry) => void): number {
  const r = new ByteReader(payload, 0, payload.length);
  const entry: HeadChunkEntry = { minTimeMs: 0, maxTimeMs: 0, flags: 0, bytes: payload };
  let n = 0;
  while (r.pos < r.end) {
    const ref = r.uvarint();
    entry.minTimeMs = r.varint();
    entry.maxTimeMs = entry.minTimeMs + r.uvarint();
    entry.flags = r.uvarint();
    const len = r.uvarint();
    if (!Number.isSafeInteger(ref) || !Number.isSafeInteger(entry.maxTimeMs) || len > r.end - r.pos) {
      throw new StorageError(StorageErrorCode.CORRUPTION, 'wal: malformed HEAD_CHUNK record');
    }
    entry.bytes = payload.subarray(r.pos, r.pos + len);
    r.pos += len;
    entry.encoder = undefined;
    if ((entry.flags & HEAD_CHUNK_ENCODER) !== 0) {
      const e = ENCODER;
      e.tFirst = entry.minTimeMs;
      e.tLast = entry.maxTimeMs;
      e.delta = r.uvarint();
      e.vHi = r.uvarint();
      e.vLo = r.uvarint();
      e.leading = payload[r.pos++];
      e.trailing = payload[r.pos++];
      e.lengthBits = r.uvarint();
      if (r.pos > r.end || !(e.delta > 0) || e.vHi > 0xffffffff || e.vLo > 0xffffffff || e.trailing > 64 || e.lengthBits > len * 8) {
        throw new StorageError(StorageErrorCode.CORRUPTION, 'wal: malformed HEAD_CHUNK encoder state');
      }
      entry.encoder = e;
    }
    fn(ref, entry);
    n++;
  }
  if (r.pos !== r.end) throw new StorageError(StorageErrorCode.CORRUPTION, 'wal: malformed HEAD_CHUNK record');
  return n;
}
