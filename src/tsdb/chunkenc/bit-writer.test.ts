import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { BitReader } from './bit-reader.js';
import { BitWriter } from './bit-writer.js';
import { FC_OPTIONS } from './testing/samples.js';

/** One write: `count` low bits of `value`. */
type Field = [value: number, count: number];

const fieldArb: fc.Arbitrary<Field> = fc
  .tuple(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 32 }))
  .map(([v, n]): Field => [v, n]);

function masked([value, count]: Field): number {
  return count === 32 ? value >>> 0 : value & ((1 << count) - 1);
}

describe('BitWriter', () => {
  test('packs bits most significant first', () => {
    const w = new BitWriter();
    w.writeBit(1);
    w.writeBits(0b01, 2);
    w.writeBits(0b10110, 5);
    w.writeBits(0xabc, 12);
    expect(w.lengthBits).toBe(20);
    expect([...w.bytes()]).toEqual([0b10110110, 0xab, 0xc0]);
  });

  test.each([
    [0, 0, []],
    [1, 1, [0x80]],
    [0xffffffff, 32, [0xff, 0xff, 0xff, 0xff]],
    [0x80000001, 32, [0x80, 0x00, 0x00, 0x01]],
    [-1, 7, [0xfe]], // a negative int32 writes its two's complement low bits
    [0x1ff, 8, [0xff]], // bits above count are ignored
  ])('writeBits(%d, %d) -> %j', (value, count, want) => {
    const w = new BitWriter();
    w.writeBits(value, count);
    expect([...w.bytes()]).toEqual(want);
  });

  test('grows by doubling and keeps old views intact', () => {
    const w = new BitWriter(4);
    w.writeBits(0xdeadbeef, 32);
    const before = w.bytes();
    for (let i = 0; i < 100; i++) w.writeBits(i, 8);
    expect([...before]).toEqual([0xde, 0xad, 0xbe, 0xef]);
    expect(w.lengthBytes).toBe(104);
    expect(w.bytes()[103]).toBe(99);
  });

  test('a view taken mid-byte is not changed by later writes', () => {
    const w = new BitWriter();
    w.writeBits(0b101, 3);
    const view = w.bytes();
    const r = new BitReader(view);
    w.writeBits(0b11111, 5);
    expect(r.readBits(3)).toBe(0b101);
    expect(r.remainingBits).toBe(5);
    expect(view.length).toBe(1);
  });

  test('patchUint16 rewrites a header in place', () => {
    const w = new BitWriter();
    w.writeBits(0, 16);
    w.writeBits(0x7, 3);
    w.patchUint16(0, 0x1234);
    expect([...w.bytes()]).toEqual([0x12, 0x34, 0xe0]);
    expect(() => w.patchUint16(2, 1)).toThrow(RangeError);
  });

  test('resume continues a stream and clears stray bits past its length', () => {
    const w = BitWriter.resume(new Uint8Array([0xab, 0b1011_1111, 0x77]), 12, 1);
    w.writeBits(0b0101, 4);
    w.writeBits(0x3, 2);
    expect(w.lengthBits).toBe(18);
    expect([...w.bytes()]).toEqual([0xab, 0b1011_0101, 0b1100_0000]);
  });

  test('copyBytes is exact-size and detached; finish is bytes', () => {
    const w = new BitWriter();
    w.writeBits(0xabcd, 16);
    const copy = w.copyBytes();
    expect(copy.length).toBe(2); // exact-size view (chunk bytes share arena slabs, see byte-arena.ts)
    w.reset();
    expect(w.lengthBits).toBe(0);
    expect([...copy]).toEqual([0xab, 0xcd]);
    w.writeBits(1, 1);
    expect([...w.finish()]).toEqual([0x80]);
  });
});

describe('BitReader', () => {
  test('reads what the writer wrote (property)', () => {
    fc.assert(
      fc.property(fc.array(fieldArb, { maxLength: 200 }), (fields) => {
        const w = new BitWriter(1);
        for (const [v, n] of fields) w.writeBits(v, n);
        const r = new BitReader(w.bytes());
        for (const f of fields) {
          if (r.readBits(f[1]) !== masked(f)) return false;
        }
        return !r.overflowed && r.remainingBits < 8;
      }),
      FC_OPTIONS,
    );
  });

  test('mixed single bits and 64-bit halves round-trip', () => {
    const w = new BitWriter();
    w.writeBit(1);
    w.writeBits64(0x89abcdef, 0x01234567);
    w.writeBit(0);
    w.writeBit(1);
    const r = new BitReader(w.bytes());
    expect(r.readBit()).toBe(1);
    expect(r.readBits(32)).toBe(0x89abcdef);
    expect(r.readBits(32)).toBe(0x01234567);
    expect(r.readBit()).toBe(0);
    expect(r.readBit()).toBe(1);
  });

  test.each([
    [0b1111111, 7, -1],
    [0b0111111, 7, 63],
    [0b1000000, 7, -64],
    [0xffffffff, 32, -1],
    [0x2000, 14, -8192],
  ])('readSignedBits sign-extends %d over %d bits to %d', (value, count, want) => {
    const w = new BitWriter();
    w.writeBits(value, count);
    expect(new BitReader(w.bytes()).readSignedBits(count)).toBe(want);
  });

  test('reading past the end returns zeros and sets overflowed', () => {
    const bytes = new Uint8Array([0xff, 0xff]);
    const r = new BitReader(bytes);
    expect(r.readBits(12)).toBe(0xfff);
    expect(r.overflowed).toBe(false);
    expect(r.readBits(5)).toBe(0);
    expect(r.overflowed).toBe(true);
    expect(r.remainingBits).toBe(0);
    expect(r.readBit()).toBe(0);
  });

  test('never reads beyond a subarray view into the rest of its buffer', () => {
    const whole = new Uint8Array([0x00, 0xff, 0xff, 0xff]);
    const r = new BitReader(whole.subarray(0, 1));
    expect(r.readBits(8)).toBe(0);
    expect(r.readBit()).toBe(0);
    expect(r.overflowed).toBe(true);
  });

  test('reset with a start byte skips a header; a start past the end overflows', () => {
    const r = new BitReader(new Uint8Array([1, 2, 3]), 2);
    expect(r.positionBits).toBe(16);
    expect(r.readBits(8)).toBe(3);
    r.reset(new Uint8Array([1]), 2);
    expect(r.overflowed).toBe(true);
    expect(new BitReader().readBit()).toBe(0);
  });
});
