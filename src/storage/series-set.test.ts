import { describe, expect, it } from 'vitest';
import { ArraySeriesIterator, Labels, collectSamples } from '../model/index.js';
import { runBatchIteratorSuite, type BatchSuiteSeries } from '../model/testing/batch-suite.js';
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

/** Splits a series over 1–4 sources, some samples in two of them (with other values: the first source wins). */
function mergeSources(s: BatchSuiteSeries, random: () => number): { ts: number[]; vs: number[] }[] {
  const sources = Array.from({ length: 1 + Math.floor(random() * 4) }, () => ({ ts: [] as number[], vs: [] as number[] }));
  const runs = random() < 0.5; // blocks and head: long runs per source, as in a Db
  let k = 0;
  for (let i = 0; i < s.tsMs.length; i++) {
    if (!runs || random() < 0.02) k = Math.floor(random() * sources.length);
    sources[k].ts.push(s.tsMs[i]);
    sources[k].vs.push(i);
    if (random() < 0.05) {
      const other = sources[Math.floor(random() * sources.length)];
      if (other !== sources[k]) {
        other.ts.push(s.tsMs[i]);
        other.vs.push(-1 - i);
      }
    }
  }
  return sources;
}

runBatchIteratorSuite('MergedSeriesIterator', (s, random) => {
  const parts = mergeSources(s, random).map(({ ts, vs }) => ({
    ts: Float64Array.from(ts),
    // Values by index into the drawn series keep their bits (typed arrays); duplicates get -1 - i.
    vs: Float64Array.from(vs, (i) => (i >= 0 ? s.values[i] : i)),
    plain: random() < 0.3,
  }));
  return () =>
    new MergedSeriesIterator(
      parts.map((p) => {
        const it = new ArraySeriesIterator(p.ts, p.vs);
        // Some sources without nextBatch: the merge must read them through readBatch's fallback.
        return p.plain ? { next: () => it.next(), seek: (t: number) => it.seek(t), at: () => it.at(), err: () => it.err() } : it;
      }),
    );
});
