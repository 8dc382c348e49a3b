import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { BitReader } from './bit-reader.js';
import { BitWriter } from './bit-writer.js';
import { FC_OPTIONS } from './testing/samples.js';
import {
  byteCursor,
  MAX_VARINT_LEN,
  putUvarint,
  putVarint,
  readUvarint,
  readUvarint64Bits,
  readUvarintBits,
  readVarint,
  readVarintBits,
  uvarintSize,
  varintSize,
  writeUvarint64Bits,
  writeUvarintBits,
  writeVarintBits,
  type Uint64Parts,
} from './varint.js';

const MAX = Number.MAX_SAFE_INTEGER;

/** Go's binary.PutUvarint, on BigInt: the reference the fast paths must agree with. */
function refUvarint(n: bigint): number[] {
  const out: number[] = [];
  while (n >= 128n) {
    out.push(Number(n & 127n) | 0x80);
    n >>= 7n;
  }
  out.push(Number(n));
  return out;
}

function refVarint(n: number): number[] {
  const b = BigInt(n);
  return refUvarint(b < 0n ? -2n * b - 1n : 2n * b);
}

function hex(bytes: ArrayLike<number>): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(' ');
}

function encodeU(n: number): Uint8Array {
  const buf = new Uint8Array(MAX_VARINT_LEN + 2);
  return buf.slice(0, putUvarint(buf, 0, n));
}

function encodeS(n: number): Uint8Array {
  const buf = new Uint8Array(MAX_VARINT_LEN + 2);
  return buf.slice(0, putVarint(buf, 0, n));
}

describe('uvarint over a byte buffer', () => {
  test.each([
    [0, '00'],
    [1, '01'],
    [127, '7f'],
    [128, '80 01'],
    [300, 'ac 02'],
    [16383, 'ff 7f'],
    [16384, '80 80 01'],
    [2 ** 31 - 1, 'ff ff ff ff 07'],
    [2 ** 31, '80 80 80 80 08'],
    [2 ** 32 - 1, 'ff ff ff ff 0f'],
    [2 ** 32, '80 80 80 80 10'],
    [2 ** 49, '80 80 80 80 80 80 80 01'],
    [MAX, 'ff ff ff ff ff ff ff 0f'],
  ])('%d <-> %s', (n, want) => {
    const bytes = encodeU(n);
    expect(hex(bytes)).toBe(want);
    expect(uvarintSize(n)).toBe(bytes.length);
    expect(readUvarint(bytes, 0)).toBe(n);
    expect(byteCursor.offset).toBe(bytes.length);
  });

  test('agrees with the BigInt reference and round-trips (property)', () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), fc.nat({ max: 5 }), (n, off) => {
        const buf = new Uint8Array(off + MAX_VARINT_LEN);
        const end = putUvarint(buf, off, n);
        const cursor = { offset: 0 };
        return (
          hex(buf.subarray(off, end)) === hex(refUvarint(BigInt(n))) &&
          end - off === uvarintSize(n) &&
          readUvarint(buf, off, cursor) === n &&
          cursor.offset === end
        );
      }),
      FC_OPTIONS,
    );
  });

  test('reads consecutive values with one cursor', () => {
    const values = [0, 127, 128, 2 ** 31, 2 ** 32, MAX, 5];
    const buf = new Uint8Array(values.length * MAX_VARINT_LEN);
    let off = 0;
    for (const v of values) off = putUvarint(buf, off, v);
    const cursor = { offset: 0 };
    const got: number[] = [];
    while (cursor.offset < off) got.push(readUvarint(buf, cursor.offset, cursor));
    expect(got).toEqual(values);
  });

  test.each([
    ['empty', [], 0],
    ['truncated', [0x80], 0],
    ['truncated long', [0xff, 0xff, 0xff, 0xff, 0xff], 0],
    ['offset past end', [0x01], 1],
    ['negative offset', [0x01], -1],
    ['above 2^53 - 1', [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x10], 0],
    ['longer than 10 bytes', [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00], 0],
  ])('%s -> NaN and offset -1', (_name, bytes, off) => {
    const cursor = { offset: 7 };
    expect(readUvarint(new Uint8Array(bytes), off, cursor)).toBeNaN();
    expect(cursor.offset).toBe(-1);
  });

  test('stops at the end of a subarray view', () => {
    const whole = new Uint8Array([0x80, 0x01]);
    expect(readUvarint(whole.subarray(0, 1), 0)).toBeNaN();
  });

  test.each([-1, MAX + 1, 2 ** 53, Number.NaN, Infinity])('putUvarint(%d) throws', (n) => {
    expect(() => putUvarint(new Uint8Array(16), 0, n)).toThrow(RangeError);
  });
});

