/**
 * The read path: every sample of the PromQL benchmarks' fleet data (bench/promql/fleet-load.ts:
 * ~32 series per instance, 15 s scrapes, compacted into 2 h blocks plus the head) read back
 * through the `Querier`, one way per sample (`next()` + `at()`) and in batches (`readBatch` into
 * a reused `Float64Array`, as the engine's selectors read). The two are interleaved round by
 * round in one process, so load on a shared machine affects both alike; medians are reported.
 *
 * Env: BENCH_INSTANCES (default 100), BENCH_HOURS (default 6), ROUNDS (default 7).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { matcher, readBatch, type SeriesIterator } from '../../src/model/index.js';
import { Db } from '../../src/tsdb/index.js';
import { generateFleet, loadDb } from '../promql/fleet-load.js';

const instances = Number(process.env.BENCH_INSTANCES ?? 100);
const hours = Number(process.env.BENCH_HOURS ?? 6);
const rounds = Number(process.env.ROUNDS ?? 7);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infersight-bench-read-'));

/** Reads every selected sample once; returns [samples, checksum, ms]. */
function readAll(db: Db, minT: number, maxT: number, batched: boolean): [number, number, number] {
  const t = new Float64Array(1024);
  const f = new Float64Array(1024);
  const t0 = performance.now();
  const q = db.querier(minT, maxT);
  const set = q.select([matcher('=~', '__name__', '.+')]);
  let it: SeriesIterator | undefined;
  let samples = 0;
  let sum = 0;
  while (set.next()) {
    it = set.at().iterator(it);
    if (batched) {
      for (;;) {
        const k = readBatch(it, maxT, t, f, 0, 1024);
        for (let i = 0; i < k; i++) sum += t[i] - f[i];
        samples += k;
        if (k < 1024) break;
      }
    } else {
      while (it.next()) {
        const s = it.at();
        sum += s.tMs - s.value;
        samples++;
      }
    }
  }
  q.close();
  return [samples, sum, performance.now() - t0];
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];

try {
  const scrapes = Math.ceil((hours * 3_600_000) / 15_000);
  const data = generateFleet(instances, scrapes);
  const db = await Db.open({ dir: path.join(dir, 'db'), fsync: { mode: 'never' } });
  await loadDb(data, db);
  while (db.isCompactable()) await db.compact();
  const one: number[] = [];
  const batch: number[] = [];
  let samples = 0;
  const sums = new Set<number>();
  for (let r = 0; r < rounds; r++) {
    // Alternate the order, so neither side always runs on a warmer (or busier) machine.
    for (const batched of r % 2 === 0 ? [false, true] : [true, false]) {
      const [n, sum, ms] = readAll(db, data.minTMs, data.maxTMs, batched);
      sums.add(sum);
      samples = n;
      (batched ? batch : one).push((ms * 1e6) / n);
    }
  }
  await db.close();
  console.log(
    JSON.stringify({
      bench: 'tsdb.read',
      series: data.labels.length,
      samplesRead: samples,
      nextAtNsPerSample: Number(median(one).toFixed(1)),
      batchNsPerSample: Number(median(batch).toFixed(1)),
      batchSpeedup: Number((median(one) / median(batch)).toFixed(2)),
      // Both ways read the same samples (a checksum of every timestamp and value).
      sameSamples: sums.size === 1,
    }),
  );
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
