/**
 * Label string decoding on one core, the part of ingest that UTF-8 validation touches: every
 * label of every series of remote write 1.0 bodies (`decodeRemoteWriteV1` + `labels(i)`, what a
 * receiver pays on a series-cache miss), of remote write 2.0 bodies (`decodeRemoteWriteV2`,
 * which decodes its symbol table on every request), and of OTLP protobuf exports
 * (`decodeOtlpMetrics`, attribute keys and values interned per request). Fleet data set labels,
 * ~283 series per instance. Bodies are encoded before the clock starts.
 *
 * Env: BENCH_INSTANCES (default 300), BENCH_ROUNDS (default 5).
 */
import { decodeOtlpMetrics, decodeRemoteWriteV1, decodeRemoteWriteV2, encodeOtlpMetrics, encodeRemoteWriteV1, encodeRemoteWriteV2 } from '../../src/wire/index.js';
import { BENCH_START_MS } from '../tsdb/fleet-writer.js';
import { instance, rng } from '../tsdb/fleet-dataset.js';

const instances = Number(process.env.BENCH_INSTANCES ?? 300);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const BATCH = 2000;

const r = rng(5);
const series = Array.from({ length: instances }, (_, i) => instance(i, r).series).flat();
const pairs = series.map((s) => {
  const out: [string, string][] = [];
  s.labels.forEach((n, v) => out.push([n, v]));
  return out;
});
const v1: Uint8Array[] = [];
const v2: Uint8Array[] = [];
for (let from = 0; from < series.length; from += BATCH) {
  const batch = pairs.slice(from, from + BATCH).map((labels) => ({ labels, samples: [{ tMs: BENCH_START_MS, value: 1 }] }));
  v1.push(encodeRemoteWriteV1(batch));
  v2.push(encodeRemoteWriteV2(batch));
}
const str = (key: string, value: string) => ({ key, value: { value: { case: 'stringValue' as const, value } } });
const otlp: Uint8Array[] = [];
for (let i = 0; i < instances; i++) {
  const metrics = pairs.slice(i * 283, (i + 1) * 283).map((labels) => ({
    name: labels.find(([n]) => n === '__name__')?.[1] ?? 'x',
    data: { case: 'gauge' as const, value: { dataPoints: [{ timeUnixNano: 1n, attributes: labels.filter(([n]) => n !== '__name__').map(([n, v]) => str(n, v)), value: { case: 'asDouble' as const, value: 1 } }] } },
  }));
  otlp.push(encodeOtlpMetrics({ resourceMetrics: [{ resource: { attributes: [str('service.name', 'vllm')] }, scopeMetrics: [{ metrics }] }] }, 'protobuf'));
}

function time(fn: () => void): number {
  fn(); // warm-up
  const t0 = performance.now();
  for (let k = 0; k < rounds; k++) fn();
  return (performance.now() - t0) / 1000;
}

let sink = 0;
const v1Seconds = time(() => {
  for (const body of v1) {
    const b = decodeRemoteWriteV1(body);
    for (let i = 0; i < b.seriesCount; i++) sink += b.labels(i).length;
  }
});
const v2Seconds = time(() => {
  for (const body of v2) sink += decodeRemoteWriteV2(body).series.length;
});
const otlpSeconds = time(() => {
  for (const body of otlp) sink += decodeOtlpMetrics(body, 'protobuf').resourceMetrics.length;
});
const n = series.length * rounds;
console.log(JSON.stringify({
  bench: 'wire.label-decode',
  series: series.length,
  sink,
  v1SeriesPerSec: Math.round(n / v1Seconds),
  v2SeriesPerSec: Math.round(n / v2Seconds),
  otlpPointsPerSec: Math.round(n / otlpSeconds),
}));
