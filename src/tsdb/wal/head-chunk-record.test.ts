import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StorageErrorCode } from '../../storage/index.js';
import { ByteBuffer } from './byte-buffer.js';
import { HEAD_CHUNK_ENCODER, HEAD_CHUNK_OPEN, decodeHeadChunks, encodeHeadChunk, type HeadChunkEntry } from './head-chunk-record.js';

type Entry = [number, HeadChunkEntry];

function encode(entries: Entry[]): Uint8Array {
  const buf = new ByteBuffer(16);
  for (const [ref, c] of entries) encodeHeadChunk(buf, ref, c);
  return buf.subarray().slice();
}

function decode(payload: Uint8Array): Entry[] {
  const out: Entry[] = [];
  decodeHeadChunks(payload, (ref, c) => {
    const copy: HeadChunkEntry = { minTimeMs: c.minTimeMs, maxTimeMs: c.maxTimeMs, flags: c.flags, bytes: c.bytes.slice() };
    if (c.encoder !== undefined) copy.encoder = { ...c.encoder };
    out.push([ref, copy]);
  });
  return out;
}

describe('HEAD_CHUNK records', () => {
  it('round-trip any entries (property)', () => {
    const entry = fc.tuple(
      fc.nat(),
      fc.record({
        minTimeMs: fc.integer({ min: -(2 ** 52), max: 2 ** 52 }),
        span: fc.nat({ max: 2 ** 40 }),
        flags: fc.constantFrom(0, HEAD_CHUNK_OPEN),
        bytes: fc.uint8Array({ maxLength: 300 }),
      }),
    );
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 20 }), (raw) => {
        const entries: Entry[] = raw.map(([ref, e]) => [ref, { minTimeMs: e.minTimeMs, maxTimeMs: e.minTimeMs + e.span, flags: e.flags, bytes: e.bytes }]);
        expect(decode(encode(entries))).toEqual(entries);
      }),
    );
  });

  it('round-trips an open chunk with its encoder state', () => {
    const encoder = { tFirst: 1000, tLast: 5000, delta: 2000, deltaHuge: false, deltaHi: 0, deltaLo: 0, vHi: 0xfff00000, vLo: 2, leading: 12, trailing: 3, lengthBits: 77 };
    const entry: HeadChunkEntry = { minTimeMs: 1000, maxTimeMs: 5000, flags: HEAD_CHUNK_OPEN | HEAD_CHUNK_ENCODER, bytes: new Uint8Array(12).fill(7), encoder };
    const [[ref, got]] = decode(encode([[3, entry]]));
    expect(ref).toBe(3);
    expect(got).toEqual(entry);
  });

  it('refuses an encoder state that does not fit its chunk', () => {
    const encoder = { tFirst: 1000, tLast: 5000, delta: 2000, deltaHuge: false, deltaHi: 0, deltaLo: 0, vHi: 1, vLo: 2, leading: 12, trailing: 3, lengthBits: 9999 };
    const payload = encode([[3, { minTimeMs: 1000, maxTimeMs: 5000, flags: HEAD_CHUNK_OPEN | HEAD_CHUNK_ENCODER, bytes: new Uint8Array(12), encoder }]]);
    expect(() => decode(payload)).toThrow(expect.objectContaining({ code: StorageErrorCode.CORRUPTION }));
  });

  it.each([
    ['a chunk length past the end', (p: Uint8Array) => p.subarray(0, p.length - 3)],
    ['a payload cut inside an entry header', (p: Uint8Array) => p.subarray(0, 3)],
    ['a huge length', () => Uint8Array.from([1, 2, 3, 0, 0xff, 0xff, 0xff, 0xff, 0x0f])],
  ])('refuse %s with ERR_CORRUPTION', (_name, mangle) => {
    const payload = mangle(encode([[7, { minTimeMs: 1000, maxTimeMs: 2000, flags: 0, bytes: Uint8Array.from([1, 2, 3, 4, 5, 6]) }]]));
    expect(() => decode(payload)).toThrow(expect.objectContaining({ code: StorageErrorCode.CORRUPTION }));
  });
});
