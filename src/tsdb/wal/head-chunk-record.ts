/**
 * The HEAD_CHUNK record (type 4): head chunks as encoded bytes, so that a restart loads them
 * instead of re-encoding their samples. Written to the head-chunks log as chunks are sealed and
 * to checkpoints for every series' open chunk; one record holds many chunks, of any series.
 * Layout (docs/formats/wal.md), per chunk: uvarint series ref, zigzag varint minTimeMs, uvarint
 * maxTimeMs - minTimeMs, uvarint flags (bit 0: the chunk was still open), uvarint length, bytes.
 */
import { StorageError, StorageErrorCode } from '../../storage/index.js';
import type { ByteBuffer } from './byte-buffer.js';
import { ByteReader, putUvarint, putVarint } from './varint.js';

/** Flag bit of a chunk that was still being appended to when it was written. */
export const HEAD_CHUNK_OPEN = 1;

/** One chunk in a HEAD_CHUNK record. */
export interface HeadChunkEntry {
  minTimeMs: number;
  maxTimeMs: number;
  flags: number;
  bytes: Uint8Array;
}

/** Appends one chunk entry of series `ref` to a HEAD_CHUNK payload being built in `out`. */
export function encodeHeadChunk(out: ByteBuffer, ref: number, chunk: HeadChunkEntry): void {
  out.ensure(50 + chunk.bytes.length);
  const b = out.bytes;
  let pos = putUvarint(b, out.length, ref);
  pos = putVarint(b, pos, chunk.minTimeMs);
  pos = putUvarint(b, pos, chunk.maxTimeMs - chunk.minTimeMs);
  pos = putUvarint(b, pos, chunk.flags);
  pos = putUvarint(b, pos, chunk.bytes.length);
  b.set(chunk.bytes, pos);
  out.length = pos + chunk.bytes.length;
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
    fn(ref, entry);
    n++;
  }
  if (r.pos !== r.end) throw new StorageError(StorageErrorCode.CORRUPTION, 'wal: malformed HEAD_CHUNK record');
  return n;
}
