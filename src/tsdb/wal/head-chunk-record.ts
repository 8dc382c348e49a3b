/**
 * The HEAD_CHUNK record (type 4): head chunks of one series as encoded bytes, so that a restart
 * loads them instead of re-encoding their samples. Written to the head-chunks log whenever a
 * chunk is sealed, and to checkpoints for every series' open chunk. Layout (docs/formats/wal.md):
 * uvarint series ref, then per chunk: zigzag varint minTimeMs, uvarint maxTimeMs - minTimeMs,
 * uvarint flags (bit 0: the chunk was still open), uvarint length, the chunk's bytes.
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

/** Appends the HEAD_CHUNK payload of series `ref` with `chunks` to `out`. */
export function encodeHeadChunks(out: ByteBuffer, ref: number, chunks: readonly HeadChunkEntry[]): void {
  let size = 10;
  for (const c of chunks) size += 40 + c.bytes.length;
  out.ensure(size);
  const b = out.bytes;
  let pos = putUvarint(b, out.length, ref);
  for (const c of chunks) {
    pos = putVarint(b, pos, c.minTimeMs);
    pos = putUvarint(b, pos, c.maxTimeMs - c.minTimeMs);
    pos = putUvarint(b, pos, c.flags);
    pos = putUvarint(b, pos, c.bytes.length);
    b.set(c.bytes, pos);
    pos += c.bytes.length;
  }
  out.length = pos;
}

/**
 * Decodes a HEAD_CHUNK payload, calling `fn` per chunk with a view of its bytes that is valid
 * only during the call (copy it to keep it). Returns the series ref. Throws `ERR_CORRUPTION`
 * when the payload is malformed.
 */
export function decodeHeadChunks(payload: Uint8Array, fn: (ref: number, chunk: HeadChunkEntry) => void): number {
  const r = new ByteReader(payload, 0, payload.length);
  const ref = r.uvarint();
  const entry: HeadChunkEntry = { minTimeMs: 0, maxTimeMs: 0, flags: 0, bytes: payload };
  while (r.pos < r.end) {
    entry.minTimeMs = r.varint();
    entry.maxTimeMs = entry.minTimeMs + r.uvarint();
    entry.flags = r.uvarint();
    const len = r.uvarint();
    if (!Number.isSafeInteger(entry.maxTimeMs) || len > r.end - r.pos) {
      throw new StorageError(StorageErrorCode.CORRUPTION, 'wal: malformed HEAD_CHUNK record');
    }
    entry.bytes = payload.subarray(r.pos, r.pos + len);
    r.pos += len;
    fn(ref, entry);
  }
  if (r.pos !== r.end) throw new StorageError(StorageErrorCode.CORRUPTION, 'wal: malformed HEAD_CHUNK record');
  return ref;
}
