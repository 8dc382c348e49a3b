import fc from 'fast-check';
import { describe, expect, it, test } from 'vitest';
import { Labels, STALE_NAN } from '../../model/index.js';
import { isStorageError, StorageErrorCode } from '../../storage/index.js';
import { ByteBuffer } from './byte-buffer.js';
import { decodeSamples, decodeSamplesInto, decodeSeries, encodeSamples, encodeSeries, samplesCount } from './records.js';
import {
  STALE_BITS,
  bitsOf,
  expectedSamples,
  samplesRecord,
  seriesRecord,
  valueBits,
  type SampleTuple,
} from './testing/helpers.js';

const refArb = fc.oneof(fc.nat(1000), fc.maxSafeNat());
const timeArb = fc.oneof(
  fc.integer({ min: -10_000, max: 10_000 }),
  fc.integer({ min: 1_600_000_000_000, max: 1_900_000_000_000 }),
  fc.maxSafeInteger(),
  fc.constantFrom(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 0, -1),
);
const u32 = fc.nat({ max: 0xffff_ffff });
/** Float64 bit patterns as hex: any bits, signaling and quiet NaNs with payloads, and specials. */
const bitsArb = fc.oneof(
  fc.tuple(u32, u32).map(([hi, lo]) => hex(hi, lo)),
  fc.tuple(fc.nat({ max: 0x7ffff }), u32).map(([hi, lo]) => hex(0x7ff00000 | hi, (lo | 1) >>> 0)), // signaling NaNs
  fc.constantFrom(STALE_BITS, bitsOf(NaN), bitsOf(-0), bitsOf(Infinity), bitsOf(-Infinity), '0000000000000001'),
  fc.double().map(bitsOf),
);
const sampleArb = fc.tuple(refArb, timeArb, bitsArb);

function hex(hi: number, lo: number): string {
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
}

/** Encodes after some unrelated bytes (encoders append) and returns the payload alone. */
function encodeAppended(samples: readonly SampleTuple[]): Uint8Array {
  const buf = new ByteBuffer(16);
  buf.ensure(3);
  buf.bytes.set([9, 9, 9]);
  buf.length = 3;
  const { payload } = samplesRecord(samples);
  const refs = Float64Array.from(samples, (s) => s[0]);
  const ts = Float64Array.from(samples, (s) => s[1]);
  const values = new Float64Array(samples.length);
  const dv = new DataView(values.buffer);
  samples.forEach((s, i) => dv.setBigUint64(8 * i, BigInt(`0x${valueBits(s[2])}`), true));
  encodeSamples(buf, refs, ts, values, samples.length);
  const out = buf.subarray(3).slice();
  expect(Array.from(out)).toEqual(Array.from(payload));
  return out;
}

