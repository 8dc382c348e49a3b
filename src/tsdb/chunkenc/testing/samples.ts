/**
 * Test helpers for the chunk encodings: float64 bit patterns, fast-check arbitraries for
 * timestamps and values, and a checker that decodes a chunk and compares bit for bit.
 *
 * Values are carried as (hi, lo) uint32 pairs, never in plain JS arrays of numbers: V8 stores
 * such arrays as raw doubles and quiets signalling NaNs on the way in (the stale marker
 * 0x7ff0000000000002 comes back as 0x7ff8000000000002), which would corrupt the expectation.
 */
import fc from 'fast-check';
import type { SeriesIterator } from '../../../model/index.js';

const MIN = Number.MIN_SAFE_INTEGER;
const MAX = Number.MAX_SAFE_INTEGER;
const dv = new DataView(new ArrayBuffer(8));

/**
 * Options for every `fc.assert` here. A regression can make shrinking crawl (a failure set that
 * is not monotone in a 53-bit timestamp shrinks by a few units per step, for hours), so stop
 * after 10 s and report the smallest counterexample found so far. Passing runs take well under.
 */
export const FC_OPTIONS = { plugins: [fc.interruptAfterTimeLimit(10_000)] };

/** A float64 as its high and low 32-bit words. */
export type Bits = readonly [hi: number, lo: number];

/** Builds a float64 from its words; pass the result straight on, do not store it in an array. */
export function fromBits(hi: number, lo: number): number {
  dv.setUint32(0, hi);
  dv.setUint32(4, lo);
  return dv.getFloat64(0);
}

/** Returns the words of a float64. */
export function toBits(value: number): Bits {
  dv.setFloat64(0, value);
  return [dv.getUint32(0), dv.getUint32(4)];
}

/** Formats a float64 bit pattern as 16 hex digits. */
export function bitsHex(value: number): string {
  const [hi, lo] = toBits(value);
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
}

/** Values whose bits codecs like to lose. */
export const SPECIAL_BITS: readonly Bits[] = [
  [0x7ff00000, 0x00000002], // the stale marker (a signalling NaN)
  [0x7ff80000, 0x00000000], // JS's NaN
  [0x7ff80000, 0x00000001], // Go's NaN
  [0xfff80000, 0x00000000], // negative NaN
  [0x7ff00000, 0x00000001], // smallest signalling NaN
  [0xffffffff, 0xffffffff], // all ones
  [0x7ff00000, 0x00000000], // +Inf
  [0xfff00000, 0x00000000], // -Inf
  [0x00000000, 0x00000000], // +0
  [0x80000000, 0x00000000], // -0
  [0x00000000, 0x00000001], // smallest denormal
  [0x800fffff, 0xffffffff], // largest negative denormal
  [0x7fefffff, 0xffffffff], // Number.MAX_VALUE
  [0x3ff00000, 0x00000000], // 1
];

/** Sample values as words; `null` repeats the previous value. */
export const valueArb: fc.Arbitrary<Bits | null> = fc.oneof(
  fc.tuple(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 0xffffffff })),
  fc.constantFrom(...SPECIAL_BITS),
  fc.double().map(toBits),
  fc.integer({ min: 0, max: 1_000_000 }).map(toBits),
  fc.constant(null),
);

/** Strictly increasing safe integers drawn from the whole range (huge gaps, both signs). */
export const wideTimestampsArb: fc.Arbitrary<number[]> = fc
  .uniqueArray(
    fc.oneof(
      fc.maxSafeInteger(),
      fc.constantFrom(MIN, MIN + 1, MAX, MAX - 1, 0, -1, 1, -(2 ** 52), 2 ** 52, 2 ** 53 - 2),
    ),
    { minLength: 1, maxLength: 60 },
  )
  .map((ts) => ts.sort((a, b) => a - b));

/** Scrape-like timestamps: a fixed step with jitter smaller than half the step. */
export const scrapeTimestampsArb: fc.Arbitrary<number[]> = fc
  .record({
    start: fc.integer({ min: -(2 ** 45), max: 2 ** 45 }),
    stepMs: fc.constantFrom(1000, 15_000, 60_000),
    jitter: fc.array(fc.integer({ min: -400, max: 400 }), { minLength: 1, maxLength: 240 }),
    regular: fc.boolean(),
  })
  .map(({ start, stepMs, jitter, regular }) =>
    jitter.map((j, i) => start + i * stepMs + (regular && i % 10 !== 7 ? 0 : j)),
  );

/** Irregular gaps of mixed magnitudes from a random start, clipped to the safe range. */
export const gappyTimestampsArb: fc.Arbitrary<number[]> = fc
  .record({
    start: fc.oneof(fc.maxSafeInteger(), fc.integer({ min: -1e13, max: 1e13 })),
    gaps: fc.array(
      fc.oneof(
        fc.integer({ min: 1, max: 16 }),
        fc.integer({ min: 1, max: 2 ** 21 }),
        fc.integer({ min: 2 ** 19, max: 2 ** 40 }),
        fc.integer({ min: 1, max: MAX }),
      ),
      { maxLength: 120 },
    ),
  })
  .map(({ start, gaps }) => {
    const ts = [start];
    for (const g of gaps) {
      const next = ts[ts.length - 1] + g;
      if (next > MAX) break;
      ts.push(next);
    }
    return ts;
  });

/** Any of the timestamp shapes above. */
export const timestampsArb: fc.Arbitrary<number[]> = fc.oneof(
  wideTimestampsArb,
  scrapeTimestampsArb,
  gappyTimestampsArb,
);

/** A series: timestamps and one value pattern per sample (values cycle when fewer). */
export interface SeriesCase {
  ts: number[];
  hi: number[];
  lo: number[];
}

/** A series arbitrary combining `timestampsArb` with `valueArb`. */
export const seriesArb: fc.Arbitrary<SeriesCase> = fc
  .tuple(timestampsArb, fc.array(valueArb, { minLength: 1, maxLength: 80 }))
  .map(([ts, values]) => {
    const hi: number[] = [];
    const lo: number[] = [];
    let prev: Bits = [0, 0];
    for (let i = 0; i < ts.length; i++) {
      prev = values[i % values.length] ?? prev;
      hi.push(prev[0]);
      lo.push(prev[1]);
    }
    return { ts, hi, lo };
  });

/**
 * Drains `it` and compares it with the first `n` samples of `want` (all of them by default),
 * bit for bit. Returns a description of the first difference, or null when they agree.
 */
export function diffSamples(it: SeriesIterator, want: SeriesCase, n = want.ts.length): string | null {
  let i = 0;
  while (it.next()) {
    if (i >= n) return `extra sample at ${i}`;
    const s = it.at();
    dv.setFloat64(0, s.value);
    const hi = dv.getUint32(0);
    const lo = dv.getUint32(4);
    if (s.tMs !== want.ts[i] || hi !== want.hi[i] || lo !== want.lo[i]) {
      const w = want.hi[i].toString(16) + ':' + want.lo[i].toString(16);
      return `sample ${i}: got ${s.tMs} ${hi.toString(16)}:${lo.toString(16)}, want ${want.ts[i]} ${w}`;
    }
    i++;
  }
  const err = it.err();
  if (err !== null) return `error after ${i} samples: ${err.message}`;
  return i === n ? null : `got ${i} samples, want ${n}`;
}
