import { describe, expect, test } from 'vitest';
import { matcher } from '../../model/index.js';
import { FUNCTION_IMPLS } from './index.js';
import { plain, runInstant, sc, sel, smp } from './testing/fixtures.js';
import type { InstantFunction } from './types.js';
import type { Vector } from '../value.js';

function fn(name: string): InstantFunction {
  const impl = FUNCTION_IMPLS.get(name);
  if (impl?.kind !== 'instant') throw new Error(`${name} is not an instant function`);
  return impl.call;
}

interface Case {
  readonly name: string;
  readonly args: Vector[];
  readonly want: [string, number][];
}

function check({ name, args, want }: Case): void {
  const { out } = runInstant(fn(name), args, [], { tMs: 7000 });
  expect(plain(out)).toEqual(want);
  for (const s of out) expect(s.t).toBe(7000);
}

const clampInput = [smp({ __name__: 'x', src: 'a' }, -50), smp({ __name__: 'x', src: 'b' }, 0), smp({ __name__: 'x', src: 'c' }, 100)];

// Values from upstream functions.test, trig_functions.test and Go's math special cases.
const cases: Case[] = [
  { name: 'abs', args: [[smp({ a: '1' }, -2.5)]], want: [['{a="1"}', 2.5]] },
  { name: 'ceil', args: [[smp({ a: '1' }, -0.5)]], want: [['{a="1"}', -0]] },
  { name: 'floor', args: [[smp({ a: '1' }, 1.5)]], want: [['{a="1"}', 1]] },
  { name: 'sqrt', args: [[smp({ a: '1' }, -1)]], want: [['{a="1"}', NaN]] },
  { name: 'ln', args: [[smp({ a: '1' }, 0)]], want: [['{a="1"}', -Infinity]] },
  { name: 'log2', args: [[smp({ a: '1' }, 8)]], want: [['{a="1"}', 3]] },
  { name: 'log10', args: [[smp({ a: '1' }, 1000)]], want: [['{a="1"}', 3]] },
  { name: 'exp', args: [[smp({ a: '1' }, 0)]], want: [['{a="1"}', 1]] },
  { name: 'atanh', args: [[smp({ a: '1' }, 1)]], want: [['{a="1"}', Infinity]] },
  { name: 'acosh', args: [[smp({ a: '1' }, 0.5)]], want: [['{a="1"}', NaN]] },
  { name: 'deg', args: [[smp({ a: '1' }, Math.PI)]], want: [['{a="1"}', 180]] },
  { name: 'rad', args: [[smp({ a: '1' }, 180)]], want: [['{a="1"}', Math.PI]] },
  {
    name: 'sgn',
    args: [[smp({ s: 'a' }, -3), smp({ s: 'b' }, 0), smp({ s: 'c' }, NaN), smp({ s: 'd' }, 5), smp({ s: 'e' }, -0)]],
    want: [['{s="a"}', -1], ['{s="b"}', 0], ['{s="c"}', NaN], ['{s="d"}', 1], ['{s="e"}', -0]],
  },
  { name: 'clamp_max', args: [clampInput, sc(75)], want: [['x{src="a"}', -50], ['x{src="b"}', 0], ['x{src="c"}', 75]] },
  { name: 'clamp_min', args: [clampInput, sc(-25)], want: [['x{src="a"}', -25], ['x{src="b"}', 0], ['x{src="c"}', 100]] },
  { name: 'clamp', args: [clampInput, sc(-25), sc(75)], want: [['x{src="a"}', -25], ['x{src="b"}', 0], ['x{src="c"}', 75]] },
  { name: 'clamp', args: [clampInput, sc(5), sc(-5)], want: [] },
  { name: 'clamp', args: [clampInput, sc(0), sc(NaN)], want: [['x{src="a"}', NaN], ['x{src="b"}', NaN], ['x{src="c"}', NaN]] },
  { name: 'clamp', args: [clampInput, sc(NaN), sc(0)], want: [['x{src="a"}', NaN], ['x{src="b"}', NaN], ['x{src="c"}', NaN]] },
  { name: 'round', args: [[smp({ a: '1' }, 2.5), smp({ a: '2' }, -2.5), smp({ a: '3' }, 0.4)]], want: [['{a="1"}', 3], ['{a="2"}', -2], ['{a="3"}', 0]] },
  { name: 'round', args: [[smp({ a: '1' }, 2.26), smp({ a: '2' }, 5.05)], sc(0.1)], want: [['{a="1"}', 2.3], ['{a="2"}', 5.1]] },
  { name: 'round', args: [[smp({ a: '1' }, 17)], sc(5)], want: [['{a="1"}', 15]] },
  { name: 'round', args: [[smp({ a: '1' }, 17)], sc(0)], want: [['{a="1"}', NaN]] },
  { name: 'scalar', args: [[smp({ a: '1' }, 4)]], want: [['{}', 4]] },
  { name: 'scalar', args: [[smp({ a: '1' }, 4), smp({ a: '2' }, 5)]], want: [['{}', NaN]] },
  { name: 'scalar', args: [[]], want: [['{}', NaN]] },
  { name: 'vector', args: [sc(3)], want: [['{}', 3]] },
  { name: 'pi', args: [], want: [['{}', Math.PI]] },
  { name: 'min_of', args: [sc(3), sc(5)], want: [['{}', 3]] },
  { name: 'max_of', args: [sc(3), sc(5)], want: [['{}', 5]] },
  { name: 'max_of', args: [sc(3), sc(NaN)], want: [['{}', NaN]] },
  ...['histogram_count', 'histogram_sum', 'histogram_avg', 'histogram_stddev', 'histogram_stdvar', 'start_timestamp'].map(
    (name): Case => ({ name, args: [[smp({ a: '1' }, 4)]], want: [] }),
  ),
];

