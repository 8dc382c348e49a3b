import { describe, expect, test } from 'vitest';
import {
  avgOverTime,
  countOverTime,
  firstOverTime,
  lastOverTime,
  madOverTime,
  maxOverTime,
  minOverTime,
  presentOverTime,
  quantileOverTime,
  stddevOverTime,
  stdvarOverTime,
  sumOverTime,
  tsOfFirstOverTime,
  tsOfLastOverTime,
  tsOfMaxOverTime,
  tsOfMinOverTime,
} from './over-time.js';
import { close, runRange, series, type RangeCall } from './testing/fixtures.js';
import type { RangeFunction } from './types.js';

const FNS: Record<string, RangeFunction> = {
  avg: avgOverTime,
  sum: sumOverTime,
  count: countOverTime,
  min: minOverTime,
  max: maxOverTime,
  last: lastOverTime,
  first: firstOverTime,
  present: presentOverTime,
  stddev: stddevOverTime,
  stdvar: stdvarOverTime,
  quantile: quantileOverTime,
  mad: madOverTime,
  tsMax: tsOfMaxOverTime,
  tsMin: tsOfMinOverTime,
  tsLast: tsOfLastOverTime,
  tsFirst: tsOfFirstOverTime,
};

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

const at55 = { at: 55, range: 60 };
const big = 9.988465674311579e307;

// From upstream functions.test unless noted.
const cases: Case[] = [
  ...Object.keys(FNS).map((fn): Case => ({ fn, name: 'empty window', points: series(10, 1, 2), call: { at: 100, range: 10 }, want: undefined })),
  { fn: 'avg', name: 'one point', points: series(10, 1, 2, 3, 4, 5), call: { at: 55, range: 20 }, want: 5 },
  { fn: 'avg', name: 'five points', points: series(10, 1, 2, 3, 4, 5), call: at55, want: 3 },
  { fn: 'avg', name: '+Inf', points: series(10, 1, 2, 3, 4, Infinity), call: at55, want: Infinity },
  { fn: 'avg', name: 'Inf and -Inf', points: series(10, 1, 2, 3, Infinity, -Infinity), call: at55, want: NaN },
  { fn: 'avg', name: 'Inf 0 Inf', points: series(10, Infinity, 0, Infinity), call: at55, want: Infinity },
  { fn: 'avg', name: '-Inf 0 -Inf', points: series(10, -Infinity, 0, -Infinity), call: at55, want: -Infinity },
  { fn: 'avg', name: 'Inf x3 -Inf', points: series(10, Infinity, Infinity, Infinity, -Infinity), call: at55, want: NaN },
  { fn: 'avg', name: 'overflowing sum', points: series(10, big, big), call: at55, want: big },
  { fn: 'avg', name: 'overflowing negative sum', points: series(10, -big, -big, -big), call: at55, want: -big },
  { fn: 'avg', name: 'cancelling extremes', points: series(10, -big, big), call: at55, want: 0 },
  { fn: 'avg', name: 'NaN', points: series(10, 1, 2, 3, NaN, NaN), call: at55, want: NaN },
  { fn: 'avg', name: 'Kahan', points: series(10, 1, 1e100, 1, -1e100), call: { at: 60, range: 120 }, want: 0.5 },
  { fn: 'avg', name: 'magnitudes', points: series(5, 1e10, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6), call: at55, want: 1.6666666666666675e9 },
  { fn: 'avg', name: 'huge then small', points: series(5, 1.78264e50, 0.76342771, 1.9592258, 2.258e220, 7.69805412, 458.90154), call: at55, want: 3.76333333333333e219 },
  {
    fn: 'avg',
    name: 'switch to incremental mean',
    points: series(5, -1.78264e219, 0.76342771, 1.9592258, 2.3757689e217, -2.3757689e217, 2.258e220, 7.69805412, 1.78264e219, -458.90154),
    call: at55,
    want: 2.5088888888888888e219,
  },
  { fn: 'avg', name: 'exact constant', points: series(10, [52, 0, 100]), call: { at: 600, range: 130 }, want: 52 },
  { fn: 'sum', name: 'Kahan', points: series(10, 1, 1e100, 1, -1e100), call: { at: 60, range: 120 }, want: 2 },
  { fn: 'sum', name: 'overflow', points: series(10, big, big), call: at55, want: Infinity },
  { fn: 'sum', name: 'dense', points: series(0.001, [1, 0, 4000]), call: { at: 4, range: 1.003 }, want: 1003 },
  { fn: 'count', name: 'dense', points: series(0.001, [1, 0, 4000]), call: { at: 4, range: 2.001 }, want: 2001 },
  { fn: 'min', name: 'NaN skipped', points: series(10, NaN, 3, NaN, 1), call: at55, want: 1 },
  { fn: 'max', name: 'NaN skipped', points: series(10, NaN, 3, NaN, 1), call: at55, want: 3 },
  { fn: 'max', name: 'only NaN', points: series(10, NaN, NaN), call: at55, want: NaN },
  { fn: 'last', name: 'last', points: series(10, 1, 2, 3), call: at55, want: 3 },
  { fn: 'first', name: 'first', points: series(10, 1, 2, 3), call: { at: 25, range: 20 }, want: 2 },
  { fn: 'present', name: 'present', points: series(10, NaN), call: at55, want: 1 },
  { fn: 'stdvar', name: 'stdvar', points: series(10, 0, 8, 8, 2, 3), call: { at: 60, range: 120 }, want: 10.56 },
  { fn: 'stddev', name: 'stddev', points: series(10, 0, 8, 8, 2, 3), call: { at: 60, range: 120 }, want: 3.2496153618543846 },
  { fn: 'stdvar', name: 'constant is exactly 0', points: series(10, 1.5990505637277868, 1.5990505637277868, 1.5990505637277868), call: at55, want: 0 },
  { fn: 'stddev', name: 'one point', points: series(10, 7), call: at55, want: 0 },
  { fn: 'mad', name: 'outlier', points: series(10, 4, 6, 2, 1, 999, 1, 2), call: { at: 70, range: 70 }, want: 1 },
  { fn: 'mad', name: 'odd count', points: series(10, 1, 2, 3, 4, 5), call: { at: 40, range: 50 }, want: 1 },
  { fn: 'mad', name: 'all equal', points: series(10, 7, 7, 7, 7, 7), call: { at: 40, range: 50 }, want: 0 },
  { fn: 'mad', name: 'single', points: series(10, 5), call: { at: 0, range: 10 }, want: 0 },
  { fn: 'mad', name: 'NaN', points: series(10, 1, 2, NaN, 4), call: { at: 30, range: 40 }, want: NaN },
  // Hand-computed: 20 points 0..19, median 9.5, deviations 0.5..9.5 twice, median 5.
  { fn: 'mad', name: 'larger window', points: series(1, [0, 1, 19]), call: { at: 19, range: 20 }, want: 5 },
  { fn: 'tsMin', name: 'odd interval', points: series(10.053, 1, 2, 3, 0, 5, 6, 2, 1, 4), call: { at: 90, range: 90 }, want: 30.159 },
  { fn: 'tsMax', name: 'odd interval', points: series(10.053, 1, 2, 3, 0, 5, 6, 2, 1, 4), call: { at: 90, range: 90 }, want: 50.265 },
  { fn: 'tsMax', name: 'last of equal maxima', points: series(10, 1, 5, 5, 2), call: at55, want: 20 },
  { fn: 'tsMin', name: 'last of equal minima', points: series(10, 1, 0, 0, 2), call: at55, want: 20 },
  { fn: 'tsMax', name: 'leading NaN', points: series(10, NaN, 2, 1), call: at55, want: 10 },
  { fn: 'tsLast', name: 'odd interval', points: series(10.053, 1, 2, 3), call: { at: 95, range: 90 }, want: 20.106 },
  { fn: 'tsFirst', name: 'odd interval', points: series(10.053, null, null, 1, 2, 3), call: { at: 95, range: 90 }, want: 20.106 },
];

