import { describe, expect, it } from 'vitest';
import { Labels, STALE_NAN, collectSamples, isStaleNaN, matcher } from '../../model/index.js';
import { collectSeries } from '../../storage/index.js';
import { runQuerierSuite } from '../../storage/testing/index.js';
import { MemoryStorage } from './memory-storage.js';

runQuerierSuite('promqltest MemoryStorage', async (data) => {
  const storage = new MemoryStorage();
  for (const s of data) for (const smp of s.samples) storage.add(s.labels, smp.tMs, smp.value);
  return { queryable: storage, close: async () => {} };
});

describe('MemoryStorage', () => {
  const up = Labels.from({ __name__: 'up', job: 'a' });

  it('keeps samples sorted and replaces a sample at an existing timestamp', () => {
    const s = new MemoryStorage();
    for (const [t, v] of [[20, 2], [0, 0], [10, 1], [10, 1.5]] as const) s.add(up, t, v);
    s.add(up, 30, STALE_NAN); // not through a number[]: V8 would canonicalize the NaN
    const [series] = collectSeries(s.querier(0, 100).select([matcher('=', '__name__', 'up')]));
    expect(series.samples.slice(0, 3)).toEqual([{ tMs: 0, value: 0 }, { tMs: 10, value: 1.5 }, { tMs: 20, value: 2 }]);
    expect(isStaleNaN(series.samples[3].value)).toBe(true);
  });

  it('grows past its initial capacity', () => {
    const s = new MemoryStorage();
    for (let i = 0; i < 100; i++) s.add(up, i * 1000, i);
    const set = s.querier(50_000, 59_000).select([]);
    expect(set.next()).toBe(true);
    expect(collectSamples(set.at().iterator()).map((x) => x.value)).toEqual([50, 51, 52, 53, 54, 55, 56, 57, 58, 59]);
  });

  it('clear removes every series', () => {
    const s = new MemoryStorage();
    s.add(up, 0, 1);
    s.clear();
    expect(s.seriesCount).toBe(0);
    expect(collectSeries(s.querier(0, 10).select([]))).toEqual([]);
  });

  it('accepts negative timestamps', () => {
    const s = new MemoryStorage();
    s.add(up, -5000, 1);
    expect(collectSeries(s.querier(-10_000, 0).select([]))[0].samples).toEqual([{ tMs: -5000, value: 1 }]);
  });
});
