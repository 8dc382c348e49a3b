/**
 * The anchor of disk.bench.ts: bytes per sample of the same data set stored by Prometheus' own
 * TSDB ("≤ 1.3 bytes per sample on disk; Prometheus' TSDB is the anchor").
 *
 * Regenerates exactly the samples disk.bench.ts writes (same seed, instances, scrapes, timestamps
 * and values: fleet-dataset.ts called in fleet-writer.ts's order), streams them to a temporary
 * OpenMetrics file (family by family, series by series, samples in time order, as OpenMetrics
 * requires), and runs `promtool tsdb create-blocks-from openmetrics`, which cuts 2 h blocks.
 * Backfill puts all 6 h into blocks, while our Db keeps the newest ~1.5 ranges in the head, so the
 * headline numbers cover only the Prometheus blocks of the ranges our Db cuts (computed here the
 * way `Db.compact` cuts: the oldest range while the head spans more than 1.5 ranges); the all-
 * block figure is reported beside them. Sizes are every file under a block directory (index,
 * chunks/, meta.json, tombstones); samples are the sum of meta.json `stats.numSamples`.
 *
 * Needs `promtool` on PATH (Debian: `apt-get install prometheus`); without it the bench prints a
 * `skipped` line, or fails when CI=true. Timestamps are written as float seconds; promtool reads
 * them back to the exact milliseconds, and the sample count is checked against what was written.
 *
 * Env: BENCH_INSTANCES (default 100 ≈ 28k series), BENCH_SCRAPES (default 1440 = 6 h at 15 s),
 * BENCH_VALUE_MB (default 1024: values held in memory at once; more series take several passes).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_BLOCK_RANGE_MS } from '../../src/tsdb/index.js';
import { dirBytes } from './dir-size.js';
import { instance, requestsPerScrape, rng, scrapeTimeMs, type DatasetInstance } from './fleet-dataset.js';
import { BENCH_START_MS } from './fleet-writer.js';

const instances = Number(process.env.BENCH_INSTANCES ?? 100);
const scrapes = Number(process.env.BENCH_SCRAPES ?? 1440);
const valueBytes = Number(process.env.BENCH_VALUE_MB ?? 1024) * 1024 * 1024;
const SEED = 1; // writeFleet's default
const RANGE_MS = DEFAULT_BLOCK_RANGE_MS;


/** `name{a="x",...}` with OpenMetrics escaping of label values. */
function seriesText(d: DatasetInstance, j: number): string {
  const l = d.series[j].labels;
  const parts: string[] = [];
  l.forEach((n, v) => {
    if (n !== '__name__') parts.push(`${n}="${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`);
  });
  return `${l.metricName}{${parts.join(',')}}`;
}

/**
 * Runs the generator as writeFleet does; stores the values of the series `slot` selects
 * (`slot[i][j]` ≥ 0) into `values[slot * scrapes + k]`, and every timestamp into `ts`.
 */
function generate(slot: Int32Array[], values: Float64Array, ts: Float64Array): void {
  const r = rng(SEED);
  const fleet = Array.from({ length: instances }, (_, i) => instance(i, r));
  for (let k = 0; k < scrapes; k++) {
    for (let i = 0; i < instances; i++) {
      const f = fleet[i];
      const n = requestsPerScrape(f.rate, r);
      const s = slot[i];
      for (let j = 0; j < f.series.length; j++) {
        const v = f.series[j].next(n, r);
        if (s[j] >= 0) values[s[j] * scrapes + k] = v;
      }
      ts[i * scrapes + k] = scrapeTimeMs(BENCH_START_MS, i, k, r);
    }
  }
}

/** The start of every range `Db.compact` cuts into a block, given all sample timestamps. */
function dbBlockStarts(times: Float64Array): Set<number> {
  const t = Float64Array.from(times).sort();
  const starts = new Set<number>();
  for (let lo = 0; lo < t.length && t[t.length - 1] - t[lo] > 1.5 * RANGE_MS; ) {
    const start = Math.floor(t[lo] / RANGE_MS) * RANGE_MS;
    starts.add(start);
    while (lo < t.length && t[lo] < start + RANGE_MS) lo++;
  }
  return starts;
}

