/**
 * OTLP/HTTP metrics ingest throughput on one core: protobuf decode (generated `@bufbuild/protobuf`
 * code) + Prometheus translation + validation + append, through `OtlpReceiver.handle`. One
 * export per instance of the fleet data set (~283 series: gauges with the data set's labels as
 * attributes, service.name/service.instance.id on the resource), cumulative temporality. Measured
 * into an `Appendable` that only counts and into a real `Db` in a temp dir.
 *
 * Env: BENCH_INSTANCES (default 300), BENCH_ROUNDS (default 5).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OtlpReceiver } from '../../src/ingest/index.js';
import type { Appendable } from '../../src/storage/index.js';
import { Db } from '../../src/tsdb/index.js';
import { encodeOtlpMetrics } from '../../src/wire/index.js';
import { BENCH_START_MS } from '../tsdb/fleet-writer.js';
import { instance, rng } from '../tsdb/fleet-dataset.js';
import { countingAppendable } from './counting-appendable.js';

const instances = Number(process.env.BENCH_INSTANCES ?? 300);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const HEADERS = { 'content-type': 'application/x-protobuf' };
const str = (key: string, value: string) => ({ key, value: { value: { case: 'stringValue' as const, value } } });

const r = rng(7);
const fleet = Array.from({ length: instances }, (_, i) => instance(i, r).series);
const bodies: Uint8Array[][] = [];
let points = 0;
for (let k = 0; k < rounds + 1; k++) {
  const round: Uint8Array[] = [];
  const timeUnixNano = BigInt(BENCH_START_MS + k * 15_000) * 1_000_000n;
  fleet.forEach((series, i) => {
    const metrics = series.map((s) => {
      const attributes: ReturnType<typeof str>[] = [];
      s.labels.forEach((n, v) => {
        if (n !== '__name__') attributes.push(str(n, v));
      });
      return { name: s.labels.metricName, data: { case: 'gauge' as const, value: { dataPoints: [{ timeUnixNano, attributes, value: { case: 'asDouble' as const, value: s.next(20, r) } }] } } };
    });
    if (k > 0) points += metrics.length;
    const resource = { attributes: [str('service.name', 'vllm'), str('service.instance.id', `pod-${i}`)] };
    round.push(encodeOtlpMetrics({ resourceMetrics: [{ resource, scopeMetrics: [{ metrics }] }] }, 'protobuf'));
  });
  bodies.push(round);
}
const bytes = bodies.slice(1).flat().reduce((n, b) => n + b.length, 0);

async function run(appendable: Appendable): Promise<number> {
  const rx = new OtlpReceiver(appendable, { clock: () => BENCH_START_MS + rounds * 15_000 });
  for (const body of bodies[0]) await rx.handle({ body, headers: HEADERS });
  const t0 = performance.now();
  for (const round of bodies.slice(1)) {
    for (const body of round) {
      const res = await rx.handle({ body, headers: HEADERS });
      if (res.status !== 200) throw new Error(`status ${res.status}: ${String(res.body)}`);
    }
  }
  return (performance.now() - t0) / 1000;
}

const countingSeconds = await run(countingAppendable());
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infersight-bench-otlp-'));
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
    bench: 'ingest.otlp',
    dataPoints: points,
    samplesPerSecCounting: Math.round(points / countingSeconds),
    samplesPerSecDb: Math.round(points / dbSeconds),
    bytesPerSampleProtobuf: Number((bytes / points).toFixed(1)),
  }),
);
