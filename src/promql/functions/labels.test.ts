import { describe, expect, test } from 'vitest';
import { QueryError } from '../errors.js';
import { labelJoin, labelReplace } from './labels.js';
import { plain, runInstant, smp, str } from './testing/fixtures.js';

const testmetric = [
  smp({ __name__: 'testmetric', src: 'source-value-10', dst: 'original-destination-value' }, 0),
  smp({ __name__: 'testmetric', src: 'source-value-20', dst: 'original-destination-value' }, 1, true),
];

function replace(dst: string, repl: string, src: string, regex: string): [string, number][] {
  return plain(runInstant(labelReplace, [testmetric, [], [], [], []], [str('x'), str(dst), str(repl), str(src), str(regex)]).out);
}

// From upstream functions.test.
describe('label_replace', () => {
  test.each([
    {
      name: 'full-string match',
      args: ['dst', 'destination-value-$1', 'src', 'source-value-(.*)'],
      want: ['destination-value-10', 'destination-value-20'],
    },
    { name: 'no sub-string match', args: ['dst', 'destination-value-$1', 'src', 'value-(.*)'], want: ['original-destination-value', 'original-destination-value'] },
    { name: 'several groups', args: ['dst', '$1-value-$2', 'src', '(.*)-value-(.*)'], want: ['source-value-10', 'source-value-20'] },
    { name: 'missing source label', args: ['dst', 'value-$1', 'nonexistent-src', 'source-value-(.*)'], want: ['original-destination-value', 'original-destination-value'] },
    { name: 'empty source that matches', args: ['dst', 'value-$1', 'nonexistent-src', '(.*)'], want: ['value-', 'value-'] },
    { name: 'named group', args: ['dst', '${n}x', 'src', 'source-value-(?P<n>.*)'], want: ['10x', '20x'] },
    { name: '$1x is group "1x"', args: ['dst', '$1x', 'src', 'source-value-(.*)'], want: [undefined, undefined] },
  ])('$name', ({ args, want }) => {
    const [dst, repl, src, regex] = args;
    const out = runInstant(labelReplace, [testmetric], [str('x'), str(dst), str(repl), str(src), str(regex)]).out;
    expect(out.map((s) => s.metric.get('dst') || undefined)).toEqual(want);
    expect(out.map((s) => s.f)).toEqual([0, 1]);
  });

  test('an empty result removes the label', () => {
    expect(replace('dst', '', 'dst', '.*')).toEqual([
      ['testmetric{src="source-value-10"}', 0],
      ['testmetric{src="source-value-20"}', 1],
    ]);
  });

  test('dropName is kept, and cleared when __name__ is set', () => {
    const keep = runInstant(labelReplace, [testmetric], [str('x'), str('dst'), str('v'), str('src'), str('.*')]).out;
    expect(keep.map((s) => s.dropName)).toEqual([false, true]);
    const named = runInstant(labelReplace, [testmetric], [str('x'), str('__name__'), str('m$1'), str('src'), str('source-value-(.*)')]).out;
    expect(named.map((s) => [s.metric.metricName, s.dropName])).toEqual([['m10', false], ['m20', false]]);
    const unmatched = runInstant(labelReplace, [testmetric], [str('x'), str('__name__'), str('m'), str('src'), str('nope')]).out;
    expect(unmatched.map((s) => s.dropName)).toEqual([false, true]);
  });

  test.each([
    { name: 'invalid regex', args: ['dst', 'value-$1', 'src', '(.*'], message: 'invalid regular expression in label_replace(): (.*' },
    { name: 'invalid destination', args: ['', '', 'src', '(.*)'], message: 'invalid destination label name in label_replace(): ' },
    { name: 'lone surrogate destination', args: ['\udcff', '', 'src', '(.*)'], message: 'invalid destination label name in label_replace(): \udcff' },
    { name: 'duplicate outputs', args: ['src', '', '', ''], message: 'vector cannot contain metrics with the same labelset' },
  ])('fails: $name', ({ args, message }) => {
    expect(() => replace(args[0], args[1], args[2], args[3])).toThrow(new QueryError('execution', message));
  });
});

describe('label_join', () => {
  const input = [
    smp({ __name__: 't', src: 'a', src1: 'b', src2: 'c', dst: 'original' }, 0),
    smp({ __name__: 't', src: 'd', src1: 'e', src2: 'f', dst: 'original' }, 1),
  ];
  test.each([
    { name: 'joins in order', args: ['dst', '-', 'src', 'src1', 'src2'], want: ['a-b-c', 'd-e-f'] },
    { name: 'missing sources are empty', args: ['dst', '-', 'src', 'src3', 'src1'], want: ['a--b', 'd--e'] },
    { name: 'empty result removes dst', args: ['dst', '', 'emptysrc', 'emptysrc1'], want: ['', ''] },
    { name: 'no sources', args: ['dst', ', '], want: ['', ''] },
  ])('$name', ({ args, want }) => {
    const out = runInstant(labelJoin, [input], [str('x'), ...args.map(str)]).out;
    expect(out.map((s) => s.metric.get('dst'))).toEqual(want);
  });

  test('duplicates fail', () => {
    const dup = [smp({ __name__: 'dup', label: 'a', this: 'a' }, 1), smp({ __name__: 'dup', label: 'b', this: 'a' }, 1)];
    expect(() => runInstant(labelJoin, [dup], [str('x'), str('label'), str(''), str('this')])).toThrow(
      new QueryError('execution', 'vector cannot contain metrics with the same labelset'),
    );
  });

  test('invalid source name fails', () => {
    expect(() => runInstant(labelJoin, [input], [str('x'), str('dst'), str('-'), str('')])).toThrow(
      new QueryError('execution', 'invalid source label name in label_join(): '),
    );
  });
});

