import { describe, expect, it } from 'vitest';
import { Labels, type SeriesIterator } from '../../model/index.js';
import type { Queryable, Querier } from '../../storage/index.js';
import { wrapIterators } from '../../storage/testing/index.js';
import { QueryError } from '../errors.js';
import { MemoryStorage } from '../promqltest/memory-storage.js';
import { Engine } from './index.js';
import { rejection } from '../../model/testing/rejection.js';

const HOUR = 3_600_000;
const NOW = 30 * 24 * HOUR;

/**
 * Storage whose clock is its own work: every sample read advances `now` by `msPerSample`, so a
 * test can say "the deadline passed after N samples" without any real time passing.
 */
class CountingStorage implements Queryable {
  samplesRead = 0;
  constructor(
    private readonly inner: Queryable,
    private readonly msPerSample: number,
  ) {}

  now = (): number => this.samplesRead * this.msPerSample;

  querier(minTMs: number, maxTMs: number): Querier {
    const count = (): void => {
      this.samplesRead++;
    };
    return wrapIterators(this.inner, (it) => countingIterator(it, count)).querier(minTMs, maxTMs);
  }
}

function countingIterator(it: SeriesIterator, count: () => void): SeriesIterator {
  return {
    next: () => it.next(),
    seek: (t) => it.seek(t),
    err: () => it.err(),
    at: () => {
      count();
      return it.at();
    },
  };
}

/** One series `x` with a sample every second over the last `hours` hours before NOW. */
function denseSeries(hours: number): MemoryStorage {
  const storage = new MemoryStorage();
  const labels = Labels.from({ __name__: 'x', job: 'j' });
  for (let t = NOW - hours * HOUR; t <= NOW; t += 1000) storage.add(labels, t, 1);
  return storage;
}

/** The error `p` rejects with. */
const failure = (p: Promise<unknown>): Promise<QueryError> => rejection(p, QueryError);

/** Lets `n` turns of the event loop pass (each a `setImmediate`), without waiting for time. */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('a query stops at its deadline while it evaluates', () => {
  const dense = denseSeries(100); // 360,001 samples in one series

  it.each([
    ['the 100y:1s subquery of finding 2', 'count_over_time(x[100y:1s])'],
    ['a range function over a dense series', 'sum_over_time(x[100y])'],
    ['an instant range selector', 'x[100y]'],
  ])('%s fails with timeout a few thousand samples past the deadline', async (_what, query) => {
    // 2 s of budget at 0.1 ms per sample: the deadline passes after 20,000 of 360,001 samples.
    const storage = new CountingStorage(dense, 0.1);
    const engine = new Engine({ now: storage.now });
    const err = await failure(engine.instantQuery(storage, query, NOW, { timeoutMs: 2_000 }));
    expect(err.errorType).toBe('timeout');
    expect(storage.samplesRead).toBeLessThan(20_000 + 4 * 1024);
  });
});

describe('a query shares the event loop', () => {
  const dense = denseSeries(24);

  it('lets a callback queued before it run while it evaluates', async () => {
    let tick = 0;
    const engine = new Engine({ now: () => tick++, yieldEveryMs: 10 }); // every 10 clock reads
    let settled = false;
    const p = engine.rangeQuery(dense, 'sum_over_time(x[1h])', NOW - 24 * HOUR, NOW, 60_000).finally(() => {
      settled = true;
    });
    let settledWhenOthersRan: boolean | null = null;
    setImmediate(() => {
      settledWhenOthersRan = settled;
    });
    await p;
    await turns(1);
    expect(settledWhenOthersRan).toBe(false);
  });

  it('stops evaluating once its signal aborts (the client went away)', async () => {
    const storage = new CountingStorage(dense, 0.001);
    const engine = new Engine({ now: storage.now, yieldEveryMs: 1 });
    const ac = new AbortController();
    const p = engine.rangeQuery(storage, 'sum_over_time(x[1h])', NOW - 24 * HOUR, NOW, 60_000, { signal: ac.signal });
    await turns(2);
    const readWhenAborted = storage.samplesRead;
    expect(readWhenAborted).toBeGreaterThan(0);
    ac.abort();
    const err = await failure(p);
    expect(err.errorType).toBe('canceled');
    const readWhenFailed = storage.samplesRead;
    await turns(5);
    expect(storage.samplesRead).toBe(readWhenFailed);
    expect(readWhenFailed).toBeLessThan(86_401);
  });
});