describe('SAMPLES records', () => {
  it('round-trip any refs, safe timestamps and float bit patterns, through both decoders', () => {
    fc.assert(
      fc.property(fc.array(sampleArb, { maxLength: 40 }), fc.nat(5), (samples, at) => {
        const payload = encodeAppended(samples);
        const want = expectedSamples(samples);
        const got: [number, number, string][] = [];
        expect(decodeSamples(payload, (r, t, v) => got.push([r, t, bitsOf(v)]))).toBe(samples.length);
        expect(got).toEqual(want);

        expect(samplesCount(payload)).toBe(samples.length);
        const n = at + samples.length;
        const refs = new Float64Array(n);
        const ts = new Float64Array(n);
        const values = new Float64Array(n);
        expect(decodeSamplesInto(payload, refs, ts, values, at)).toBe(samples.length);
        const dv = new DataView(values.buffer);
        const into = samples.map((_, i) => [refs[at + i], ts[at + i], dv.getBigUint64(8 * (at + i), true).toString(16).padStart(16, '0')]);
        expect(into).toEqual(want);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps the stale marker bit-exact, and stores values little-endian', () => {
    const { payload } = samplesRecord([[1, 0, STALE_BITS]]);
    expect(Buffer.from(payload.subarray(-8)).toString('hex')).toBe('020000000000f07f');
    let seen = '';
    decodeSamples(payload, (_r, _t, v) => (seen = bitsOf(v)));
    expect(seen).toBe(STALE_BITS);
    expect(seen).toBe(bitsOf(STALE_NAN));
  });

  test.each<[string, SampleTuple[], number]>([
    ['empty batch', [], 1],
    ['one scrape of three series', [[7, 1_700_000_000_000, 1], [8, 1_700_000_000_000, 2], [9, 1_700_000_000_000, STALE_BITS]], 1 + 1 + 6 + 3 * 10],
    ['timestamps at both ends of the safe range', [[0, Number.MIN_SAFE_INTEGER, 1], [0, Number.MAX_SAFE_INTEGER, 2]], 1 + 1 + 8 + 10 + 17],
  ])('%s: exact size and round trip', (_name, samples, wantBytes) => {
    const { payload } = samplesRecord(samples);
    expect(payload.length).toBe(wantBytes);
    const got: [number, number, string][] = [];
    decodeSamples(payload, (r, t, v) => got.push([r, t, bitsOf(v)]));
    expect(got).toEqual(expectedSamples(samples));
  });

  test.each<[string, SampleTuple]>([
    ['a fractional timestamp', [1, 1.5, 0]],
    ['a timestamp past the safe range', [1, 2 ** 60, 0]],
    ['a negative ref', [-1, 0, 0]],
  ])('rejects %s', (_name, sample) => {
    expect(() => samplesRecord([sample])).toThrow(RangeError);
    expect(() => samplesRecord([[1, 0, 0], sample])).toThrow(RangeError);
  });

  it('reports every truncation and any trailing byte as corruption', () => {
    const { payload } = samplesRecord([[5, 1000, 1.5], [6, -1000, STALE_BITS], [5, 2 ** 52, -Infinity]]);
    for (let len = 0; len < payload.length; len++) {
      expect(() => decodeSamples(payload.subarray(0, len), () => {}), `length ${len}`).toThrow(
        expect.objectContaining({ code: StorageErrorCode.CORRUPTION }),
      );
    }
    const longer = new Uint8Array(payload.length + 1);
    longer.set(payload);
    expect(() => decodeSamples(longer, () => {})).toThrow(expect.objectContaining({ code: StorageErrorCode.CORRUPTION }));
  });

  it('refuses arrays too short for the batch', () => {
    const { payload } = samplesRecord([[1, 1, 1], [2, 2, 2]]);
    const a = new Float64Array(2);
    expect(() => decodeSamplesInto(payload, a, new Float64Array(2), new Float64Array(2), 1)).toThrow(RangeError);
  });
});

describe('SERIES records', () => {
  const nameArb = fc.string({ unit: 'binary', minLength: 1, maxLength: 12 });
  const labelsArb = fc.dictionary(nameArb, fc.string({ unit: 'binary', maxLength: 40 }), { maxKeys: 8 });

  it('round-trip refs and labels, non-ASCII text included', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(refArb, labelsArb), { maxLength: 20 }), (entries) => {
        const series = entries.map(([ref, rec]) => ({ ref, labels: Labels.from(rec) }));
        const buf = new ByteBuffer(8);
        encodeSeries(buf, series);
        const got: { ref: number; labels: Labels }[] = [];
        expect(decodeSeries(buf.subarray(), (ref, labels) => got.push({ ref, labels }))).toBe(series.length);
        expect(got.map((s) => s.ref)).toEqual(series.map((s) => s.ref));
        got.forEach((s, i) => expect(s.labels.flat()).toEqual(series[i].labels.flat()));
      }),
      { numRuns: 300 },
    );
  });

  it('has the documented layout', () => {
    const { payload } = seriesRecord([[300, { __name__: 'up', job: 'é' }]]);
    // ref 300 = 0xac 0x02; 2 labels; "__name__", "up", "job", "é" (2 UTF-8 bytes).
    expect(Array.from(payload)).toEqual([
      0xac, 0x02, 2,
      8, ...Buffer.from('__name__'), 2, ...Buffer.from('up'),
      3, ...Buffer.from('job'), 2, 0xc3, 0xa9,
    ]);
  });

  it('reports a truncated payload as corruption', () => {
    const { payload } = seriesRecord([[1, { __name__: 'up', job: 'vllm' }]]);
    for (let len = 1; len < payload.length; len++) {
      let err: unknown;
      try {
        decodeSeries(payload.subarray(0, len), () => {});
      } catch (e) {
        err = e;
      }
      expect(isStorageError(err, StorageErrorCode.CORRUPTION), `length ${len}`).toBe(true);
    }
  });
});
