import { describe, expect, test } from 'vitest';
import { changes, resets } from './counters.js';
import { close, runRange, series, type RangeCall } from './testing/fixtures.js';

interface Case {
  readonly fn: 'changes' | 'resets';
  readonly name: string;
  readonly points: [number, number][];
  readonly call: RangeCall;
  readonly want: number | undefined;
}

function check(c: Case): void {
  const { value } = runRange(c.fn === 'changes' ? changes : resets, c.points, c.call);
  expect(close(value, c.want), `got ${value}, want ${c.want}`).toBe(true);
}

// From upstream functions.test and extended_vectors.test.
const foo = series(300, 1, 2, 3, 0, 1, 0, 0, 1, 2, 0);
const bar = series(300, 1, 2, 3, 4, 5, 1, 2, 3, 4, 5);
const biz = series(300, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1);
const up = series(60, [1, 1, 10]);
const flatThenUp = series(60, 1, [1, 1, 10]);
const down = series(60, [99, -1, 10]);
const flatThenDown = series(60, 99, [99, -1, 10]);
const sparse = series(60, 2, null, 1, null, null, null, null, null, 0);

const cases: Case[] = [
  { fn: 'resets', name: 'empty window', points: foo, call: { at: 3000, range: 300 }, want: undefined },
  { fn: 'resets', name: 'one point', points: foo, call: { at: 3000, range: 600 }, want: 0 },
  { fn: 'resets', name: '20m', points: foo, call: { at: 3000, range: 1200 }, want: 1 },
  { fn: 'resets', name: '32m', points: foo, call: { at: 3000, range: 1920 }, want: 2 },
  { fn: 'resets', name: '50m', points: foo, call: { at: 3000, range: 3000 }, want: 3 },
  { fn: 'resets', name: 'bar 32m', points: bar, call: { at: 3000, range: 1920 }, want: 1 },
  { fn: 'resets', name: 'NaN is no reset', points: [[0, 1], [60, NaN], [120, 0]], call: { at: 120, range: 180 }, want: 0 },
  { fn: 'changes', name: 'empty window', points: foo, call: { at: 3000, range: 300 }, want: undefined },
  { fn: 'changes', name: '20m', points: foo, call: { at: 3000, range: 1200 }, want: 2 },
  { fn: 'changes', name: '30m bar', points: bar, call: { at: 3000, range: 1800 }, want: 4 },
  { fn: 'changes', name: '50m foo', points: foo, call: { at: 3000, range: 3000 }, want: 7 },
  { fn: 'changes', name: '50m biz', points: biz, call: { at: 3000, range: 3000 }, want: 1 },
  { fn: 'changes', name: 'NaN to NaN is no change', points: series(300, NaN, NaN, NaN), call: { at: 900, range: 1200 }, want: 0 },
  { fn: 'changes', name: 'NaN to number is', points: series(300, 0, NaN, 0), call: { at: 900, range: 1200 }, want: 2 },
  { fn: 'changes', name: 'anchored up', points: up, call: { at: 300, range: 300, anchored: true }, want: 5 },
  { fn: 'changes', name: 'anchored flat anchor', points: flatThenUp, call: { at: 300, range: 300, anchored: true }, want: 4 },
  { fn: 'changes', name: 'anchored down', points: down, call: { at: 300, range: 300, anchored: true }, want: 5 },
  { fn: 'changes', name: 'anchored between steps', points: flatThenUp, call: { at: 330, range: 300, anchored: true }, want: 4 },
  { fn: 'changes', name: 'anchored 6m', points: flatThenUp, call: { at: 360, range: 300, anchored: true }, want: 5 },
  { fn: 'resets', name: 'anchored down', points: down, call: { at: 330, range: 300, anchored: true }, want: 5 },
  { fn: 'resets', name: 'anchored flat anchor', points: flatThenDown, call: { at: 330, range: 300, anchored: true }, want: 4 },
  { fn: 'resets', name: 'plain down', points: down, call: { at: 330, range: 300 }, want: 4 },
  { fn: 'changes', name: 'plain sparse', points: sparse, call: { at: 120, range: 60 }, want: 0 },
  { fn: 'changes', name: 'anchored sparse', points: sparse, call: { at: 120, range: 60, anchored: true }, want: 1 },
  { fn: 'changes', name: 'anchored: nothing in range', points: sparse, call: { at: 180, range: 60, anchored: true }, want: undefined },
  // The anchor at 2m is exactly one lookback delta (5m) before the range start: excluded.
  { fn: 'changes', name: 'anchor at the lookback edge', points: sparse, call: { at: 480, range: 60, anchored: true }, want: 0 },
  { fn: 'changes', name: 'anchor inside lookback', points: sparse, call: { at: 480, range: 60.001, anchored: true }, want: 1 },
  { fn: 'resets', name: 'anchor inside lookback', points: sparse, call: { at: 480, range: 60.001, anchored: true }, want: 1 },
];

describe('changes and resets', () => {
  test.each(cases)('$fn: $name', check);
});
