import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ArraySeriesIterator } from '../../model/index.js';
import { BitWriter } from './bit-writer.js';
import { writeUvarintBits, writeVarintBits } from './varint.js';
import { XorChunk } from './xor-chunk.js';
import { CorruptChunkError } from './xor-format.js';
import { XorIterator } from './xor-iterator.js';
import { mulberry32 } from '../../model/index.js';
import {
  diffSamples,
  FC_OPTIONS,
  fromBits,
  seriesArb,
  timestampsArb,
  type SeriesCase,
} from './testing/samples.js';

const MAX = Number.MAX_SAFE_INTEGER;

function encode(c: SeriesCase): XorChunk {
  const chunk = new XorChunk();
  for (let i = 0; i < c.ts.length; i++) chunk.append(c.ts[i], fromBits(c.hi[i], c.lo[i]));
  return chunk;
}

function chunkOf(ts: number[]): XorChunk {
  const chunk = new XorChunk();
  for (const t of ts) chunk.append(t, t / 1000);
  return chunk;
}

describe('XorIterator.seek', () => {
  const ts = [10, 20, 30];

  // Each case is a sequence of seeks (or 'n' for next) and the timestamp (or false) after each.
  test.each([
    ['before the first sample', [5], [10]],
    ['an exact hit', [20], [20]],
    ['between samples', [21], [30]],
    ['the last sample', [30], [30]],
    ['past the end', [31], [false]],
    ['never backwards', [25, 10], [30, 30]],
    ['a no-op when already there', [20, 20, 15], [20, 20, 20]],
    ['then next', [15, 'n', 'n'], [20, 30, false]],
    ['next then seek back', ['n', 'n', 5], [10, 20, 20]],
    ['exhausted stays exhausted', [40, 5, 'n'], [false, false, false]],
    ['next past the end then seek', ['n', 'n', 'n', 'n', 0], [10, 20, 30, false, false]],
    ['the smallest timestamp', [Number.MIN_SAFE_INTEGER], [10]],
  ])('%s', (_name, ops, want) => {
    const it = chunkOf(ts).iterator();
    const got = ops.map((op) => {
      const ok = op === 'n' ? it.next() : it.seek(op as number);
      return ok ? it.at().tMs : false;
    });
    expect(got).toEqual(want);
    expect(it.err()).toBeNull();
  });

  test('agrees with ArraySeriesIterator on random next/seek sequences (property)', () => {
    const opArb = fc.oneof(
      fc.constant<['next', number, number]>(['next', 0, 0]),
      fc.tuple(fc.constant<'seek'>('seek'), fc.nat(), fc.integer({ min: -2, max: 2 })),
      fc.tuple(fc.constant<'seek'>('seek'), fc.nat(), fc.maxSafeInteger()),
    );
    fc.assert(
      fc.property(timestampsArb, fc.array(opArb, { maxLength: 40 }), (ts, ops) => {
        const values = new Float64Array(ts.map((t) => t / 1000));
        const it = chunkOf(ts).iterator();
        const ref = new ArraySeriesIterator(ts, values);
        for (const [op, index, offset] of ops) {
          let got: boolean;
          let want: boolean;
          if (op === 'next') {
            got = it.next();
            want = ref.next();
          } else {
            // Aim near existing timestamps, or anywhere when the offset is large.
            const base = Math.abs(offset) > 2 ? 0 : ts[index % ts.length];
            const target = Math.min(MAX, Math.max(-MAX, base + offset));
            got = it.seek(target);
            want = ref.seek(target);
          }
          if (got !== want) return false;
          if (got && (it.at().tMs !== ref.at().tMs || it.at().value !== ref.at().value)) return false;
        }
        return it.err() === null;
      }),
      FC_OPTIONS,
    );
  });
});

describe('XorIterator reuse and snapshots', () => {
  test('at() returns one reused object; reset switches chunks without a new iterator', () => {
    const it = new XorIterator();
    expect(it.next()).toBe(false);
    chunkOf([1, 2]).iterator(it);
    expect(it.next()).toBe(true);
    const first = it.at();
    expect(it.next()).toBe(true);
    expect(it.at()).toBe(first);
    expect(first.tMs).toBe(2);
    expect(chunkOf([7]).iterator(it)).toBe(it);
    expect(it.next() && it.at().tMs).toBe(7);
  });

  test('an iterator over a live chunk ignores later appends, across buffer growth', () => {
    const chunk = chunkOf([1000, 2000, 3000]);
    const it = chunk.iterator();
    const random = mulberry32(20261201);
    for (let i = 4; i < 200; i++) chunk.append(i * 1000, random());
    const seen: number[] = [];
    while (it.next()) seen.push(it.at().tMs);
    expect(seen).toEqual([1000, 2000, 3000]);
    expect(chunk.iterator().seek(199_000)).toBe(true);
  });

  test('reset(bytes, n) reads a prefix; n larger than the header is capped', () => {
    const bytes = chunkOf([1, 2, 3, 4]).sealedBytes();
    const count = (it: XorIterator): number => {
      let n = 0;
      while (it.next()) n++;
      return n;
    };
    expect(count(new XorIterator(bytes, 2))).toBe(2);
    expect(count(new XorIterator(bytes, 10))).toBe(4);
    expect(count(new XorIterator(bytes, 0))).toBe(0);
  });
});

