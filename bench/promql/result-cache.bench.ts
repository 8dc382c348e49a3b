/**
 * A dashboard refresh with and without the range-result cache (src/promql/result-cache): the same
 * 1 h range query (step 15 s) moved 15 s forward after each new scrape of the fleet, answered by
 * the engine alone and by `ResultCache` over the same `Db` (docs/benchmarks.md).
 *
 * Data: the fleet of fleet-load.ts, 1 h 40 min of 15 s scrapes written scrape by scrape, then
 * BENCH_REFRESHES more scrapes, one before each refresh. For each query: one cached query fills
 * the cache (a miss), then at every refresh the uncached engine and the cache answer the moved
 * window; their answers are compared (`sameAnswers`) and their wall times (`measure.ts`) reported
 * as medians over the refreshes. `speedup` is uncached / cached. `oneStepMs` is the engine alone on
 * the newest step only: the floor of what a refresh that adds one step can cost.
 *
 * Env: BENCH_INSTANCES (default 100), BENCH_REFRESHES (default 8).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Engine, ResultCache, type QueryResult } from '../../src/promql/index.js';
import { Db } from '../../src/tsdb/index.js';
import { generateFleet, loadDb } from './fleet-load.js';
import { measure, median } from './measure.js';

/** Dashboard panels over the fleet (the data set's model label is `model_name`). */
const QUERIES: Record<string, string> = {
  ttftP99ByModel: 'histogram_quantile(0.99, sum by (le, model_name) (rate(vllm:time_to_first_token_seconds_bucket[5m])))',
  topkRequestRateByInstance: 'topk(10, sum by (instance) (rate(vllm:request_success_total[5m])))',
  kvCacheAvgByAz: 'avg by (az) (vllm:kv_cache_usage_perc)',
  generationTokensByModelEngine: 'sum by (model_name, engine) (rate(vllm:generation_tokens_total[1m]))',
  subqueryMaxRate: 'max_over_time(rate(vllm:generation_tokens_total[1m])[30m:1m])',
};

const instances = Number(process.env.BENCH_INSTANCES ?? 100);
const refreshes = Number(process.env.BENCH_REFRESHES ?? 8);
const STEP_MS = 15_000;
const WINDOW_MS = 3_600_000;
const round = (x: number, digits = 1): number => Number(x.toFixed(digits));

/** Labels, points and notes: what a cached answer must share with the uncached one. */
function fingerprint(r: QueryResult): string {
  if (r.value.type !== 'matrix') return JSON.stringify(r.value);
  return JSON.stringify([r.value.v.map((s) => [s.metric.key(), s.t, s.f.map(String)]), [...r.warnings].sort(), [...r.infos].sort()]);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infersight-bench-result-cache-'));
try {
  const scrapes = Math.ceil((100 * 60_000) / STEP_MS) + refreshes;
  const data = generateFleet(instances, scrapes);
  const db = await Db.open({ dir: path.join(dir, 'db'), fsync: { mode: 'never' } });
  const loaded = scrapes - refreshes;
  await loadDb(data, db, 0, loaded);
  while (db.isCompactable()) await db.compact();
  const engine = new Engine({ maxSamples: 2_000_000_000, timeoutMs: 1_800_000 });
  const cache = new ResultCache({ engine, queryable: db, changes: db.changes });
  // The last step at or before the newest sample of scrape k - 1.
  const endAfter = (k: number): number => Math.floor(Math.max(...Array.from({ length: instances }, (_, i) => data.ts[i * scrapes + k - 1])) / STEP_MS) * STEP_MS;
  const rows: Record<string, unknown>[] = [];
  const names = Object.keys(QUERIES);
  const firstEnd = endAfter(loaded);
  for (const name of names) await cache.rangeQuery(db, QUERIES[name], firstEnd - WINDOW_MS, firstEnd, STEP_MS);
  const uncachedMs: Record<string, number[]> = {};
  const cachedMs: Record<string, number[]> = {};
  const oneStepMs: Record<string, number[]> = {};
  const same: Record<string, boolean> = {};
  for (let k = loaded; k < scrapes; k++) {
    await loadDb(data, db, k, k + 1);
    const endMs = endAfter(k + 1);
    for (const name of names) {
      const q = QUERIES[name];
      const u = await measure(() => engine.rangeQuery(db, q, endMs - WINDOW_MS, endMs, STEP_MS));
      const c = await measure(() => cache.rangeQuery(db, q, endMs - WINDOW_MS, endMs, STEP_MS));
      const one = await measure(() => engine.rangeQuery(db, q, endMs, endMs, STEP_MS));
      (oneStepMs[name] ??= []).push(one.ms);
      (uncachedMs[name] ??= []).push(u.ms);
      (cachedMs[name] ??= []).push(c.ms);
      same[name] = (same[name] ?? true) && fingerprint(u.value) === fingerprint(c.value);
    }
  }
  const speedups: number[] = [];
  for (const name of names) {
    const u = median(uncachedMs[name]);
    const c = median(cachedMs[name]);
    speedups.push(u / c);
    rows.push({ query: name, uncachedMedianMs: round(u), cachedMedianMs: round(c), oneStepMedianMs: round(median(oneStepMs[name])), speedup: round(u / c), sameAnswers: same[name] });
  }
  const s = cache.stats();
  console.log(
    JSON.stringify({
      bench: 'promql.result-cache',
      instances,
      series: data.labels.length,
      windowHours: 1,
      stepSeconds: STEP_MS / 1000,
      refreshes,
      geomeanSpeedup: round(Math.exp(speedups.reduce((a, x) => a + Math.log(x), 0) / speedups.length), 2),
      queries: rows,
      cache: { bytes: s.bytes, entries: s.entries, hits: s.hits, partialHits: s.partialHits, misses: s.misses, invalidations: s.invalidations },
    }),
  );
  await db.close();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