describe('math and scalar functions', () => {
  test.each(cases)('$name', check);

  test('element-wise results drop the metric name', () => {
    const { out } = runInstant(fn('abs'), [[smp({ __name__: 'x' }, -1)]]);
    expect(out[0].dropName).toBe(true);
    expect(out[0].metric.metricName).toBe('x');
  });
});

describe('absent', () => {
  const selector = sel([
    matcher('=', '__name__', 'nonexistent'),
    matcher('=', 'job', 'testjob'),
    matcher('=', 'instance', 'testinstance'),
    matcher('=~', 'method', '.x'),
  ]);
  test.each([
    { name: 'labels from equality matchers', matchers: selector.matchers, want: '{instance="testinstance", job="testjob"}' },
    {
      name: 'a name matched twice is dropped',
      matchers: [matcher('=', 'job', 'a'), matcher('=', 'job', 'b'), matcher('=', 'foo', 'bar')],
      want: '{foo="bar"}',
    },
    { name: 'and by another operator', matchers: [matcher('=', 'job', 'a'), matcher('=~', 'job', 'b'), matcher('=', 'foo', 'bar')], want: '{foo="bar"}' },
    { name: 'a regex first, then equality', matchers: [matcher('=~', 'job', 'b'), matcher('=', 'job', 'a')], want: '{job="a"}' },
    { name: 'thrice', matchers: [matcher('=', 'h', '1'), matcher('=', 'h', '2'), matcher('=', 'h', '3'), matcher('=', 'i', 'x')], want: '{i="x"}' },
  ])('$name', ({ matchers, want }) => {
    const { out } = runInstant(fn('absent'), [[]], [sel(matchers)]);
    expect(plain(out)).toEqual([[want, 1]]);
    expect(out[0].dropName).toBe(false);
  });

  test('present input gives nothing', () => {
    expect(runInstant(fn('absent'), [[smp({ a: 'b' }, 1)]], [selector]).out).toEqual([]);
  });

  test('not a selector: no labels', () => {
    const { out } = runInstant(fn('absent'), [[]], [{ type: 'NumberLiteral', value: 1, duration: false, pos: { start: 0, end: 0 } }]);
    expect(plain(out)).toEqual([['{}', 1]]);
  });
});
