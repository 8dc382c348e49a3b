/**
 * The PromQL benchmarks' data: the families of the fleet data set (bench/tsdb/fleet-dataset.ts)
 * that the benchmark queries read, generated once into memory and loaded into both our `Db` and
 * Debian's Prometheus 2.42 (promtool backfill), so both engines answer over the same samples.
 *
 * Only the queried families are generated: their series follow fleet-dataset.ts's load model, but
 * skipping the other ~250 series per instance changes the random draws, so values are not the
 * TSDB benchmarks' byte for byte. The OpenMetrics text is written one 2 h block range at a time
 * and each file is backfilled on its own (promtool 2.42 re-parses its whole input once per block
 * range), two promtool processes at once.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Labels } from '../../src/model/index.js';
import { DEFAULT_BLOCK_RANGE_MS, type Db } from '../../src/tsdb/index.js';
import { instance, requestsPerScrape, rng, scrapeTimeMs } from '../tsdb/fleet-dataset.js';
import { BENCH_START_MS } from '../tsdb/fleet-writer.js';
import { OpenMetricsFile, openMetricsValue } from './prometheus-peer.js';

/** Families whose generators run (a histogram advances only when its `_count` is read). */
const GENERATED = /^(vllm:time_to_first_token_seconds_|vllm:generation_tokens_total|vllm:prompt_tokens_total|vllm:request_success_total|vllm:kv_cache_usage_perc|DCGM_FI_DEV_GPU_UTIL)/;
/** Of those, the series stored (the histogram's `_sum` and `_count` are not queried). */
const STORED = (name: string): boolean => GENERATED.test(name) && !name.endsWith('_sum') && !name.endsWith('_count');

/** The generated samples: `values[s * scrapes + k]` is series `s` at scrape `k`, taken at `ts[instanceOf[s] * scrapes + k]`. */
export interface FleetData {
  readonly instances: number;
  readonly scrapes: number;
  readonly labels: Labels[];
  readonly instanceOf: Int32Array;
  readonly values: Float64Array;
  readonly ts: Float64Array;
  readonly minTMs: number;
  readonly maxTMs: number;
}

/** Generates `scrapes` scrapes of `instances` instances from 2025-12-01T00:00:00Z. */
export function generateFleet(instances: number, scrapes: number, seed = 1): FleetData {
  const r = rng(seed);
  const fleet = Array.from({ length: instances }, (_, i) => instance(i, r));
  const run = fleet.map((f) => f.series.filter((s) => GENERATED.test(s.labels.metricName)));
  const labels: Labels[] = [];
  const instanceOf: number[] = [];
  const slot = run.map((list, i) =>
    Int32Array.from(list, (s) => (STORED(s.labels.metricName) ? (instanceOf.push(i), labels.push(s.labels) - 1) : -1)),
  );
  const values = new Float64Array(labels.length * scrapes);
  const ts = new Float64Array(instances * scrapes);
  for (let k = 0; k < scrapes; k++) {
    for (let i = 0; i < instances; i++) {
      const n = requestsPerScrape(fleet[i].rate, r);
      const list = run[i];
      const sl = slot[i];
      for (let j = 0; j < list.length; j++) {
        const v = list[j].next(n, r);
        if (sl[j] >= 0) values[sl[j] * scrapes + k] = v;
      }
      ts[i * scrapes + k] = scrapeTimeMs(BENCH_START_MS, i, k, r);
    }
  }
  let minTMs = Infinity;
  let maxTMs = -Infinity;
  for (const t of ts) {
    minTMs = Math.min(minTMs, t);
    maxTMs = Math.max(maxTMs, t);
  }
  return { instances, scrapes, labels, instanceOf: Int32Array.from(instanceOf), values, ts, minTMs, maxTMs };
}

/**
 * Appends the data to `db` scrape by scrape (one appender per instance and scrape, as a scraper
 * would); only scrapes `fromScrape` to `toScrape - 1` when given (a bench that writes the rest later).
 */
