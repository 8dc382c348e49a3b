/**
 * Remote write 1.0 ingest throughput on one core: snappy + protobuf decode + validation +
 * append, through `RemoteWriteReceiver.handle`, the way Prometheus sends (batches of 2000 series
 * with one sample each; fleet data set labels, ~283 series per instance). Measured twice: into
 * an `Appendable` that only counts (the receiver alone) and into a real `Db` in a temp dir (WAL
 * on, fsync every 1 s). Bodies are encoded before the clock starts.
 *
 * Env: BENCH_INSTANCES (default 300 ≈ 85k series), BENCH_ROUNDS (default 10).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RemoteWriteReceiver } from '../../src/ingest/index.js';
import type { Appendable } from '../../src/storage/index.js';
import { Db } from '../../src/tsdb/index.js';
import { encodeRemoteWriteV1, snappyEncode, type RemoteWriteV1Series } from '../../src/wire/index.js';
import { BENCH_START_MS } from '../tsdb/fleet-writer.js';
import { instance, rng } from '../tsdb/fleet-dataset.js';
import { countingAppendable } from './counting-appendable.js';

const instances = Number(process.env.BENCH_INSTANCES ?? 300);
const rounds = Number(process.env.BENCH_ROUNDS ?? 10);
const BATCH = 2000;
const HEADERS = { 'content-type': 'application/x-protobuf', 'content-encoding': 'snappy', 'x-prometheus-remote-write-version': '0.1.0' };

const r = rng(5);
const series = Array.from({ length: instances }, (_, i) => instance(i, r).series).flat();
const labels = series.map((s) => s.labels.flat().reduce<[string, string][]>((acc, x, i, a) => (i % 2 === 0 ? [...acc, [x, a[i + 1]]] : acc), []));
const bodies: Uint8Array[][] = [];
let rawBytes = 0;
for (let k = 0; k < rounds + 1; k++) {
  const round: Uint8Array[] = [];
  for (let from = 0; from < series.length; from += BATCH) {
    const batch: RemoteWriteV1Series[] = [];
    for (let j = from; j < Math.min(from + BATCH, series.length); j++) batch.push({ labels: labels[j], samples: [{ tMs: BENCH_START_MS + k * 15_000, value: series[j].next(20, r) }] });
    const raw = encodeRemoteWriteV1(batch);
    if (k > 0) rawBytes += raw.length;
    round.push(snappyEncode(raw));
  }
  bodies.push(round);
}
const compressedBytes = bodies.slice(1).flat().reduce((n, b) => n + b.length, 0);

async function run(appendable: Appendable): Promise<number> {
  const rx = new RemoteWriteReceiver(appendable, { clock: () => BENCH_START_MS + rounds * 15_000 });
  // Round 0 warms up the JIT and fills the receiver's series cache, as a running server has.
  for (const body of bodies[0]) await rx.handle({ body, headers: HEADERS });
  const t0 = performance.now();
  for (const round of bodies.slice(1)) {
    for (const body of round) {
      const res = await rx.handle({ body, headers: HEADERS });
      if (res.status !== 204) throw new Error(`status ${res.status}: ${String(res.body)}`);
    }
  }
  return (performance.now() - t0) / 1000;
}

const samples = series.length * rounds;
const countingSeconds = await run(countingAppendable());
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infersight-bench-rw-'));
let dbSeconds: number;
try {
  const db = await Db.open({ dir, fsync: { mode: 'interval', intervalMs: 1000 }, retentionMs: 0 });
  dbSeconds = await run(db);
  await db.close();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
console.log(
  JSON.stringify({
    bench: 'ingest.remote-write',
    series: series.length,
    samples,
    samplesPerSecCounting: Math.round(samples / countingSeconds),
    samplesPerSecDb: Math.round(samples / dbSeconds),
    bytesPerSampleRaw: Number((rawBytes / samples).toFixed(1)),
    bytesPerSampleSnappy: Number((compressedBytes / samples).toFixed(1)),
  }),
);
