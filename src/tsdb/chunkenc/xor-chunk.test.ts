import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { STALE_NAN } from '../../model/index.js';
import { BitReader } from './bit-reader.js';
import { uvarintSize } from './varint.js';
import { CHUNK_ENCODING_XOR, XorChunk } from './xor-chunk.js';
import { XorIterator } from './xor-iterator.js';
import {
  bitsHex,
  diffSamples,
  FC_OPTIONS,
  fromBits,
  seriesArb,
  toBits,
  type SeriesCase,
} from './testing/samples.js';

const MIN = Number.MIN_SAFE_INTEGER;
const MAX = Number.MAX_SAFE_INTEGER;

function encode(c: SeriesCase, n = c.ts.length): XorChunk {
  const chunk = new XorChunk();
  for (let i = 0; i < n; i++) chunk.append(c.ts[i], fromBits(c.hi[i], c.lo[i]));
  return chunk;
}

function constantSeries(ts: number[], value = 0): SeriesCase {
  const [hi, lo] = toBits(value);
  return { ts, hi: ts.map(() => hi), lo: ts.map(() => lo) };
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(' ');
}

/** Checks every way of reading a chunk back against the samples that built it. */
function roundTrip(c: SeriesCase): string | null {
  const chunk = encode(c);
  const sealed = chunk.sealedBytes();
  if (hex(sealed) !== hex(chunk.bytes())) return 'sealedBytes differs from bytes';
  if (sealed.length !== chunk.bytes().length) return 'sealedBytes is not exact-size';
  const frozen = XorChunk.fromBytes(sealed);
  const n = c.ts.length;
  for (const ch of [chunk, frozen, XorChunk.fromBytes(chunk.bytes())]) {
    if (ch.numSamples() !== n) return `numSamples ${ch.numSamples()}`;
    if (ch.minTimeMs() !== c.ts[0] || ch.maxTimeMs() !== c.ts[n - 1]) return 'time bounds';
  }
  return (
    diffSamples(chunk.iterator(), c) ??
    diffSamples(frozen.iterator(), c) ??
    diffSamples(frozen.iterator(chunk.iterator()), c) ??
    diffSamples(new XorIterator(sealed), c)
  );
}

describe('XorChunk round trip', () => {
  test('arbitrary timestamps and raw float64 bit patterns survive bit-exactly (property)', () => {
    fc.assert(
      fc.property(seriesArb, (c) => {
        const diff = roundTrip(c);
        if (diff !== null) throw new Error(diff);
      }),
      { ...FC_OPTIONS, numRuns: 400 },
    );
  });

  test('iterators taken mid-way see their snapshot (property)', () => {
    fc.assert(
      fc.property(seriesArb, fc.nat(), (c, cut) => {
        const k = cut % (c.ts.length + 1);
        const chunk = encode(c, k);
        const early = chunk.iterator();
        const earlyBytes = chunk.bytes();
        const earlyCount = chunk.numSamples();
        for (let i = k; i < c.ts.length; i++) chunk.append(c.ts[i], fromBits(c.hi[i], c.lo[i]));
        const diff =
          diffSamples(early, c, k) ??
          diffSamples(new XorIterator(earlyBytes, earlyCount), c, k) ??
          diffSamples(chunk.iterator(), c);
        if (diff !== null) throw new Error(diff);
      }),
      FC_OPTIONS,
    );
  });

  test('the stale marker and other NaN payloads keep their bits', () => {
    const chunk = new XorChunk();
    chunk.append(0, 1);
    chunk.append(15_000, STALE_NAN);
    chunk.append(30_000, STALE_NAN);
    chunk.append(45_000, Number.NaN);
    chunk.append(60_000, fromBits(0x7ff00000, 0x00000003));
    const it = chunk.iterator();
    const got: string[] = [];
    while (it.next()) got.push(bitsHex(it.at().value));
    expect(got).toEqual([
      '3ff0000000000000',
      '7ff0000000000002',
      '7ff0000000000002',
      '7ff8000000000000',
      '7ff0000000000003',
    ]);
  });

  test('a full chunk holds 65535 samples and refuses more', () => {
    const ts = Array.from({ length: 65535 }, (_, i) => i * 15_000 - 2 ** 40);
    const c = constantSeries(ts, 42);
    c.hi[1000] = 0x7ff00000;
    c.lo[1000] = 2;
    const chunk = encode(c);
    expect(() => chunk.append(2 ** 50, 1)).toThrow(RangeError);
    expect(diffSamples(XorChunk.fromBytes(chunk.sealedBytes()).iterator(), c)).toBeNull();
  });
});

