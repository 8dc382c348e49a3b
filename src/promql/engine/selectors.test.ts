import { describe, expect, it } from 'vitest';
import { ArraySeriesIterator, Labels, STALE_NAN, type SeriesIterator } from '../../model/index.js';
import type { Queryable, Querier } from '../../storage/index.js';
import { wrapIterators } from '../../storage/testing/index.js';
import { rejection } from '../../model/testing/rejection.js';
import { QueryError } from '../errors.js';
import { MemoryStorage } from '../promqltest/memory-storage.js';
import { Engine } from './index.js';

const HOUR = 3_600_000;
const NOW = 30 * 24 * HOUR;

/**
 * Wraps a storage: counts `iterator()` calls (reads of a series) and samples handed out by
 * `nextBatch`, and makes its clock the work done (`msPerSample` per sample read).
 */
class ReadCounting implements Queryable {
  reads = 0;
  samples = 0;
  constructor(
    private readonly inner: Queryable,
    private readonly msPerSample = 0,
  ) {}

  now = (): number => this.samples * this.msPerSample;

  querier(minTMs: number, maxTMs: number): Querier {
    return wrapIterators(this.inner, (it) => this.wrap(it)).querier(minTMs, maxTMs);
  }

  private wrap(it: SeriesIterator): SeriesIterator {
    this.reads++;
    if (!(it instanceof ArraySeriesIterator)) throw new Error('expected the memory storage\'s ArraySeriesIterator');
    const batch = it;
    return {
      next: () => it.next(),
      seek: (t) => it.seek(t),
      at: () => it.at(),
      err: () => it.err(),
      nextBatch: (maxT, t, f, offset, cap) => {
        const n = batch.nextBatch(maxT, t, f, offset, cap);
        this.samples += n;
        return n;
      },
    };
  }
}

/** Two series `x` with a sample every `stepMs` over the last `hours` hours, a stale marker in the middle of one. */
function storage(hours: number, stepMs: number): MemoryStorage {
  const s = new MemoryStorage();
  for (const job of ['a', 'b']) {
    const labels = Labels.from({ __name__: 'x', job });
    for (let t = NOW - hours * HOUR, i = 0; t <= NOW; t += stepMs, i++) s.add(labels, t, job === 'b' && t === NOW - HOUR ? STALE_NAN : i);
  }
  return s;
}

describe('selectors read each series once per selector', () => {
  const data = storage(3, 15_000);
  it.each([
    ['an instant selector over many steps', 'x', 2],
    ['a range function over many steps', 'rate(x[5m])', 2],
    ['a subquery', 'max_over_time(rate(x[1m])[30m:1m])', 2],
    // Identical selectors in one query are read once each (not shared).
    ['the same selector twice', 'x + x', 4],
  ])('%s', async (_what, query, reads) => {
    const counting = new ReadCounting(data);
    const res = await new Engine().rangeQuery(counting, query, NOW - 2 * HOUR, NOW, 15_000);
    expect(res.value.type === 'matrix' && res.value.v.length).toBeGreaterThan(0);
    expect(counting.reads).toBe(reads);
  });

  it('a stale marker read in a batch hides the series at its step only', async () => {
    const res = await new Engine().rangeQuery(data, 'x{job="b"}', NOW - HOUR - 60_000, NOW - HOUR + 60_000, 15_000);
    const ts = res.value.type === 'matrix' ? res.value.v.flatMap((s) => s.t) : [];
    expect(ts).toEqual([-60_000, -45_000, -30_000, -15_000, 15_000, 30_000, 45_000, 60_000].map((d) => NOW - HOUR + d));
  });
});

describe('batch reads keep the deadline per sample read', () => {
  it('fails with timeout within a few batches of the deadline inside one long series', async () => {
    // 2 s of budget at 0.1 ms per sample: the deadline passes after 20,000 samples of 2 × 360,001.
    const counting = new ReadCounting(storage(100, 1000), 0.1);
    const err = await rejection(new Engine({ now: counting.now }).instantQuery(counting, 'sum_over_time(x[100y])', NOW, { timeoutMs: 2_000 }), QueryError);
    expect(err.errorType).toBe('timeout');
    expect(counting.samples).toBeLessThan(20_000 + 4 * 1024);
  });
});