const promtool = spawnSync('promtool', ['--version'], { stdio: 'ignore' });
if (promtool.error !== undefined) {
  if (process.env.CI === 'true') throw new Error(`promtool not installed: ${promtool.error.message}`);
  console.log(JSON.stringify({ bench: 'tsdb.prometheus-disk', skipped: 'promtool not installed' }));
  process.exit(0);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infersight-bench-prometheus-disk-'));
try {
  const t0 = performance.now();
  // Output order: metric names (each an untyped OpenMetrics family) in order of first
  // appearance, then instance, then series within the instance.
  const fleet = ((r) => Array.from({ length: instances }, (_, i) => instance(i, r)))(rng(SEED));
  const families = new Map<string, [number, number][]>();
  fleet.forEach((f, i) =>
    f.series.forEach((s, j) => {
      const name = s.labels.metricName;
      const list = families.get(name) ?? [];
      if (list.length === 0) families.set(name, list);
      list.push([i, j]);
    }),
  );
  const order = [...families.values()].flat();
  const perPass = Math.max(1, Math.floor(valueBytes / (8 * scrapes)));
  const file = path.join(dir, 'fleet.om');
  const fd = fs.openSync(file, 'w');
  const ts = new Float64Array(instances * scrapes);
  let written = 0;
  for (let from = 0; from < order.length; from += perPass) {
    const pass = order.slice(from, from + perPass);
    const slot = fleet.map((f) => new Int32Array(f.series.length).fill(-1));
    pass.forEach(([i, j], s) => (slot[i][j] = s));
    const values = new Float64Array(pass.length * scrapes);
    generate(slot, values, ts);
    let buf = '';
    pass.forEach(([i, j], s) => {
      const head = seriesText(fleet[i], j);
      for (let k = 0; k < scrapes; k++) {
        buf += `${head} ${values[s * scrapes + k]} ${ts[i * scrapes + k] / 1000}\n`;
        if (buf.length > 1 << 20) buf = (fs.writeSync(fd, buf), '');
      }
      written += scrapes;
    });
    fs.writeSync(fd, buf + (from + perPass >= order.length ? '# EOF\n' : ''));
  }
  fs.closeSync(fd);
  const fileBytes = fs.statSync(file).size;
  const generateSeconds = (performance.now() - t0) / 1000;

  const t1 = performance.now();
  const out = path.join(dir, 'blocks');
  const res = spawnSync('promtool', ['tsdb', 'create-blocks-from', 'openmetrics', '--quiet', file, out], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (res.status !== 0) throw new Error(`promtool tsdb create-blocks-from failed: status ${res.status}, signal ${res.signal}`);
  const promtoolSeconds = (performance.now() - t1) / 1000;
  fs.rmSync(file);

  const starts = dbBlockStarts(ts);
  const blocks = fs
    .readdirSync(out, { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(out, e.name, 'meta.json')))
    .map((e) => {
      const b = path.join(out, e.name);
      const meta = JSON.parse(fs.readFileSync(path.join(b, 'meta.json'), 'utf8')) as { minTime: number; stats: { numSamples: number } };
      const start = Math.floor(meta.minTime / RANGE_MS) * RANGE_MS;
      const chunkBytes = dirBytes(path.join(b, 'chunks'));
      const indexBytes = fs.statSync(path.join(b, 'index')).size;
      return { start, samples: meta.stats.numSamples, bytes: dirBytes(b), chunkBytes, indexBytes, matched: starts.has(start) };
    })
    .sort((a, b) => a.start - b.start);
  const sum = (bs: typeof blocks, f: (b: (typeof blocks)[number]) => number): number => bs.reduce((n, b) => n + f(b), 0);
  const allSamples = sum(blocks, (b) => b.samples);
  if (allSamples !== written) throw new Error(`promtool stored ${allSamples} samples, ${written} were written`);
  const matched = blocks.filter((b) => b.matched);
  const samples = sum(matched, (b) => b.samples);
  const perSample = (bytes: number, n: number): number => Number((bytes / n).toFixed(3));
  console.log(
    JSON.stringify({
      bench: 'tsdb.prometheus-disk',
      series: order.length,
      samples,
      bytesPerSample: perSample(sum(matched, (b) => b.bytes), samples),
      chunkBytesPerSample: perSample(sum(matched, (b) => b.chunkBytes), samples),
      indexBytesPerSample: perSample(sum(matched, (b) => b.indexBytes), samples),
      blocks: matched.length,
      blockMinTimesMs: matched.map((b) => b.start),
      perBlockBytesPerSample: blocks.map((b) => perSample(b.bytes, b.samples)),
      allBlocks: blocks.length,
      allSamples,
      allBytesPerSample: perSample(sum(blocks, (b) => b.bytes), allSamples),
      openMetricsBytes: fileBytes,
      generateSeconds: Number(generateSeconds.toFixed(1)),
      promtoolSeconds: Number(promtoolSeconds.toFixed(1)),
    }),
  );
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
