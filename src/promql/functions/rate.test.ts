import { describe, expect, test } from 'vitest';
import { Labels } from '../../model/index.js';
import { delta, idelta, increase, irate, rate } from './rate.js';
import { close, runRange, series, type RangeCall } from './testing/fixtures.js';
import type { RangeFunction } from './types.js';

const FNS: Record<string, RangeFunction> = { rate, increase, delta, irate, idelta };

interface Case {
  readonly name: string;
  readonly fn: keyof typeof FNS;
  readonly points: [number, number][];
  readonly call: RangeCall;
  readonly want: number | undefined;
}

function check(c: Case): void {
  const { value } = runRange(FNS[c.fn], c.points, c.call);
  expect(close(value, c.want), `got ${value}, want ${c.want}`).toBe(true);
}

// Expectations from upstream functions.test and extended_vectors.test unless noted.
const plain: Case[] = [
  { name: 'no reset, starts at 0', fn: 'increase', points: series(300, [0, 10, 10]), call: { at: 3000, range: 3000 }, want: 100 },
  { name: 'reset mid-range', fn: 'increase', points: series(300, [0, 18, 5], [0, 18, 5]), call: { at: 3000, range: 3000 }, want: 160 },
  { name: 'extrapolates half an interval', fn: 'increase', points: series(300, [10, 10, 10]), call: { at: 3000, range: 6000 }, want: 105 },
  { name: 'stops at the zero point', fn: 'increase', points: series(300, [1, 10, 10]), call: { at: 3000, range: 6000 }, want: 101 },
  { name: 'reset then extrapolation', fn: 'increase', points: series(300, [0, 18, 5], [0, 18, 5]), call: { at: 3000, range: 6000 }, want: 162 },
  { name: 'decrease counts as reset to 0', fn: 'increase', points: series(300, 0, 1, 2, 3, 2, 3, 4), call: { at: 1800, range: 1800 }, want: 7 },
  { name: 'rate with reset', fn: 'rate', points: series(300, [0, 27, 4], [0, 27, 5]), call: { at: 3000, range: 3000 }, want: 0.08 },
  { name: 'one point: nothing', fn: 'rate', points: series(300, [0, 10, 9], 0, 10), call: { at: 3000, range: 300 }, want: undefined },
  { name: 'reset at the end', fn: 'rate', points: series(300, [0, 10, 9], 0, 10), call: { at: 3000, range: 360 }, want: 0 },
  { name: 'offset', fn: 'rate', points: series(300, [0, 10, 10]), call: { at: 3000, range: 600, offset: 300 }, want: 1 / 30 },
  { name: 'zero cutoff at 0', fn: 'rate', points: series(240, [0, 240, 10]), call: { at: 600, range: 1200 }, want: 0.5 },
  { name: 'zero cutoff at 1m', fn: 'rate', points: series(240, [60, 240, 10]), call: { at: 600, range: 1200 }, want: 0.55 },
  { name: 'half interval beyond 2m', fn: 'rate', points: series(240, [180, 240, 10]), call: { at: 600, range: 1200 }, want: 0.6 },
  { name: 'full window', fn: 'rate', points: series(240, [300, 240, 10]), call: { at: 3000, range: 1200 }, want: 0.6 },
  { name: 'gauge up', fn: 'delta', points: series(300, 0, 50, 100, 150, 200), call: { at: 1200, range: 1200 }, want: 200 },
  { name: 'gauge down, no reset handling', fn: 'delta', points: series(300, 200, 150, 100, 50, 0), call: { at: 1200, range: 1200 }, want: -200 },
  // Hand-computed: 2 points 60s apart, 30s short of the end (< 1.1 × 60s) → extrapolated fully;
  // start 90s away (≥ 66s) → half an interval: (60 + 30 + 30) / 60 × 6.
  { name: 'delta extrapolation limit', fn: 'delta', points: [[100, 4], [160, 10]], call: { at: 190, range: 180 }, want: 12 },
  // A negative first value: no zero-point limit for the counter.
  { name: 'negative counter start', fn: 'increase', points: [[30, -5], [90, 1]], call: { at: 120, range: 120 }, want: 12 },
  // NaN compares false both ways: no reset is seen, the ends decide.
  { name: 'NaN in the middle', fn: 'rate', points: [[0, 1], [60, NaN], [120, 3]], call: { at: 120, range: 180 }, want: 1 / 60 },
  { name: 'NaN at an end', fn: 'increase', points: [[0, 1], [60, 2], [120, NaN]], call: { at: 120, range: 120 }, want: NaN },
  { name: 'irate', fn: 'irate', points: series(300, [0, 10, 10]), call: { at: 3000, range: 3000 }, want: 1 / 30 },
  { name: 'irate reset', fn: 'irate', points: series(300, [0, 10, 5], [0, 10, 5]), call: { at: 1800, range: 3000 }, want: 0 },
  { name: 'irate NaN', fn: 'irate', points: series(300, 1, NaN, NaN, 5, 11), call: { at: 300, range: 901 }, want: NaN },
  { name: 'irate after NaN', fn: 'irate', points: series(300, 1, NaN, NaN, 5, 11), call: { at: 1200, range: 901 }, want: 0.02 },
  { name: 'irate one point', fn: 'irate', points: series(300, 1, NaN, NaN, 5, 11), call: { at: 0, range: 901 }, want: undefined },
  { name: 'idelta', fn: 'idelta', points: series(300, 0, 50, 100, 50), call: { at: 1200, range: 1200 }, want: -50 },
  { name: 'idelta NaN', fn: 'idelta', points: series(300, 1, NaN, NaN, 5, 11), call: { at: 1200, range: 901 }, want: 6 },
];