/** Drains an iterator defensively; returns the timestamps and whether it ended in an error. */
function drain(it: XorIterator, limit: number): { ts: number[]; err: boolean } {
  const ts: number[] = [];
  while (ts.length <= limit && it.next()) ts.push(it.at().tMs);
  return { ts, err: it.err() !== null };
}

describe('XorIterator on corrupt input', () => {
  test('every truncation of a chunk ends with err(), even inside a larger buffer (property)', () => {
    fc.assert(
      fc.property(seriesArb, (c) => {
        const full = encode(c).sealedBytes();
        for (let len = 0; len < full.length; len++) {
          const { ts, err } = drain(new XorIterator(full.subarray(0, len)), c.ts.length);
          if (!err || ts.length >= c.ts.length) return false;
          if (ts.some((t, i) => t !== c.ts[i])) return false;
        }
        return true;
      }),
      { ...FC_OPTIONS, numRuns: 60 },
    );
  });

  test('random bytes never throw, never exceed the header count, never go backwards (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), fc.integer({ min: -MAX, max: MAX }), (bytes, t) => {
        const header = bytes.length >= 2 ? (bytes[0] << 8) | bytes[1] : 0;
        const chunk = XorChunk.fromBytes(bytes);
        chunk.minTimeMs();
        chunk.maxTimeMs();
        chunk.iterator().seek(t);
        const { ts } = drain(chunk.iterator(), header);
        return ts.length <= header && ts.every((x, i) => Number.isSafeInteger(x) && (i === 0 || x > ts[i - 1]));
      }),
      { ...FC_OPTIONS, numRuns: 2000 },
    );
  });

  test('flipped bits in a valid chunk never throw or break ordering (property)', () => {
    fc.assert(
      fc.property(seriesArb, fc.nat(), (c, bit) => {
        const bytes = encode(c).sealedBytes();
        bytes[(bit >>> 3) % bytes.length] ^= 1 << (bit & 7);
        const { ts } = drain(new XorIterator(bytes), 0xffff);
        return ts.every((x, i) => Number.isSafeInteger(x) && (i === 0 || x > ts[i - 1]));
      }),
      FC_OPTIONS,
    );
  });

  /** Builds a chunk by hand: header, first sample (t0, value 0), second sample's delta. */
  function handmade(count: number, t0: number, delta: number, rest: (w: BitWriter) => void): Uint8Array {
    const w = new BitWriter();
    w.writeBits(count, 16);
    writeVarintBits(w, t0);
    w.writeBits64(0, 0);
    writeUvarintBits(w, delta);
    rest(w);
    return w.copyBytes();
  }

  test.each([
    ['no header', new Uint8Array(0), 0],
    ['half a header', new Uint8Array([0]), 0],
    ['window reuse before any window', handmade(2, 0, 10, (w) => w.writeBits(0b10, 2)), 1],
    ['a window wider than 64 bits', handmade(2, 0, 10, (w) => w.writeBits(0b11_11111_111111, 13)), 1],
    ['a zero delta', handmade(2, 0, 0, (w) => w.writeBit(0)), 1],
    ['a dod that stops time', handmade(3, 0, 10, (w) => w.writeBits(0b0_10_11111111110110_0, 18)), 2],
    ['a timestamp past 2^53', handmade(2, MAX, 1, (w) => w.writeBit(0)), 1],
    ['a truncated first varint', new Uint8Array([0, 1, 0x80]), 0],
  ])('%s ends iteration with err()', (_name, bytes, good) => {
    const it = new XorIterator(bytes);
    const { ts, err } = drain(it, 10);
    expect(ts.length).toBe(good);
    expect(err).toBe(true);
    expect(it.err()).toBeInstanceOf(CorruptChunkError);
    expect((it.err() as CorruptChunkError).code).toBe('ERR_CORRUPTION');
    expect(it.next()).toBe(false);
    expect(it.seek(0)).toBe(false);
  });

  test('a header count of zero with trailing bytes is an empty chunk', () => {
    expect(diffSamples(new XorIterator(new Uint8Array([0, 0, 0xff])), { ts: [], hi: [], lo: [] })).toBeNull();
  });
});
