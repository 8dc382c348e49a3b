import { describe, expect, it } from 'vitest';
import { Labels } from '../../model/index.js';
import { QueryError } from '../errors.js';
import { MemoryStorage } from '../promqltest/memory-storage.js';
import { Engine, type EngineOptions } from './index.js';
import { rejection } from '../../model/testing/rejection.js';

/** 100 series `load_metric{i="0".."99"}` with a sample every 15 s over one hour. */
function fixture(): MemoryStorage {
  const storage = new MemoryStorage();
  for (let i = 0; i < 100; i++) {
    const labels = Labels.from({ __name__: 'load_metric', i: String(i) });
    for (let t = 0; t <= 3_600_000; t += 15_000) storage.add(labels, t, i + t / 1000);
  }
  return storage;
}

/** The error `p` rejects with. */
const failure = (p: Promise<unknown>): Promise<QueryError> => rejection(p, QueryError);

describe('Engine limits', () => {
  const storage = fixture();
  const engine = (opts: EngineOptions) => new Engine(opts);

  it.each([
    ['a range query over too many points', (e: Engine) => e.rangeQuery(storage, 'load_metric', 0, 3_600_000, 15_000)],
    ['a subquery with a tiny step', (e: Engine) => e.instantQuery(storage, 'count_over_time(load_metric[1h:1s])', 3_600_000)],
    ['a huge constant range', (e: Engine) => e.instantQuery(storage, 'count_over_time(vector(1)[100y:1s])', 3_600_000)],
  ])('fails %s with execution/too many samples', async (_what, run) => {
    const err = await failure(run(engine({ maxSamples: 5_000 })));
    expect(err.errorType).toBe('execution');
    expect(err.message).toMatch(/^query processing would load too many samples into memory in /);
  });

  it('fails with timeout when the clock passes the deadline', async () => {
    let now = 0;
    const e = engine({ timeoutMs: 1_000, now: () => (now += 100) });
    const err = await failure(e.rangeQuery(storage, 'sum(rate(load_metric[5m]))', 0, 3_600_000, 15_000));
    expect(err.errorType).toBe('timeout');
  });

  it('fails with canceled when the signal aborts', async () => {
    const ac = new AbortController();
    ac.abort();
    const err = await failure(engine({}).instantQuery(storage, 'load_metric', 0, { signal: ac.signal }));
    expect(err.errorType).toBe('canceled');
  });

  it('keeps serving after a failed query', async () => {
    const e = engine({ maxSamples: 5_000 });
    await failure(e.rangeQuery(storage, 'load_metric', 0, 3_600_000, 15_000));
    const ok = await e.instantQuery(storage, 'count(load_metric)', 3_600_000);
    expect(ok.value).toEqual({ type: 'vector', v: [expect.objectContaining({ f: 100 })] });
  });

  it.each([
    ['sum(', 'bad_data'],
    ['foo[5m]', 'bad_data'],
    ['"text"', 'bad_data'],
  ])('rejects %s as a range query with %s', async (q, type) => {
    const err = await failure(engine({}).rangeQuery(storage, q, 0, 60_000, 15_000));
    expect(err.errorType).toBe(type);
  });

  it('rejects a non-positive step and an end before the start', async () => {
    expect((await failure(engine({}).rangeQuery(storage, '1', 0, 60_000, 0))).message).toMatch(/zero or negative/);
    expect((await failure(engine({}).rangeQuery(storage, '1', 60_000, 0, 1000))).message).toMatch(/end timestamp/);
  });

  it('reports samples read and peak samples', async () => {
    const r = await engine({}).rangeQuery(storage, 'sum(load_metric)', 0, 600_000, 60_000);
    expect(r.stats.totalQueryableSamples).toBeGreaterThan(0);
    expect(r.stats.peakSamples).toBeGreaterThan(0);
  });
});

describe('Engine evaluation', () => {
  const storage = fixture();
  const e = new Engine({});

  it('evaluates a selector once for all steps of a range query', async () => {
    const r = await e.rangeQuery(storage, 'load_metric{i="3"}', 0, 600_000, 60_000);
    expect(r.value.type).toBe('matrix');
    if (r.value.type !== 'matrix') return;
    expect(r.value.v).toHaveLength(1);
    expect(r.value.v[0].f).toEqual([3, 63, 123, 183, 243, 303, 363, 423, 483, 543, 603]);
    expect(r.stats.totalQueryableSamples).toBe(41);
  });

  it('sorts range results by labels', async () => {
    const r = await e.rangeQuery(storage, 'topk(3, load_metric)', 0, 120_000, 60_000);
    if (r.value.type !== 'matrix') throw new Error('want a matrix');
    const names = r.value.v.map((s) => s.metric.get('i'));
    expect(names).toEqual([...names].sort());
  });

  it('gates concurrent queries without losing any', async () => {
    const gated = new Engine({ maxConcurrent: 1 });
    const results = await Promise.all([1, 2, 3].map((k) => gated.instantQuery(storage, `count(load_metric) * ${k}`, 0)));
    expect(results.map((r) => (r.value.type === 'vector' ? r.value.v[0].f : NaN))).toEqual([100, 200, 300]);
  });
});