describe('zigzag varint over a byte buffer', () => {
  test.each([
    [0, '00'],
    [-1, '01'],
    [1, '02'],
    [63, '7e'],
    [-64, '7f'],
    [64, '80 01'],
    [-65, '81 01'],
    [2 ** 31, '80 80 80 80 10'],
    [-(2 ** 31), 'ff ff ff ff 0f'],
    [-(2 ** 32), 'ff ff ff ff 1f'],
    [MAX, 'fe ff ff ff ff ff ff 1f'],
    [-MAX, 'fd ff ff ff ff ff ff 1f'],
  ])('%d <-> %s', (n, want) => {
    const bytes = encodeS(n);
    expect(hex(bytes)).toBe(want);
    expect(varintSize(n)).toBe(bytes.length);
    expect(readVarint(bytes, 0)).toBe(n);
    expect(byteCursor.offset).toBe(bytes.length);
  });

  test('agrees with the BigInt reference and round-trips (property)', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => {
        const bytes = encodeS(n);
        const cursor = { offset: 0 };
        return (
          hex(bytes) === hex(refVarint(n)) &&
          varintSize(n) === bytes.length &&
          readVarint(bytes, 0, cursor) === n &&
          cursor.offset === bytes.length
        );
      }),
      FC_OPTIONS,
    );
  });

  test('-0 encodes as 0', () => {
    expect(hex(encodeS(-0))).toBe('00');
  });

  test.each([
    ['empty', []],
    ['truncated', [0x81]],
    ['magnitude above 2^53', [0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x3f]],
  ])('%s -> NaN and offset -1', (_name, bytes) => {
    const cursor = { offset: 0 };
    expect(readVarint(new Uint8Array(bytes), 0, cursor)).toBeNaN();
    expect(cursor.offset).toBe(-1);
  });

  test.each([MAX + 1, -MAX - 1, Number.NaN])('putVarint(%d) throws', (n) => {
    expect(() => putVarint(new Uint8Array(16), 0, n)).toThrow(RangeError);
  });
});

describe('varints in a bit stream', () => {
  test('unaligned unsigned and signed varints round-trip (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), fc.maxSafeInteger()), { maxLength: 50 }),
        (items) => {
          const w = new BitWriter(1);
          w.writeBits(0b101, 3); // misalign everything after
          for (const [signed, n] of items) {
            if (signed) writeVarintBits(w, n);
            else writeUvarintBits(w, Math.abs(n));
          }
          const r = new BitReader(w.bytes());
          r.readBits(3);
          for (const [signed, n] of items) {
            const got = signed ? readVarintBits(r) : readUvarintBits(r);
            if (got !== (signed ? n : Math.abs(n))) return false;
          }
          return !r.overflowed;
        },
      ),
      FC_OPTIONS,
    );
  });

  test('bit-stream bytes equal byte-buffer bytes', () => {
    for (const n of [0, 127, 128, 2 ** 31, 2 ** 32, MAX]) {
      const w = new BitWriter();
      writeUvarintBits(w, n);
      expect(hex(w.bytes())).toBe(hex(encodeU(n)));
      const ws = new BitWriter();
      writeVarintBits(ws, -n);
      expect(hex(ws.bytes())).toBe(hex(encodeS(-n)));
    }
  });

  test('64-bit uvarints round-trip and match the reference (property)', () => {
    const out: Uint64Parts = { hi: 0, lo: 0 };
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), (n) => {
        const hi = Number(n >> 32n);
        const lo = Number(n & 0xffffffffn);
        const w = new BitWriter();
        writeUvarint64Bits(w, hi, lo);
        const r = new BitReader(w.bytes());
        return (
          hex(w.bytes()) === hex(refUvarint(n)) &&
          readUvarint64Bits(r, out) &&
          out.hi === hi &&
          out.lo === lo
        );
      }),
      FC_OPTIONS,
    );
  });

  test.each([
    ['truncated', [0x80]],
    ['more than 64 bits', [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02]],
    ['longer than 10 bytes', [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00]],
  ])('readUvarint64Bits rejects %s', (_name, bytes) => {
    expect(readUvarint64Bits(new BitReader(new Uint8Array(bytes)), { hi: 0, lo: 0 })).toBe(false);
  });

  test('readUvarintBits and readVarintBits return NaN on bad input', () => {
    expect(readUvarintBits(new BitReader(new Uint8Array([0x80])))).toBeNaN();
    expect(readUvarintBits(new BitReader(new Uint8Array(refUvarint(2n ** 53n))))).toBeNaN();
    expect(readVarintBits(new BitReader(new Uint8Array([])))).toBeNaN();
    expect(readVarintBits(new BitReader(new Uint8Array([0x81])))).toBeNaN();
  });
});
