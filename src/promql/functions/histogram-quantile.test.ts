import { describe, expect, test } from 'vitest';
import { histogramFraction, histogramQuantile, histogramQuantiles } from './histogram-quantile.js';
import { close, plain, runInstant, sc, smp, str } from './testing/fixtures.js';
import type { Sample } from '../value.js';

function buckets(labels: Record<string, string>, pairs: [string, number][]): Sample[] {
  return pairs.map(([le, f]) => smp({ __name__: 'h_bucket', ...labels, le }, f, true));
}

// Upstream histograms.test data at 50m.
const testhistogram = [
  ...buckets({ start: 'positive' }, [['0.1', 50], ['.2', 70], ['1e0', 110], ['+Inf', 120]]),
  ...buckets({ start: 'negative' }, [['-.2', 10], ['-0.1', 20], ['0.3', 20], ['+Inf', 30]]),
];
const nonmonotonic = buckets({}, [['0.1', 20], ['1', 10], ['10', 50], ['100', 40], ['1000', 90], ['+Inf', 80]]);

function quantiles(q: number, input: Sample[]): [string, number][] {
  return plain(runInstant(histogramQuantile, [sc(q), input]).out);
}

function expectClose(got: [string, number][], want: [string, number][]): void {
  expect(got.map(([l]) => l)).toEqual(want.map(([l]) => l));
  got.forEach(([, v], i) => expect(close(v, want[i][1]), `${v} vs ${want[i][1]}`).toBe(true));
}

describe('histogram_quantile over classic buckets', () => {
  test.each([
    [0, 0, -0.2],
    [0.2, 0.048, -0.2],
    [0.5, 0.15, -0.15],
    [0.8, 0.72, 0.3],
    [1, 1, 0.3],
    [-0.1, -Infinity, -Infinity],
    [1.01, Infinity, Infinity],
    [NaN, NaN, NaN],
  ])('φ=%s', (q, positive, negative) => {
    expectClose(quantiles(q, testhistogram), [
      ['h_bucket{start="positive"}', positive],
      ['h_bucket{start="negative"}', negative],
    ]);
  });

  test('output keeps the name, marked for removal, without le', () => {
    const out = runInstant(histogramQuantile, [sc(0.5), testhistogram]).out;
    expect(out.every((s) => s.dropName && !s.metric.has('le'))).toBe(true);
  });

  test.each([
    { name: 'middle of a bucket', input: buckets({}, [['0', 0], ['2', 1], ['4', 2], ['6', 3], ['+Inf', 3]]), q: 1 / 6, want: 1 },
    { name: 'equal bounds spelled differently', input: buckets({}, [['0.1', 10], ['0.2', 10], ['2e-1', 10], ['2.0e-1', 10], ['+Inf', 40]]), q: 0.5, want: 0.15 },
    { name: 'only +Inf buckets', input: buckets({}, [['+inf', 0], ['+Inf', 0]]), q: 0.5, want: NaN },
    { name: 'no observations', input: buckets({}, [['0', 0], ['1', 0], ['+Inf', 0]]), q: 1, want: NaN },
    { name: 'no +Inf bucket', input: buckets({}, [['1', 5], ['2', 10]]), q: 0.5, want: NaN },
    { name: 'in the +Inf bucket', input: buckets({}, [['1', 5], ['2', 10], ['+Inf', 20]]), q: 0.9, want: 2 },
    { name: 'first bucket at or below 0', input: buckets({}, [['-1', 5], ['2', 10], ['+Inf', 10]]), q: 0.1, want: -1 },
    // A NaN count survives the monotonicity pass and poisons the interpolation, as in Go.
    { name: 'NaN count', input: buckets({}, [['1', NaN], ['2', 10], ['+Inf', 10]]), q: 0.5, want: NaN },
    // Counts differing by less than 1e-12 relative are evened out silently (no info).
    { name: 'precision noise', input: buckets({}, [['1', 10], ['2', 10 - 1e-13], ['+Inf', 10]]), q: 0.99, want: 0.99 },
  ])('$name', ({ input, q, want }) => {
    const { out, annotations } = runInstant(histogramQuantile, [sc(q), input]);
    expect(out).toHaveLength(1);
    expect(close(out[0].f, want), `${out[0].f}`).toBe(true);
    expect(annotations.infos).toEqual([]);
  });

  test('monotonicity is forced, with an info', () => {
    const { out, annotations } = runInstant(histogramQuantile, [sc(0.5), nonmonotonic]);
    expect(out.map((s) => s.f)).toEqual([8.5]);
    expect(annotations.infos).toEqual([
      'PromQL info: input to histogram_quantile needed to be fixed for monotonicity (see https://prometheus.io/docs/prometheus/latest/querying/functions/#histogram_quantile) for metric name "h_bucket"',
    ]);
    expect(quantiles(0.01, nonmonotonic)[0][1]).toBeCloseTo(0.0045, 12);
    expect(quantiles(0.99, nonmonotonic)[0][1]).toBeCloseTo(979.75, 9);
  });

  test.each([
    { le: undefined, text: '""' },
    { le: 'Hello World', text: '"Hello World"' },
    { le: '1e400', text: '"1e400"' },
  ])('bad le $le is skipped with a warning', ({ le, text }) => {
    const input = [smp(le === undefined ? { __name__: 'series', ale: '0.1' } : { __name__: 'series', le }, 2)];
    const { out, annotations } = runInstant(histogramQuantile, [sc(0.8), input]);
    expect(out).toEqual([]);
    expect(annotations.warnings).toEqual([
      `PromQL warning: bucket label "le" is missing or has a malformed value of ${text} for metric name "series"`,
    ]);
  });

  test('an invalid φ warns even without input', () => {
    const { annotations } = runInstant(histogramQuantile, [sc(NaN), []]);
    expect(annotations.warnings).toEqual(['PromQL warning: quantile value should be between 0 and 1, got NaN']);
  });

  test('histograms that differ only by name stay apart', () => {
    const a = buckets({ job: 'x' }, [['1', 1], ['+Inf', 2]]);
    const b = a.map((s) => ({ ...s, metric: s.metric.with('__name__', 'other_bucket') }));
    expect(runInstant(histogramQuantile, [sc(0.5), [...a, ...b]]).out).toHaveLength(2);
  });
});

