import { describe, expect, it } from 'vitest';
import { Labels, STALE_NAN } from '../../model/index.js';
import type { Value } from '../value.js';
import { almostEqual, checkMatrixSorted, compareResult } from './compare.js';
import { checkAnnotations, checkExpectedFailure } from './expectations.js';
import { parseScript, type EvalCommand } from './script.js';

const evalOf = (text: string): EvalCommand => parseScript('t.test', text).commands.find((c) => c.kind === 'eval') as EvalCommand;
const L = (text: string): Labels => {
  const [name, rest] = text.split('{');
  const pairs = ['__name__', name];
  for (const m of (rest ?? '').matchAll(/(\w+)="([^"]*)"/g)) pairs.push(m[1], m[2]);
  return Labels.fromPairs(pairs);
};
const vector = (...samples: [string, number][]): Value => ({ type: 'vector', v: samples.map(([m, f]) => ({ metric: L(m), t: 0, f, dropName: false })) });
const matrix = (...series: [string, number[], number[]][]): Value => ({ type: 'matrix', v: series.map(([m, t, f]) => ({ metric: L(m), t, f, dropName: false })) });

describe('almostEqual (util/almost.Equal, epsilon 1e-6)', () => {
  it.each([
    [1, 1, true],
    [NaN, NaN, true],
    [STALE_NAN, STALE_NAN, true],
    [STALE_NAN, NaN, false],
    [NaN, STALE_NAN, false],
    [STALE_NAN, 1, false],
    [Infinity, Infinity, true],
    [Infinity, -Infinity, false],
    [Infinity, 1e308, false],
    [1, 1 + 1.9e-6, true],
    [1, 1 + 2.1e-6, false],
    [1e6, 1e6 + 1, true],
    [1e6, 1e6 + 3, false],
    [0, 1e-300, false],
    [0, -0, true],
    [0, 5e-324, true], // below epsilon × MIN_NORMAL
    [1e-310, 1.0000001e-310, true],
    [1e-310, 2e-310, false],
    [0, 3e-314, false],
    [NaN, 1, false],
    [1.7976931348623157e308, 1.7976931348623155e308, true],
  ])('%d ~ %d is %j', (a, b, want) => {
    expect(almostEqual(a, b)).toBe(want);
    expect(almostEqual(b, a)).toBe(want);
  });
});

describe('compareResult', () => {
  type Case = [string, string, Value, string | null];
  it.each<Case>([
    ['vector, any order', 'eval instant at 0 x\n  a{j="1"} 1\n  a{j="2"} 2', vector(['a{j="2"}', 2], ['a{j="1"}', 1.0000001]), null],
    ['vector, wrong value', 'eval instant at 0 x\n  a 1', vector(['a', 1.1]), 'expected 1 for a but got 1.1'],
    ['vector, extra series', 'eval instant at 0 x\n  a 1', vector(['a', 1], ['b', 1]), 'unexpected metric b in result, has value 1'],
    ['vector, missing series', 'eval instant at 0 x\n  a 1\n  b 2', vector(['a', 1]), 'expected metric b with [2] not found'],
    ['vector, full label set', 'eval instant at 0 x\n  {j="1"} 1', vector(['a{j="1"}', 1]), 'unexpected metric a{j="1"} in result, has value 1'],
    ['vector, empty', 'eval instant at 0 x', vector(), null],
    ['vector, ordered', 'eval instant at 0 x\n  expect ordered\n  a 1\n  b 2', vector(['a', 1], ['b', 2]), null],
    ['vector, misordered', 'eval_ordered instant at 0 x\n  a 1\n  b 2', vector(['b', 2], ['a', 1]), 'expected metric b with 2 at position 2 but was at 1'],
    ['vector, NaN', 'eval instant at 0 x\n  a NaN', vector(['a', NaN]), null],
    ['vector, histogram expected', 'eval instant at 0 x\n  a {{sum:1 count:1}}', vector(['a', 1]), 'expected histogram for a but got float value 1'],
    ['vector when a scalar is expected', 'eval instant at 0 x\n  1', vector(['a', 1]), 'expected scalar result, but got vector of 1 samples'],
    ['scalar', 'eval instant at 0 x\n  -0x10', { type: 'scalar', t: 0, v: -16 }, null],
    ['scalar, wrong', 'eval instant at 0 x\n  1', { type: 'scalar', t: 0, v: 2 }, 'expected scalar 1 but got 2'],
    ['scalar when a vector is expected', 'eval instant at 0 x\n  a 1', { type: 'scalar', t: 0, v: 1 }, 'expected vector or matrix result, but got scalar 1'],
    ['scalar when nothing is expected', 'eval instant at 0 x', { type: 'scalar', t: 0, v: 1 }, 'expected vector or matrix result, but got scalar 1'],
    ['string', 'eval instant at 0 x\n  expect string "a"', { type: 'string', t: 0, v: 'a' }, null],
    ['string, wrong', 'eval instant at 0 x\n  expect string "a"', { type: 'string', t: 0, v: 'b' }, 'expected string "a" but got "b"'],
    ['matrix', 'eval range from 0 to 2m step 1m x\n  a 1 _ 3\n  b 1+1x2', matrix(['a', [0, 120_000], [1, 3]], ['b', [0, 60_000, 120_000], [1, 2, 3]]), null],
    ['matrix, unsorted', 'eval range from 0 to 1m step 1m x\n  a 1\n  b 1', matrix(['b', [0], [1]], ['a', [0], [1]]), 'matrix results should always be sorted by labels'],
    ['matrix, point count', 'eval range from 0 to 1m step 1m x\n  a 1 2', matrix(['a', [0], [1]]), 'expected 2 float points and 0 histogram points for a, but got 1 float point [1 @[0]]'],
    ['matrix, timestamp', 'eval range from 0 to 1m step 1m x\n  a _ 2', matrix(['a', [0], [2]]), 'expected float value at index 0 for a to have timestamp 60000, but it had timestamp 0'],
    ['matrix, value', 'eval range from 0 to 1m step 1m x\n  a 1 2', matrix(['a', [0, 60_000], [1, 3]]), 'expected float value at index 1 (t=60000) for a to be 2, but got 3'],
    ['matrix, too many points', 'eval range from 0 to 1m step 1m x\n  a 1 2 3', matrix(['a', [0], [1]]), 'expected 3 points for a, but query time range cannot return this many points'],
    ['matrix, missing', 'eval range from 0 to 1m step 1m x\n  a 1\n  b 1', matrix(['a', [0], [1]]), 'expected metric b not found'],
    ['matrix, ordered', 'eval range from 0 to 1m step 1m x\n  expect ordered', matrix(), 'expected ordered result, but query returned a matrix'],
    ['range vector of an instant query', 'eval instant at 1m x[1m]\n  expect range vector from 0 to 1m step 30s\n  a 1 _ 3', matrix(['a', [0, 60_000], [1, 3]]), null],
  ])('%s', (_name, script, value, want) => {
    const got = compareResult(evalOf(script), value);
    if (want === null) expect(got).toBeNull();
    else expect(got).toContain(want);
  });

  it('checks matrix order with labels.Compare', () => {
    const m = matrix(['a', [], []], ['a{x="1"}', [], []], ['b', [], []]);
    expect(m.type === 'matrix' && checkMatrixSorted(m.v)).toBeNull();
  });
});