const data = { two: series(10, 0, 1), three: series(10, 0, 1, 2), uneven: series(10, 0, 1, 4) };
const quantiles: [number, number, number, number][] = [
  [0, 0, 0, 0],
  [0.5, 0.5, 1, 1],
  [0.75, 0.75, 1.5, 2.5],
  [0.8, 0.8, 1.6, 2.8],
  [1, 1, 2, 4],
  [-1, -Infinity, -Infinity, -Infinity],
  [2, Infinity, Infinity, Infinity],
  [NaN, NaN, NaN, NaN],
];
for (const [q, two, three, uneven] of quantiles) {
  for (const [name, want] of [['two', two], ['three', three], ['uneven', uneven]] as const) {
    cases.push({ fn: 'quantile', name: `φ=${q} ${name}`, points: data[name], call: { at: 60, range: 120, scalars: [q] }, want });
  }
}
cases.push(
  // NaN sorts first, as Go's comparator puts it.
  { fn: 'quantile', name: 'NaN sorts first (φ=0)', points: series(10, 3, NaN, 1), call: { at: 60, range: 120, scalars: [0] }, want: NaN },
  { fn: 'quantile', name: 'NaN sorts first (φ=1)', points: series(10, 3, NaN, 1), call: { at: 60, range: 120, scalars: [1] }, want: 3 },
  { fn: 'quantile', name: 'NaN sorts first (φ=0.75)', points: series(10, 3, NaN, 1), call: { at: 60, range: 120, scalars: [0.75] }, want: 2 },
  { fn: 'quantile', name: 'many points', points: series(1, ...Array.from({ length: 101 }, (_, i) => (i * 37) % 101)), call: { at: 100, range: 101, scalars: [0.9] }, want: 90 },
);

describe('*_over_time', () => {
  test.each(cases)('$fn: $name', check);
});

describe('quantile_over_time annotations', () => {
  test.each([
    { q: 0.5, want: [] },
    { q: -1, want: ['PromQL warning: quantile value should be between 0 and 1, got -1'] },
    { q: 1.5, want: ['PromQL warning: quantile value should be between 0 and 1, got 1.5'] },
    { q: NaN, want: ['PromQL warning: quantile value should be between 0 and 1, got NaN'] },
  ])('φ=$q', ({ q, want }) => {
    const { annotations } = runRange(quantileOverTime, series(10, 1, 2), { at: 10, range: 20, scalars: [q] });
    expect(annotations.warnings).toEqual(want);
  });
});