describe('histogram_quantiles', () => {
  test('one output per φ, labelled in OpenMetrics notation', () => {
    const { out, annotations } = runInstant(
      histogramQuantiles,
      [testhistogram, [], sc(0), sc(0.25), sc(1), sc(NaN)],
      [str('x'), str('q'), str('0'), str('0.25'), str('1'), str('NaN')],
    );
    expect(plain(out).map(([l]) => l)).toEqual([
      'h_bucket{q="0.0", start="positive"}',
      'h_bucket{q="0.0", start="negative"}',
      'h_bucket{q="0.25", start="positive"}',
      'h_bucket{q="0.25", start="negative"}',
      'h_bucket{q="1.0", start="positive"}',
      'h_bucket{q="1.0", start="negative"}',
      'h_bucket{q="NaN", start="positive"}',
      'h_bucket{q="NaN", start="negative"}',
    ]);
    const want = [0, -0.2, 0.06, -0.2, 1, 0.3, NaN, NaN];
    out.forEach((s, i) => expect(close(s.f, want[i]), `${s.f} vs ${want[i]}`).toBe(true));
    expect(annotations.warnings).toEqual(['PromQL warning: quantile value should be between 0 and 1, got NaN']);
  });
});

describe('histogram_fraction over classic buckets', () => {
  test.each([
    { name: 'up to a bucket bound', input: buckets({}, [['0', 0], ['2', 10], ['4', 20], ['6', 30], ['+Inf', 30]]), lo: 0, hi: 4, want: 2 / 3 },
    { name: 'inside a bucket', input: buckets({}, [['0', 0], ['2', 10], ['4', 20], ['6', 30], ['+Inf', 30]]), lo: 0, hi: 3.5, want: 0.5833333333333334 },
    { name: 'first bucket from 0', input: buckets({}, [['1', 1], ['2', 3], ['3', 6], ['+Inf', 100]]), lo: 0, hi: 1.5, want: 0.02 },
    { name: 'first bucket from -Inf', input: buckets({}, [['-3', 10], ['-2', 12], ['-1', 15], ['+Inf', 100]]), lo: -4, hi: -2, want: 0.02 },
    { name: 'lower -Inf', input: buckets({}, [['-3', 10], ['-2', 12], ['-1', 15], ['+Inf', 100]]), lo: -Infinity, hi: -1.5, want: 0.135 },
    { name: 'everything', input: buckets({}, [['1', 1], ['2', 3], ['3', 6], ['+Inf', 100]]), lo: -Infinity, hi: Infinity, want: 1 },
    { name: 'inside the +Inf bucket', input: buckets({}, [['1', 1], ['2', 3], ['3', 6], ['+Inf', 100]]), lo: 4, hi: 10, want: 0 },
    { name: 'lower above upper', input: buckets({}, [['1', 1], ['+Inf', 2]]), lo: 2, hi: 1, want: 0 },
    { name: 'NaN bound', input: buckets({}, [['1', 1], ['+Inf', 2]]), lo: NaN, hi: 1, want: NaN },
    { name: 'no +Inf', input: buckets({}, [['1', 1], ['2', 2]]), lo: 0, hi: 1, want: NaN },
  ])('$name', ({ input, lo, hi, want }) => {
    const out = runInstant(histogramFraction, [sc(lo), sc(hi), input]).out;
    expect(out).toHaveLength(1);
    expect(close(out[0].f, want), `${out[0].f}`).toBe(true);
    expect(out[0].dropName).toBe(true);
  });

  test('two histograms by label', () => {
    const h3 = [
      ...buckets({ start: 'positive' }, [['0', 0], ['0.1', 50], ['.2', 70], ['1e0', 110], ['+Inf', 110]]),
      ...buckets({ start: 'negative' }, [['-.25', 0], ['-.2', 10], ['-0.1', 20], ['0.3', 20], ['+Inf', 20]]),
    ];
    expectClose(plain(runInstant(histogramFraction, [sc(0), sc(0.2), h3]).out), [
      ['h_bucket{start="positive"}', 0.6363636363636364],
      ['h_bucket{start="negative"}', 0],
    ]);
  });
});
