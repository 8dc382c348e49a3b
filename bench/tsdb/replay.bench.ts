/**
 * Restart time: opens a data directory whose head holds 2 h of the fleet data set (300k series
 * by default) and reports how long `Db.open` takes to replay the WAL (checkpoint + segments).
 *
 * Env: BENCH_INSTANCES (default 1060 ≈ 300k series), BENCH_SCRAPES (default 480 = 2 h at 15 s).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Db } from '../../src/tsdb/index.js';
import { dirBytes } from './dir-size.js';
import { writeFleet } from './fleet-writer.js';

const instances = Number(process.env.BENCH_INSTANCES ?? 1060);
const scrapes = Number(process.env.BENCH_SCRAPES ?? 480);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infersight-bench-replay-'));


try {
  const db = await Db.open({ dir, fsync: { mode: 'never' }, retentionMs: 0 });
  const { samples, series } = await writeFleet(db, { instances, scrapes });
  // A crash, not a graceful stop: leave the WAL as the last commit left it.
  await db.close();
  const walBytes = dirBytes(path.join(dir, 'wal'));
  const t0 = performance.now();
  const reopened = await Db.open({ dir, fsync: { mode: 'never' }, retentionMs: 0 });
  const replaySeconds = (performance.now() - t0) / 1000;
  const replayed = reopened.head.numSeries();
  await reopened.close();
  console.log(
    JSON.stringify({
      bench: 'tsdb.replay',
      series,
      seriesReplayed: replayed,
      samples,
      walBytes,
      replaySeconds: Number(replaySeconds.toFixed(2)),
      samplesPerSec: Math.round(samples / replaySeconds),
    }),
  );
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
