import { describe, expect, it } from 'vitest';
import { useCleanups } from '../model/testing/cleanups.js';
import { Labels, MemoryLogger, STALE_NAN, mulberry32 } from '../model/index.js';
import { Engine, ResultCache, type QueryResult } from '../promql/index.js';
import { Db } from '../tsdb/index.js';
import { tempDir } from '../tsdb/testing/temp-dir.js';

/**
 * The result cache's property: over the real TSDB, a cached range query answers exactly what the
 * engine answers uncached at the same moment, while samples arrive in order, late (a lagging
 * series), out of order, as stale markers, while blocks are cut and deleted by retention, for
 * random windows, steps, offsets (negative too) and subqueries. Seeded; the clock is injected.
 */

const SEC = 1000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;
const T0 = 1_700_000_000_000 - (1_700_000_000_000 % HOUR);
const cleanups = useCleanups();

const QUERIES = [
  'm1',
  'rate(m1[2m])',
  'sum by (instance) (rate(m1[5m]))',
  'm1 offset 5m',
  'm2 offset -3m',
  'max_over_time(m2[10m] offset -5m)',
  'avg_over_time(rate(m1[1m])[10m:1m])',
  'max_over_time(m1[5m:30s] offset -2m)',
  'm1 / on(instance) m2',
  'increase(m2[5m] offset 1m)',
  'changes(m1[10m])',
  'count(m1 > 50)',
  'absent(m1{instance="i9"})',
  'absent_over_time(m2{instance="i3"}[1m])',
  'time() - timestamp(m2)',
  'time()',
  'm1 @ end()', // bypasses the cache
  'quantile(0.9, m1)',
];
const STEPS_MS = [15 * SEC, 30 * SEC, MIN, 5 * MIN];
const SPANS_MS = [10 * MIN, 30 * MIN, HOUR, 3 * HOUR];
const SERIES = ['i0', 'i1', 'i2', 'i3'].flatMap((i) => ['m1', 'm2'].map((m) => Labels.from({ __name__: m, instance: i, job: 'j' })));

/** The parts of an answer that must agree: series with labels and points (NaN compared as text), notes as sets. */
function norm(r: QueryResult): unknown {
  if (r.value.type !== 'matrix') return r.value;
  return {
    series: r.value.v.map((s) => ({ labels: s.metric.key(), t: s.t, f: s.f.map((x) => (Number.isNaN(x) ? 'NaN' : x)) })),
    warnings: [...r.warnings].sort(),
    infos: [...r.infos].sort(),
  };
}

async function run(seed: number, ops: number): Promise<ReturnType<ResultCache['stats']>> {
  const rnd = mulberry32(seed);
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const dir = tempDir('result-cache-prop');
  cleanups.push(dir.remove);
  let wallMs = T0;
  const clock = (): number => (wallMs += 37);
  const db = await Db.open({
    dir: dir.dir,
    fsync: { mode: 'never' },
    blockRangeMs: 30 * MIN,
    retentionMs: 2 * HOUR,
    outOfOrderWindowMs: 40 * MIN,
    clock,
    random: mulberry32(seed + 1),
    logger: new MemoryLogger(),
  });
  cleanups.push(() => db.close());
  const engine = new Engine({ now: clock });
  const cache = new ResultCache({ engine, queryable: db, changes: db.changes, maxBytes: 4 * 1024 * 1024 });
  const last = new Map<string, number>();
  let headMs = T0;
  const windows = new Map<string, { startMs: number; endMs: number }>();

  const append = async (samples: [Labels, number, number][]): Promise<void> => {
    const app = db.appender();
    for (const [l, t, v] of samples) {
      try {
        app.append(0, l, t, v);
        if (t > (last.get(l.key()) ?? -Infinity)) last.set(l.key(), t);
      } catch {
        // out of bounds, too old, duplicate: the store refuses it, as it would any writer
      }
    }
    await app.commit();
    await db.compact(); // settle the cut this commit may start, so no query straddles it
  };

  for (let op = 0; op < ops; op++) {
    const r = rnd();
    if (r < 0.45) {
      // A scrape: every series but the lagging one at the head; i3 lags up to 2 min behind.
      headMs += 15 * SEC;
      const batch: [Labels, number, number][] = [];
      for (const l of SERIES) {
        const lag = l.get('instance') === 'i3' ? Math.floor(rnd() * 8) * 15 * SEC : 0;
        const t = headMs - lag;
        if (t <= (last.get(l.key()) ?? -Infinity)) continue;
        batch.push([l, t, rnd() < 0.03 ? STALE_NAN : Math.round(rnd() * 100)]);
      }
      await append(batch);
    } else if (r < 0.55) {
      // Late samples inside (or just past) the out-of-order window.
      const batch: [Labels, number, number][] = [];
      for (let k = 0; k < 1 + Math.floor(rnd() * 3); k++) batch.push([pick(SERIES), headMs - Math.floor(rnd() * 50) * MIN - 7 * SEC, Math.round(rnd() * 100)]);
      await append(batch);
    } else if (r < 0.58) {
      // A jump: the head moves on by up to an hour, so blocks are cut and retention deletes.
      headMs += Math.floor(rnd() * 60) * MIN;
      await append(SERIES.map((l): [Labels, number, number] => [l, headMs, 1]));
    } else {
      const query = pick(QUERIES);
      const stepMs = pick(STEPS_MS);
      const lookbackDeltaMs = rnd() < 0.2 ? 2 * MIN : undefined; // part of the key
      const key = `${query} ${stepMs} ${lookbackDeltaMs}`;
      const prev = windows.get(key);
      let w: { startMs: number; endMs: number };
      if (prev !== undefined && rnd() < 0.7) {
        // A dashboard refresh: the same window moved forward (or not at all).
        const moveMs = Math.floor(rnd() * 5) * 15 * SEC;
        w = { startMs: prev.startMs + moveMs, endMs: prev.endMs + moveMs };
      } else {
        const endMs = headMs - Math.floor(rnd() * 20) * SEC * 7;
        w = { startMs: endMs - pick(SPANS_MS) - Math.floor(rnd() * 3) * SEC, endMs };
      }
      windows.set(key, w);
      const cached = await cache.rangeQuery(db, query, w.startMs, w.endMs, stepMs, { lookbackDeltaMs });
      const direct = await engine.rangeQuery(db, query, w.startMs, w.endMs, stepMs, { lookbackDeltaMs });
      expect(norm(cached), `op ${op}: ${query} step ${stepMs} [${w.startMs - T0}, ${w.endMs - T0}]`).toEqual(norm(direct));
    }
  }
  return cache.stats();
}

describe('result cache over the TSDB', () => {
  it.each([1, 2, 3])('agrees with the uncached engine (seed %i)', async (seed) => {
    const s = await run(seed, 700);
    // The run must have used the cache, or it proves nothing.
    expect(s.hits + s.partialHits).toBeGreaterThan(20);
    expect(s.invalidations).toBeGreaterThan(0);
    expect(s.bypasses).toBeGreaterThan(0);
  });
});