describe('expected failures', () => {
  it.each([
    ['eval instant at 0 x\n  expect fail', 'anything', true, true],
    ['eval instant at 0 x\n  expect fail msg: exact text', 'exact text', true, true],
    ['eval instant at 0 x\n  expect fail msg: exact text', 'other text', false, true],
    ['eval instant at 0 x\n  expect fail regex: ex.ct', 'the exact text', true, true],
    ['eval instant at 0 x\n  expect fail regex: ^ex.ct$', 'the exact text', false, true],
    ['eval_fail instant at 0 x\n  expected_fail_message exact text', 'exact text', true, true],
    ['eval_fail instant at 0 x\n  expected_fail_message exact text', 'exact', false, true],
    ['eval_fail instant at 0 x\n  expected_fail_regexp t.xt', 'exact text', true, true],
    ['eval_fail instant at 0 x\n  expected_fail_regexp ^t.xt', 'exact text', false, true],
  ])('%j with error %j', (script, error, strict, lenient) => {
    const cmd = evalOf(script);
    expect(checkExpectedFailure(cmd, error, 'strict') === null).toBe(strict);
    expect(checkExpectedFailure(cmd, error, 'lenient') === null).toBe(lenient);
    if (!strict) expect(checkExpectedFailure(cmd, error, 'strict')?.messageOnly).toBe(true);
  });
});

describe('annotations', () => {
  const W = 'PromQL warning: w1';
  const I = 'PromQL info: i1';
  type Case = [string, string[], string[], boolean, boolean];
  it.each<Case>([
    ['', [W], [I], true, true],
    ['expect warn', [W], [], true, true],
    ['expect warn', [], [I], false, false],
    ['expect warn msg: PromQL warning: w1', [W], [], true, true],
    ['expect warn msg: PromQL warning: w2', [W], [], false, true],
    ['expect warn msg: PromQL warning: w1', [W, 'PromQL warning: w2'], [], false, true],
    ['expect warn regex: w\\d', [W, 'PromQL warning: w2'], [], true, true],
    ['expect info regex: i1', [W], [I], true, true],
    ['expect info msg: PromQL info: i2', [], [I], false, true],
    ['expect no_warn', [], [I], true, true],
    ['expect no_warn', [W], [], false, false],
    ['expect no_info', [W], [I], false, false],
    ['expect no_info', [W], [], true, true],
  ])('%j with warnings %j and infos %j', (expectLine, warnings, infos, strict, lenient) => {
    const cmd = evalOf(`eval instant at 0 x\n  ${expectLine}`);
    expect(checkAnnotations(cmd, 'x', warnings, infos, 'strict') === null).toBe(strict);
    expect(checkAnnotations(cmd, 'x', warnings, infos, 'lenient') === null).toBe(lenient);
  });

  it('honours eval_warn and eval_info', () => {
    expect(checkAnnotations(evalOf('eval_warn instant at 0 x'), 'x', [], [], 'strict')?.reason).toContain('expected warnings');
    expect(checkAnnotations(evalOf('eval_info instant at 0 x'), 'x', [], [], 'strict')?.reason).toContain('expected info annotations');
    expect(checkAnnotations(evalOf('eval_info instant at 0 x'), 'x', [], [I], 'strict')).toBeNull();
  });
});