describe('XorChunk timestamp buckets', () => {
  // Third sample's delta-of-delta -> number of leading 1 bits of its prefix (4 = 64-bit bucket).
  test.each([
    [0, 0],
    [1, 1],
    [-1, 1],
    [8192, 1],
    [-8191, 1],
    [8193, 2],
    [-8192, 2],
    [65535, 2],
    [-65535, 2],
    [65536, 2],
    [65537, 3],
    [-65536, 3],
    [524287, 3],
    [-524287, 3],
    [524288, 3],
    [524289, 4],
    [-524288, 4],
    [2 ** 40, 4],
    [-(2 ** 40 - 1), 4],
  ])('dod %d uses the bucket with %d leading ones', (dod, ones) => {
    const delta = 2 ** 40;
    const c = constantSeries([0, delta, 2 * delta + dod]);
    const bytes = encode(c).sealedBytes();
    // header, varint(0), raw value, uvarint(delta), '0' (same value), then the dod prefix.
    const r = new BitReader(bytes);
    r.readBits(16 + 8);
    r.readBits(32);
    r.readBits(32);
    for (let i = 0; i < uvarintSize(delta); i++) r.readBits(8);
    expect(r.readBit()).toBe(0);
    let prefix = 0;
    while (prefix < 4 && r.readBit() === 1) prefix++;
    expect(prefix).toBe(ones);
    expect(diffSamples(XorChunk.fromBytes(bytes).iterator(), c)).toBeNull();
  });

  test.each([
    [[MIN, MAX]],
    [[-1, MAX]],
    [[-2, MAX]],
    [[MIN, MIN + 1, MAX]],
    [[MIN, MAX - 1, MAX]],
    [[MIN, 0, MAX]],
    [[MIN, -1, MAX]],
    [[-(2 ** 52), 2 ** 52]],
    [[-(2 ** 52), 2 ** 52, 2 ** 52 + 1]],
    [[MIN, MIN + 2 ** 20, MAX - 5, MAX - 4, MAX]],
    [[MIN, MIN + 1, MIN + 3, 0, 15_000, MAX]],
    [[MIN, MIN + 15_000, MIN + 30_000, MIN + 45_000]],
    [[MAX - 45_000, MAX - 30_000, MAX - 15_000, MAX]],
  ])('extreme timestamps %j round-trip', (ts) => {
    expect(roundTrip(constantSeries(ts, 1.5))).toBeNull();
  });
});

describe('XorChunk format version 1 fixtures', () => {
  // The worked example of docs/formats/chunks.md. Never change these bytes: chunks written by
  // earlier releases must always read back.
  const EXAMPLE = '00 03 d0 0f 3f f0 00 00 00 00 00 00 98 75 40 02 e1 37 ff a0';

  test('encodes the documented example byte for byte', () => {
    const chunk = new XorChunk();
    chunk.append(1000, 1);
    chunk.append(16_000, 1);
    chunk.append(31_005, 2.5);
    expect(hex(chunk.sealedBytes())).toBe(EXAMPLE);
  });

  test('decodes the documented example', () => {
    const bytes = new Uint8Array(EXAMPLE.split(' ').map((b) => parseInt(b, 16)));
    const c: SeriesCase = { ts: [1000, 16_000, 31_005], hi: [0x3ff00000, 0x3ff00000, 0x40040000], lo: [0, 0, 0] };
    expect(diffSamples(XorChunk.fromBytes(bytes).iterator(), c)).toBeNull();
  });

  // Stale marker, window reuse, a 64-bit dod bucket, -0, a negative first timestamp.
  const RICH =
    '00 07 9f 9c 01 3f f0 00 00 00 00 00 00 98 75 c3 f4 00 00 00 00 00 00 00 22 7f e0 00 00 ' +
    '00 00 00 07 c0 00 00 3a 35 29 13 2c 30 05 ff ff ff f8 b9 5a dd 9a 85 b0 97 ff c0';

  test('reads the rich fixture', () => {
    const bytes = new Uint8Array(RICH.split(' ').map((b) => parseInt(b, 16)));
    const ts = [-10_000, 5000, 20_000, 35_000, 1e12, 1e12 + 15_000, 1e12 + 30_000];
    const values = [1, STALE_NAN, STALE_NAN, 2, -0, 2, 1];
    const hi = values.map((v) => toBits(v)[0]);
    const lo = values.map((v) => toBits(v)[1]);
    lo[1] = lo[2] = 2; // the array above quiets the stale NaN; restore its bits
    hi[1] = hi[2] = 0x7ff00000;
    const c: SeriesCase = { ts, hi, lo };
    expect(hex(encode(c).sealedBytes())).toBe(RICH);
    expect(diffSamples(XorChunk.fromBytes(bytes).iterator(), c)).toBeNull();
  });
});

describe('XorChunk API', () => {
  test('an empty chunk', () => {
    const chunk = new XorChunk();
    expect(chunk.numSamples()).toBe(0);
    expect(chunk.minTimeMs()).toBe(MAX);
    expect(chunk.maxTimeMs()).toBe(MIN);
    expect(hex(chunk.bytes())).toBe('00 00');
    expect(chunk.iterator().next()).toBe(false);
    expect(chunk.encoding()).toBe(CHUNK_ENCODING_XOR);
    const frozen = XorChunk.fromBytes(chunk.sealedBytes());
    expect([frozen.numSamples(), frozen.minTimeMs(), frozen.maxTimeMs()]).toEqual([0, MAX, MIN]);
  });

  test.each([
    ['an equal timestamp', [[10, 1]], 10],
    ['an earlier timestamp', [[10, 1]], 9],
    ['a fractional timestamp', [], 1.5],
    ['NaN', [], Number.NaN],
    ['beyond the safe range', [], 2 ** 53],
  ])('append rejects %s', (_name, before, t) => {
    const chunk = new XorChunk();
    for (const [bt, bv] of before) chunk.append(bt, bv);
    expect(() => chunk.append(t, 1)).toThrow(RangeError);
    expect(chunk.numSamples()).toBe(before.length);
  });

  test('fromBytes is read-only and does not copy', () => {
    const live = new XorChunk();
    live.append(1, 1);
    const bytes = live.sealedBytes();
    const frozen = XorChunk.fromBytes(bytes);
    expect(frozen.bytes()).toBe(bytes);
    expect(frozen.sealedBytes()).not.toBe(bytes);
    expect(() => frozen.append(2, 2)).toThrow();
  });

  test('bytes() grows from a small buffer; sealedBytes trims it', () => {
    const chunk = new XorChunk();
    for (let i = 0; i < 120; i++) chunk.append(i * 15_000, i);
    const sealed = chunk.sealedBytes();
    expect(sealed.length).toBe(chunk.bytes().length);
    // A copy: appends to the chunk never show through it.
    chunk.append(120 * 15_000, 7);
    expect(XorChunk.fromBytes(sealed).numSamples()).toBe(120);
  });
});
