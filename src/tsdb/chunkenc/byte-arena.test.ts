import { describe, expect, it } from 'vitest';
import { allocChunkBytes, copyChunkBytes } from './byte-arena.js';

describe('chunk byte arena', () => {
  it('hands out zero-filled, non-overlapping buffers', () => {
    const views = Array.from({ length: 5000 }, (_, i) => allocChunkBytes(1 + (i % 300)));
    views.forEach((v, i) => {
      expect(v.length).toBe(1 + (i % 300));
      expect(v.every((b) => b === 0)).toBe(true);
      v.fill(i & 0xff);
    });
    // Writing every view did not touch any other one.
    views.forEach((v, i) => expect(v.every((b) => b === (i & 0xff))).toBe(true));
  });

  it('gives large requests their own buffer, and copies exactly', () => {
    const big = allocChunkBytes(100_000);
    expect(big.buffer.byteLength).toBe(100_000);
    const src = Uint8Array.from([1, 2, 3]);
    const copy = copyChunkBytes(src);
    src[0] = 9;
    expect([...copy]).toEqual([1, 2, 3]);
  });
});