// PROM-52 reference data: 1..5 then 9..13 every 15s.
const prom52 = series(15, [1, 1, 4], [9, 1, 4]);
const prom52Partial = series(15, [1, 1, 2], null, null, [9, 1, 4]);

const extended: Case[] = [
  ...[
    [5, 0, 0.333333333],
    [20, 1, 1.333333333],
    [35, 2, 2.333333333],
    [50, 3, 3.333333333],
    [65, 4, 5],
    [80, 7, 7],
    [125, 7, 6],
  ].flatMap(([at, anchored, smoothed]): Case[] => [
    { name: `prom52 anchored at ${at}s`, fn: 'increase', points: prom52, call: { at, range: 60, anchored: true }, want: anchored },
    { name: `prom52 smoothed at ${at}s`, fn: 'increase', points: prom52, call: { at, range: 60, smoothed: true }, want: smoothed },
  ]),
  ...[
    [50, 2, 4.666666666],
    [65, 2, 6.333333333],
    [110, 8, 5.666666666],
    [125, 9, 4.666666666],
  ].flatMap(([at, anchored, smoothed]): Case[] => [
    { name: `partial anchored at ${at}s`, fn: 'increase', points: prom52Partial, call: { at, range: 60, anchored: true }, want: anchored },
    { name: `partial smoothed at ${at}s`, fn: 'increase', points: prom52Partial, call: { at, range: 60, smoothed: true }, want: smoothed },
  ]),
  { name: 'plain increase at 20s', fn: 'increase', points: prom52, call: { at: 20, range: 60 }, want: 1.833333333 },
  { name: 'left-open: smoothed', fn: 'increase', points: series(60, 1, 2, null, 4, 5), call: { at: 120, range: 60, smoothed: true }, want: 1 },
  { name: 'left-open: anchored', fn: 'increase', points: series(60, 1, 2, null, 4, 5), call: { at: 120, range: 60, anchored: true }, want: undefined },
  { name: 'reset before range, smoothed', fn: 'increase', points: series(60, 3, [2, 2, 9]), call: { at: 90, range: 60, smoothed: true }, want: 2 },
  { name: 'reset before range, anchored', fn: 'increase', points: series(60, 3, [2, 2, 9]), call: { at: 90, range: 60, anchored: true }, want: 2 },
  { name: 'anchored delta', fn: 'delta', points: series(60, 3, [2, 2, 9]), call: { at: 90, range: 60, anchored: true }, want: -1 },
  { name: 'anchored delta over reset', fn: 'delta', points: series(60, [5, 3, 2], [3, 3, 6]), call: { at: 180, range: 60, anchored: true }, want: -8 },
  { name: 'anchored whole counter', fn: 'increase', points: series(60, [1, 1, 4], [1, 1, 4]), call: { at: 300, range: 300, anchored: true }, want: 5 },
  { name: 'anchored after the data', fn: 'increase', points: series(60, [1, 1, 4], [1, 1, 4]), call: { at: 900, range: 300, anchored: true }, want: undefined },
  { name: 'smoothed 6m15s', fn: 'increase', points: series(60, [1, 1, 4], [1, 1, 4]), call: { at: 375, range: 300, smoothed: true }, want: 5 },
  { name: 'smoothed delta 1', fn: 'delta', points: series(60, 11, -1, 100, 0), call: { at: 330, range: 300, smoothed: true }, want: -5 },
  { name: 'smoothed delta 2', fn: 'delta', points: series(60, 0, 0, 100, 0, 0, 11, -1), call: { at: 330, range: 300, smoothed: true }, want: 5 },
  { name: 'smoothed delta 3', fn: 'delta', points: series(60, 11, -1, 100, 0), call: { at: 345, range: 300, smoothed: true }, want: -2 },
  { name: 'smoothed resets at both ends', fn: 'increase', points: series(60, 9, 8, 5, 4), call: { at: 135, range: 120, smoothed: true }, want: 12 },
  { name: 'smoothed rate across reset', fn: 'rate', points: series(15, 100, 10), call: { at: 12, range: 10, smoothed: true }, want: 0.666666666666667 },
  { name: 'smoothed: data only after', fn: 'rate', points: series(10, null, [5, 1, 4]), call: { at: 5, range: 5, smoothed: true }, want: undefined },
  { name: 'smoothed: data only before', fn: 'increase', points: series(10, null, [5, 1, 4]), call: { at: 60, range: 5, smoothed: true }, want: undefined },
  { name: 'smoothed: first point in range', fn: 'increase', points: series(10, null, [5, 1, 4]), call: { at: 15, range: 10, smoothed: true }, want: 0.5 },
  // Float reference values quoted by the native-histogram cases of extended_vectors.test.
  { name: 'smoothed double reset', fn: 'increase', points: series(10, 10, 5, 2, 4), call: { at: 15, range: 14, smoothed: true }, want: 5.5 },
  { name: 'smoothed both ends in one reset', fn: 'increase', points: series(20, 10, 5), call: { at: 15, range: 10, smoothed: true }, want: 2.5 },
  { name: 'anchored reset at the last point', fn: 'increase', points: series(30, 5, 10, 3), call: { at: 70, range: 70, anchored: true }, want: 8 },
  { name: 'anchored two points, reset', fn: 'increase', points: series(30, 5, 3), call: { at: 30, range: 30, anchored: true }, want: 3 },
  // The anchor must lie within the lookback delta (here 1m): the point at 0 is 90s too old.
  { name: 'anchor beyond lookback', fn: 'increase', points: [[0, 1], [100, 2], [150, 4]], call: { at: 150, range: 60, anchored: true, lookback: 60 }, want: 2 },
  { name: 'anchor within lookback', fn: 'increase', points: [[0, 1], [100, 2], [150, 4]], call: { at: 150, range: 60, anchored: true, lookback: 120 }, want: 3 },
  { name: 'anchored ignores later points', fn: 'delta', points: [[0, 1], [100, 2], [200, 9]], call: { at: 150, range: 60, anchored: true, lookback: 120 }, want: 1 },
  { name: 'smoothed ignores points beyond lookback', fn: 'delta', points: [[0, 0], [60, 6], [400, 0]], call: { at: 90, range: 60, smoothed: true, lookback: 300 }, want: 3 },
];

