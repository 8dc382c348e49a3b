import { describe, expect, test } from 'vitest';
import { QueryError } from '../errors.js';
import { deriv, doubleExponentialSmoothing, predictLinear } from './regression.js';
import { close, runRange, series, type RangeCall } from './testing/fixtures.js';
import type { RangeFunction } from './types.js';

const FNS: Record<string, RangeFunction> = { deriv, predictLinear, des: doubleExponentialSmoothing };

interface Case {
  readonly fn: keyof typeof FNS;
  readonly name: string;
  readonly points: [number, number][];
  readonly call: RangeCall;
  readonly want: number | undefined;
}

function check(c: Case): void {
  const { value } = runRange(FNS[c.fn], c.points, c.call);
  expect(close(value, c.want), `got ${value}, want ${c.want}`).toBe(true);
}

// From upstream functions.test.
const resetMiddle = series(300, [0, 10, 4], [0, 10, 5]);
const cases: Case[] = [
  { fn: 'deriv', name: 'straight line', points: series(300, [0, 80, 10]), call: { at: 3000, range: 3000 }, want: 0.26666666666666666 },
  { fn: 'deriv', name: 'counter with reset', points: resetMiddle, call: { at: 3000, range: 6000 }, want: 0.010606060606060607 },
  { fn: 'deriv', name: 'one point', points: resetMiddle, call: { at: 3000, range: 100 }, want: undefined },
  { fn: 'deriv', name: '±Inf', points: series(300, -Infinity, [0, 80, 10], Infinity), call: { at: 6000, range: 6000 }, want: NaN },
  { fn: 'deriv', name: 'constant', points: series(60, 5, 5, 5), call: { at: 120, range: 180 }, want: 0 },
  { fn: 'deriv', name: 'constant +Inf', points: series(60, Infinity, Infinity), call: { at: 120, range: 180 }, want: NaN },
  { fn: 'deriv', name: 'NaN', points: series(60, NaN, NaN), call: { at: 120, range: 180 }, want: NaN },
  { fn: 'predictLinear', name: 'to the future', points: resetMiddle, call: { at: 3000, range: 3000, scalars: [3600] }, want: 70 },
  { fn: 'predictLinear', name: 'relative to the eval time', points: resetMiddle, call: { at: 3000, range: 3300, scalars: [3600] }, want: 76.81818181818181 },
  { fn: 'predictLinear', name: '±Inf', points: series(300, -Infinity, [0, 80, 10], Infinity), call: { at: 6000, range: 6000, scalars: [6000] }, want: NaN },
  { fn: 'predictLinear', name: 'constant', points: series(60, 5, 5, 5), call: { at: 120, range: 180, scalars: [600] }, want: 5 },
  { fn: 'des', name: 'positive trend', points: series(10, [0, 10, 1000], [100, 30, 1000]), call: { at: 8000, range: 60, scalars: [0.01, 0.1] }, want: 8000 },
  { fn: 'des', name: 'negative trend', points: series(10, [0, -20, 1000]), call: { at: 8000, range: 60, scalars: [0.01, 0.1] }, want: -16000 },
  { fn: 'des', name: 'one point', points: series(10, 1, 2), call: { at: 10, range: 5, scalars: [0.5, 0.5] }, want: undefined },
  // Hand-computed: s1 = 1, b = 2; i=1: s1 = .5*3 + .5*(1+2) = 3; i=2: b = .5*(3-1) + .5*2 = 2, s1 = .5*2 + .5*(3+2) = 3.5.
  { fn: 'des', name: 'three points', points: series(10, 1, 3, 2), call: { at: 20, range: 30, scalars: [0.5, 0.5] }, want: 3.5 },
  // Go's check is `sf <= 0 || sf >= 1`, which NaN passes.
  { fn: 'des', name: 'NaN factor', points: series(10, 1, 3), call: { at: 10, range: 30, scalars: [NaN, 0.5] }, want: NaN },
];

describe('deriv, predict_linear, double_exponential_smoothing', () => {
  test.each(cases)('$fn: $name', check);

  test.each([
    { scalars: [1, 0.5], message: 'invalid smoothing factor. Expected: 0 < sf < 1, got: 1.000000' },
    { scalars: [0, 0.5], message: 'invalid smoothing factor. Expected: 0 < sf < 1, got: 0.000000' },
    { scalars: [0.5, 1.25], message: 'invalid trend factor. Expected: 0 < tf < 1, got: 1.250000' },
    { scalars: [0.5, -Infinity], message: 'invalid trend factor. Expected: 0 < tf < 1, got: -Inf' },
  ])('double_exponential_smoothing fails for $scalars', ({ scalars, message }) => {
    // Even one point is enough to fail, as in Prometheus (the check comes first).
    expect(() => runRange(doubleExponentialSmoothing, series(10, 1), { at: 0, range: 10, scalars })).toThrow(
      new QueryError('execution', message),
    );
  });
});
