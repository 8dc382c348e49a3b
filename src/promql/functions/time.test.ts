import { describe, expect, test } from 'vitest';
import { FUNCTION_IMPLS } from './index.js';
import { plain, runInstant, sc, smp } from './testing/fixtures.js';
import { civilFromUnixSeconds } from './time.js';
import type { FunctionContext, InstantFunction } from './types.js';
import type { Vector } from '../value.js';

function fn(name: string): InstantFunction {
  const impl = FUNCTION_IMPLS.get(name);
  if (impl?.kind !== 'instant') throw new Error(`${name} is not an instant function`);
  return impl.call;
}

interface Case {
  readonly name: string;
  readonly args: Vector[];
  readonly ctx?: Partial<FunctionContext>;
  readonly want: number;
}

function check({ name, args, ctx, want }: Case): void {
  const { out } = runInstant(fn(name), args, [], ctx);
  expect(out.map((s) => s.f)).toEqual([want]);
}

// From upstream functions.test (2006-01-02 22:04:05 UTC is 1136239445) and hand-checked dates.
const cases: Case[] = [
  { name: 'year', args: [], want: 1970 },
  { name: 'year', args: [sc(1136239445)], want: 2006 },
  { name: 'month', args: [sc(1136239445)], want: 1 },
  { name: 'day_of_month', args: [sc(1136239445)], want: 2 },
  { name: 'day_of_year', args: [sc(1136239445)], want: 2 },
  { name: 'day_of_week', args: [sc(1136239445)], want: 1 },
  { name: 'hour', args: [sc(1136239445)], want: 22 },
  { name: 'minute', args: [sc(1136239445)], want: 4 },
  { name: 'year', args: [sc(1230767999)], want: 2008 },
  { name: 'year', args: [sc(1230768000)], want: 2009 },
  { name: 'day_of_month', args: [sc(1456790399)], want: 29 },
  { name: 'month', args: [sc(1456790400)], want: 3 },
  { name: 'day_of_year', args: [sc(1483191420)], want: 366 },
  { name: 'day_of_year', args: [sc(1672493820)], want: 365 },
  { name: 'days_in_month', args: [sc(1454284800)], want: 29 },
  { name: 'days_in_month', args: [sc(1485907200)], want: 28 },
  { name: 'days_in_month', args: [sc(951782400)], want: 29 }, // 2000-02-29: divisible by 400
  { name: 'days_in_month', args: [sc(-2206310400)], want: 28 }, // 1900-02-01: divisible by 100
  { name: 'days_in_month', args: [], ctx: { tMs: 0 }, want: 31 },
  // Fractions truncate toward zero: -0.5 s is 1970-01-01 00:00:00, -1 s the evening before.
  { name: 'year', args: [sc(-0.5)], want: 1970 },
  { name: 'year', args: [sc(-1)], want: 1969 },
  { name: 'hour', args: [sc(-1)], want: 23 },
  { name: 'day_of_week', args: [sc(-86400)], want: 3 },
  // Without an argument the evaluation time is truncated to whole seconds.
  { name: 'minute', args: [], ctx: { tMs: 119_999 }, want: 1 },
  { name: 'hour', args: [], ctx: { tMs: -1 }, want: 0 },
  { name: 'time', args: [], ctx: { tMs: 1 }, want: 0.001 },
  { name: 'time', args: [], ctx: { tMs: 3_000_000 }, want: 3000 },
  { name: 'start', args: [], ctx: { queryStartMs: 100_000 }, want: 100 },
  { name: 'end', args: [], ctx: { queryEndMs: 140_000 }, want: 140 },
  { name: 'range', args: [], ctx: { queryStartMs: 10_000, queryEndMs: 50_000 }, want: 40 },
  { name: 'step', args: [], ctx: { queryStepMs: 15_000 }, want: 15 },
  { name: 'step', args: [], want: 0 },
];

describe('time functions', () => {
  test.each(cases)('$name $args.0.0.f', check);

  test('calendar functions with an argument drop the name and keep labels', () => {
    const { out } = runInstant(fn('year'), [[smp({ __name__: 'x', a: 'b' }, 0)]]);
    expect(plain(out)).toEqual([['x{a="b"}', 1970]]);
    expect(out[0].dropName).toBe(true);
  });

  test('timestamp reads each sample time', () => {
    const input = [{ ...smp({ __name__: 'x' }, 5), t: 10_000 }];
    const { out } = runInstant(fn('timestamp'), [input], [], { tMs: 15_000 });
    expect(out).toEqual([{ metric: input[0].metric, t: 15_000, f: 10, dropName: true }]);
  });

  test.each([
    { sec: 253402300799, want: [9999, 12, 31, 23, 59] },
    { sec: -62135596800, want: [1, 1, 1, 0, 0] },
    { sec: -62135596801, want: [0, 12, 31, 23, 59] },
    { sec: 2 ** 60, want: [36534630048, 5, 13, 13, 56] }, // beyond 2^53: BigInt day split
  ])('civil date of $sec', ({ sec, want }) => {
    const c = civilFromUnixSeconds(sec);
    expect([c.year, c.month, c.day, c.hour, c.minute]).toEqual(want);
  });
});