describe('rate, increase, delta, irate, idelta', () => {
  test.each(plain)('$fn: $name', check);
});

describe('anchored and smoothed ranges', () => {
  test.each(extended)('$fn: $name', check);
});

describe('PossibleNonCounterInfo', () => {
  const pts = series(60, 1, 2, 3);
  const info = 'PromQL info: metric might not be a counter, name does not end in _total/_sum/_count/_bucket: "requests"';
  test.each([
    { fn: 'rate', name: 'requests', want: [info] },
    { fn: 'increase', name: 'requests', want: [info] },
    { fn: 'rate', name: 'requests_total', want: [] },
    { fn: 'rate', name: 'latency_seconds_bucket', want: [] },
    { fn: 'rate', name: '', want: [] },
    { fn: 'delta', name: 'requests', want: [] },
    { fn: 'irate', name: 'requests', want: [] },
  ] as const)('$fn over "$name"', ({ fn, name, want }) => {
    const metric = name === '' ? Labels.from({ job: 'a' }) : Labels.from({ __name__: name });
    const { annotations } = runRange(FNS[fn], pts, { at: 120, range: 180, metric });
    expect(annotations.infos).toEqual(want);
  });

  test('no result, no info', () => {
    const { annotations } = runRange(rate, [[0, 1]], { at: 60, range: 120, metric: Labels.from({ __name__: 'requests' }) });
    expect(annotations.infos).toEqual([]);
  });
});
