/**
 * Append throughput through the `Appender` of the embedded TSDB (WAL on, fsync every 1 s), the
 * way a scraper writes (one commit per target scrape, ~283 samples, refs cached), and head
 * memory per series once every series holds 120 samples (one full chunk). Run with --expose-gc
 * (the bench runner does) for the memory number.
 *
 * Env: BENCH_INSTANCES (default 1000 ≈ 283k series), BENCH_SCRAPES (default 120).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Db } from '../../src/tsdb/index.js';
import { writeFleet } from './fleet-writer.js';

const instances = Number(process.env.BENCH_INSTANCES ?? 1000);
const scrapes = Number(process.env.BENCH_SCRAPES ?? 120);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infersight-bench-append-'));
const gc = (globalThis as { gc?: () => void }).gc;

try {
  gc?.();
  const before = process.memoryUsage();
  const db = await Db.open({ dir, fsync: { mode: 'interval', intervalMs: 1000 }, retentionMs: 0 });
  const { samples, appendSeconds } = await writeFleet(db, { instances, scrapes });
  gc?.();
  const after = process.memoryUsage();
  const series = db.head.numSeries();
  // The generator's own state (label sets, histogram counters) is alive too; it is a few
  // hundred bytes per series, so this slightly overstates the head.
  const heapBytes = after.heapUsed + after.arrayBuffers - (before.heapUsed + before.arrayBuffers);
  const walBytes = db.stats().wal.bytesWritten;
  await db.close();
  console.log(
    JSON.stringify({
      bench: 'tsdb.append',
      series,
      samples,
      samplesPerSec: Math.round(samples / appendSeconds),
      headBytesPerSeries: gc ? Math.round(heapBytes / series) : null,
      samplesPerSeries: scrapes,
      walBytesPerSample: Number((walBytes / samples).toFixed(2)),
    }),
  );
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
