import { describe, expect, it } from 'vitest';
import { ArraySeriesIterator, Labels, collectSamples } from '../model/index.js';
import { ArraySeriesSet, MergedSeriesIterator, collectSeries, mergeSeriesSets, seriesFromSamples } from './series-set.js';

const iter = (ts: number[], vs: number[]) => new ArraySeriesIterator(Float64Array.from(ts), Float64Array.from(vs));

describe('MergedSeriesIterator', () => {
  it('interleaves sources in time order; on equal timestamps the first source wins', () => {
    const m = new MergedSeriesIterator([iter([1, 3, 5], [10, 30, 50]), iter([2, 3, 6], [20, 99, 60])]);
    expect(collectSamples(m).map((s) => [s.tMs, s.value])).toEqual([[1, 10], [2, 20], [3, 30], [5, 50], [6, 60]]);
  });

  it('seeks across sources and never moves backwards', () => {
    const m = new MergedSeriesIterator([iter([1, 10], [1, 10]), iter([5, 7], [5, 7])]);
    expect(m.seek(6)).toBe(true);
    expect(m.at().tMs).toBe(7);
    expect(m.seek(2)).toBe(true);
    expect(m.at().tMs).toBe(7);
    expect(m.next()).toBe(true);
    expect(m.at().tMs).toBe(10);
    expect(m.next()).toBe(false);
  });
});

describe('mergeSeriesSets', () => {
  it('merges sorted sets, joining series present in several', () => {
    const a = Labels.from({ __name__: 'a' });
    const b = Labels.from({ __name__: 'b' });
    const c = Labels.from({ __name__: 'c' });
    const set = mergeSeriesSets([
      new ArraySeriesSet([seriesFromSamples(a, [{ tMs: 1, value: 1 }]), seriesFromSamples(c, [{ tMs: 1, value: 3 }])]),
      new ArraySeriesSet([seriesFromSamples(b, [{ tMs: 1, value: 2 }]), seriesFromSamples(c, [{ tMs: 2, value: 4 }])]),
    ]);
    expect(collectSeries(set).map((s) => [s.labels.metricName, s.samples.map((x) => x.value)])).toEqual([
      ['a', [1]],
      ['b', [2]],
      ['c', [3, 4]],
    ]);
  });
});