export async function loadDb(data: FleetData, db: Db, fromScrape = 0, toScrape = data.scrapes): Promise<number> {
  const t0 = performance.now();
  const { scrapes } = data;
  const byInstance = Array.from({ length: data.instances }, () => [] as number[]);
  data.instanceOf.forEach((i, s) => byInstance[i].push(s));
  const refs = new Float64Array(data.labels.length);
  for (let k = fromScrape; k < toScrape; k++) {
    for (let i = 0; i < data.instances; i++) {
      const app = db.appender();
      const t = data.ts[i * scrapes + k];
      for (const s of byInstance[i]) refs[s] = app.append(refs[s], data.labels[s], t, data.values[s * scrapes + k]);
      await app.commit();
    }
  }
  return (performance.now() - t0) / 1000;
}

/**
 * Writes one OpenMetrics file per 2 h range into `dir` and backfills each with promtool into
 * `outDir`; returns the seconds spent writing text and running promtool, and the bytes written.
 */
export async function loadPrometheus(data: FleetData, promtool: string, dir: string, outDir: string): Promise<{ writeSeconds: number; promtoolSeconds: number; openMetricsBytes: number }> {
  const { scrapes } = data;
  const heads = data.labels.map((l) => OpenMetricsFile.head(l));
  // Families together, in order of first appearance (OpenMetrics requires it).
  const order = data.labels.map((_, s) => s).sort((a, b) => familyRank(data.labels, a) - familyRank(data.labels, b) || a - b);
  let writeSeconds = 0;
  let bytes = 0;
  const running: Promise<void>[] = [];
  const t0 = performance.now();
  // Timestamps as text once per instance and scrape (every series of an instance shares them).
  const tsText = Array.from(data.ts, (t) => ` ${t / 1000}\n`);
  const first = Math.floor(data.minTMs / DEFAULT_BLOCK_RANGE_MS) * DEFAULT_BLOCK_RANGE_MS;
  for (let lo = first; lo <= data.maxTMs; lo += DEFAULT_BLOCK_RANGE_MS) {
    const hi = lo + DEFAULT_BLOCK_RANGE_MS;
    const w0 = performance.now();
    // Each instance's scrapes in [lo, hi): timestamps grow with k.
    const kRange = Array.from({ length: data.instances }, (_, i) => {
      const ts = data.ts.subarray(i * scrapes, (i + 1) * scrapes);
      let a = 0;
      while (a < scrapes && ts[a] < lo) a++;
      let b = a;
      while (b < scrapes && ts[b] < hi) b++;
      return [a, b];
    });
    const file = path.join(dir, `fleet-${lo}.om`);
    const out = new OpenMetricsFile(file);
    for (const s of order) {
      const i = data.instanceOf[s];
      const [a, b] = kRange[i];
      for (let k = a; k < b; k++) out.text(heads[s], openMetricsValue(data.values[s * scrapes + k]) + tsText[i * scrapes + k]);
    }
    out.close();
    bytes += out.bytes;
    writeSeconds += (performance.now() - w0) / 1000;
    if (running.length >= 2) await running.shift();
    running.push(promtoolAsync(promtool, file, outDir).then(() => fs.rmSync(file)));
  }
  await Promise.all(running);
  return { writeSeconds, promtoolSeconds: (performance.now() - t0) / 1000 - writeSeconds, openMetricsBytes: bytes };
}

const ranks = new WeakMap<Labels[], Map<string, number>>();

function familyRank(labels: Labels[], s: number): number {
  let m = ranks.get(labels);
  if (m === undefined) {
    m = new Map();
    for (const l of labels) if (!m.has(l.metricName)) m.set(l.metricName, m.size);
    ranks.set(labels, m);
  }
  return m.get(labels[s].metricName)!;
}

function promtoolAsync(promtool: string, file: string, outDir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(promtool, ['tsdb', 'create-blocks-from', 'openmetrics', '--quiet', file, outDir], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-2000)));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`promtool failed with ${code} on ${file}: ${err}`))));
  });
}
