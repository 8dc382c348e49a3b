import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { bucketQuantile, quantileOf } from './quantile.js';

/** Prometheus' `quantile` written the obvious way: sort a copy (NaN first) and interpolate. */
function reference(q: number, values: number[]): number {
  if (values.length === 0 || Number.isNaN(q)) return NaN;
  if (q < 0) return -Infinity;
  if (q > 1) return Infinity;
  const s = [...values].sort((a, b) => (Number.isNaN(a) ? (Number.isNaN(b) ? 0 : -1) : Number.isNaN(b) ? 1 : a - b));
  const rank = q * (s.length - 1);
  const lo = Math.max(0, Math.floor(rank));
  const hi = Math.min(s.length - 1, lo + 1);
  const w = rank - Math.floor(rank);
  return s[lo] * (1 - w) + s[hi] * w;
}

describe('quantileOf', () => {
  test('agrees with a plain sort for any values and φ', () => {
    const value = fc.oneof(fc.double({ noDefaultInfinity: true }), fc.constant(NaN), fc.integer({ min: -5, max: 5 }));
    fc.assert(
      fc.property(fc.array(value, { maxLength: 60 }), fc.double({ min: -0.5, max: 1.5 }), fc.nat(5), (values, q, pad) => {
        // The values sit inside a longer array, as in a shared window.
        const arr = [...Array<number>(pad).fill(99), ...values, 42];
        const got = quantileOf(q, arr, pad, pad + values.length);
        const want = reference(q, values);
        expect(Object.is(got, want) || got === want || (Number.isNaN(got) && Number.isNaN(want))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe('bucketQuantile', () => {
  test('reports the monotonicity fix', () => {
    const r = bucketQuantile(0.5, [
      { upperBound: 0.1, count: 20 },
      { upperBound: 1, count: 10 },
      { upperBound: 10, count: 50 },
      { upperBound: 100, count: 40 },
      { upperBound: 1000, count: 90 },
      { upperBound: Infinity, count: 80 },
    ]);
    expect(r).toEqual({ value: 8.5, forcedMonotonic: true, minBucket: 1, maxBucket: Infinity, maxDiff: 10 });
  });

  test('does not modify its input', () => {
    const input = [
      { upperBound: Infinity, count: 4 },
      { upperBound: 1, count: 2 },
      { upperBound: 1, count: 1 },
    ];
    const copy = structuredClone(input);
    bucketQuantile(0.5, input);
    expect(input).toEqual(copy);
  });
});
