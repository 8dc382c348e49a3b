/**
 * Parsing throughput of the Prometheus text exposition parser on realistic scrape bodies: the
 * fleet data set's vLLM + DCGM series (about 283 per instance, sorted labels as engines emit
 * them), formatted with our own formatter and parsed back, repeated to about 10 MB.
 *
 * Env: BENCH_INSTANCES (default 100 scrape bodies).
 */
import { formatTextExposition, parseExposition, type MetricFamily } from '../../src/wire/index.js';
import { instance, rng } from '../tsdb/fleet-dataset.js';

const instances = Number(process.env.BENCH_INSTANCES ?? 100);
const r = rng(3);
const bodies: string[] = [];
for (let i = 0; i < instances; i++) {
  const families = new Map<string, MetricFamily>();
  for (const s of instance(i, r).series) {
    const name = s.labels.metricName;
    let f = families.get(name);
    if (f === undefined) families.set(name, (f = { name, help: `${name} help`, type: 'untyped', samples: [] }));
    f.samples.push({ labels: s.labels.without('__name__'), value: s.next(20, r) });
  }
  bodies.push(formatTextExposition([...families.values()]));
}
// One untimed round lets the JIT settle; the numbers swing by a third without it.
for (const body of bodies) parseExposition(body, 'prometheus-0.0.4', () => undefined);
let samples = 0;
let bytes = 0;
const t0 = performance.now();
for (let round = 0; round < 5; round++) {
  for (const body of bodies) {
    samples += parseExposition(body, 'prometheus-0.0.4', () => undefined).samples;
    bytes += body.length;
  }
}
const seconds = (performance.now() - t0) / 1000;
console.log(JSON.stringify({ bench: 'wire.text-parse', samples, bytes, samplesPerSec: Math.round(samples / seconds), mbPerSec: Number((bytes / 1e6 / seconds).toFixed(1)) }));
