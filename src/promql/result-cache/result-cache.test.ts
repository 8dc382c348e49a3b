import { describe, expect, it } from 'vitest';
import { Labels } from '../../model/index.js';
import { MemoryStorage } from '../../storage/testing/index.js';
import { Engine } from '../engine/engine.js';
import type { QueryResult } from '../engine/types.js';
import { ResultCache } from './result-cache.js';
import type { ChangeFeed, ChangeFeedChanges } from './types.js';

const MIN = 60_000;

/** A change feed the test drives: every `commit` is one event with its least sample time. */
class ManualFeed implements ChangeFeed {
  private readonly events: number[] = [];
  /** Set to report a head cut after every mark. */
  cut = false;
  seq(): number {
    return this.events.length;
  }
  since(seq: number): ChangeFeedChanges {
    return { minTMs: Math.min(Infinity, ...this.events.slice(seq)), deletedBeforeMs: -Infinity, headCut: this.cut };
  }
  note(minTMs: number): void {
    this.events.push(minTMs);
  }
}

/** What must agree: labels, points, notes (stats differ by design: only the new work counts). */
function norm(r: QueryResult): unknown {
  return { v: r.value.type === 'matrix' ? r.value.v.map((s) => [s.metric.key(), s.t, s.f]) : r.value, warnings: r.warnings, infos: r.infos };
}

async function setup(maxSamples?: number) {
  const storage = new MemoryStorage();
  const feed = new ManualFeed();
  const engine = new Engine({ maxSamples });
  const cache = new ResultCache({ engine, queryable: storage, changes: feed });
  const write = async (name: string, fromMs: number, toMs: number): Promise<void> => {
    const app = storage.appender();
    for (let t = fromMs; t <= toMs; t += 15_000) app.append(0, Labels.from({ __name__: name, i: name }), t, t / 1000);
    await app.commit();
    feed.note(fromMs);
  };
  /** Runs the query cached and directly; they must agree. */
  const check = async (q: string, startMs: number, endMs: number): Promise<QueryResult> => {
    const cached = await cache.rangeQuery(storage, q, startMs, endMs, 15_000);
    const direct = await engine.rangeQuery(storage, q, startMs, endMs, 15_000);
    expect(norm(cached)).toEqual(norm(direct));
    return cached;
  };
  return { storage, cache, engine, feed, write, check };
}

describe('ResultCache', () => {
  it('answers a refresh from the cache plus the new steps', async () => {
    const { cache, write, check } = await setup();
    await write('up_total', 0, 60 * MIN);
    await check('rate(up_total[1m])', 30 * MIN, 60 * MIN);
    await write('up_total', 60 * MIN + 15_000, 61 * MIN);
    await check('rate(up_total[1m])', 31 * MIN, 61 * MIN);
    await check('rate(up_total[1m])', 31 * MIN, 61 * MIN);
    expect(cache.stats()).toMatchObject({ misses: 1, partialHits: 1, hits: 1, entries: 1 });
  });

  it('recomputes in full when the reused steps might carry notes the new steps do not raise', async () => {
    const { cache, write, check } = await setup();
    // A gauge (no _total: rate() adds an info) that stops at 20 min, and a counter that goes on.
    await write('gauge', 0, 20 * MIN);
    await write('up_total', 0, 60 * MIN);
    const q = 'rate({__name__=~"gauge|up_total"}[1m])';
    expect((await check(q, 0, 60 * MIN)).infos).toHaveLength(1);
    // Reused steps that hold the gauge, new steps that do not: the info must stay.
    await write('up_total', 60 * MIN + 15_000, 61 * MIN);
    expect((await check(q, 10 * MIN, 61 * MIN)).infos).toHaveLength(1);
    // Inside the entry, past the gauge: a full hit would wrongly repeat the info.
    expect((await check(q, 40 * MIN, 61 * MIN)).infos).toHaveLength(0);
    await write('up_total', 61 * MIN + 15_000, 62 * MIN);
    expect((await check(q, 42 * MIN, 62 * MIN)).infos).toHaveLength(0);
    expect(cache.stats()).toMatchObject({ hits: 0 });
  });

  it('keeps no answer computed across a head cut (a read may have missed samples)', async () => {
    const { cache, feed, write, check } = await setup();
    await write('up_total', 0, 10 * MIN);
    feed.cut = true;
    await check('up_total', 0, 10 * MIN);
    expect(cache.stats().entries).toBe(0);
    feed.cut = false;
    await check('up_total', 0, 10 * MIN);
    await check('up_total', 0, 10 * MIN);
    expect(cache.stats()).toMatchObject({ misses: 2, hits: 1, entries: 1 });
  });

  it('leaves the sample limit to the engine', async () => {
    const { cache, engine, storage, write } = await setup(100);
    await write('up_total', 0, 10 * MIN);
    const small = await cache.rangeQuery(storage, 'up_total', 0, 10 * MIN, 15_000);
    expect(small.value.type).toBe('matrix');
    await write('up_total', 10 * MIN + 15_000, 40 * MIN);
    const err = await engine.rangeQuery(storage, 'up_total', 0, 40 * MIN, 15_000).catch((e: unknown) => e);
    await expect(cache.rangeQuery(storage, 'up_total', 0, 40 * MIN, 15_000)).rejects.toEqual(err);
  });

  it.each([
    ['another storage', async (s: Awaited<ReturnType<typeof setup>>) => s.cache.rangeQuery(new MemoryStorage(), 'up_total', 0, MIN, 15_000)],
    ['noCache', async (s: Awaited<ReturnType<typeof setup>>) => s.cache.rangeQuery(s.storage, 'up_total', 0, MIN, 15_000, { noCache: true })],
    ['@', async (s: Awaited<ReturnType<typeof setup>>) => s.cache.rangeQuery(s.storage, 'up_total @ 60', 0, MIN, 15_000)],
  ])('bypasses for %s', async (_name, run) => {
    const s = await setup();
    await s.write('up_total', 0, MIN);
    await s.cache.rangeQuery(s.storage, 'up_total', 0, MIN, 15_000);
    await run(s);
    expect(s.cache.stats()).toMatchObject({ bypasses: 1, hits: 0 });
  });
});
