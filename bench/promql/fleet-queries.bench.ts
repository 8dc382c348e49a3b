/**
 * PromQL range queries over the LLM fleet data set: our engine over our `Db` against Debian's
 * Prometheus 2.42 over the same samples, measured in the same run (docs/benchmarks.md).
 *
 * Data: the queried families of bench/tsdb/fleet-dataset.ts (fleet-load.ts: per instance 20 TTFT
 * buckets, 2 token counters, 3 request counters, the KV-cache gauge and 4 or 8 GPU-utilization
 * gauges, ~32 series), 15 s scrapes, long enough for the widest window plus 40 min of look-back
 * (the 30 min subquery reads 31 min before its first step). Our side: `Db` in a temp dir, written
 * scrape by scrape, then compacted like a running store would be. Prometheus: promtool backfill,
 * then `prometheus` on loopback with the sample limit and timeout raised out of the way.
 *
 * For each query and window (ending at the last scrape, step 15 s): one warm-up, then BENCH_RUNS
 * timed runs per side, medians reported. Ours: wall time of `Engine.rangeQuery`, heap allocated
 * and retained (measure.ts), samples read (`stats.totalQueryableSamples`). Prometheus: the HTTP
 * round trip of `/api/v1/query_range?stats=all` including JSON decoding, and its own
 * `execTotalTime`/`evalTotalTime`. Ratios are ours / Prometheus (above 1: we are slower).
 * `maxRssBytes` is this process' peak (the data set, our Db and engine), `prometheusMaxRssBytes`
 * Prometheus' (VmHWM). Samples read are not comparable: Prometheus' `totalQueryableSamples`
 * counts a sample once per step whose window holds it, ours once per selector.
 *
 * `sameSeriesAndPoints` is a sanity check, not a conformance test (that is
 * test/interop/promql-differential.test.ts): the steps here fall on the 15 s scrape grid, where
 * 2.42's closed windows and 3.x's left-open ones see different samples of the instances scraped at
 * offset 0, and 2.42 breaks `topk` ties among aggregated series in Go map order, so it can be false
 * without an engine bug.
 *
 * Env: BENCH_INSTANCES (default 1000), BENCH_WINDOWS (default "1h,6h"), BENCH_RUNS (default 3).
 * Without prometheus/promtool on PATH it prints a `skipped` line, or fails when CI=true.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Engine, type QueryResult } from '../../src/promql/engine/index.js';
import { Db } from '../../src/tsdb/index.js';
import { generateFleet, loadDb, loadPrometheus } from './fleet-load.js';
import { measure, median, type Measured } from './measure.js';
import { startPrometheus, type ApiResponse } from './prometheus-peer.js';

/** The queries: names are the JSON keys' prefixes. The data set's model label is `model_name`; `engine` is vLLM's engine index. */
const QUERIES: Record<string, string> = {
  ttftP99ByModel: 'histogram_quantile(0.99, sum by (le, model_name) (rate(vllm:time_to_first_token_seconds_bucket[5m])))',
  topkRequestRateByInstance: 'topk(10, sum by (instance) (rate(vllm:request_success_total[5m])))',
  kvCacheAvgByAz: 'avg by (az) (vllm:kv_cache_usage_perc)',
  generationTokensByModelEngine: 'sum by (model_name, engine) (rate(vllm:generation_tokens_total[1m]))',
  regexGpuUtilByAz: 'avg by (az) (DCGM_FI_DEV_GPU_UTIL{instance=~"ip-10-0-[0-1]-.*", modelName=~".*A100.*"})',
  subqueryMaxRate: 'max_over_time(rate(vllm:generation_tokens_total[1m])[30m:1m])',
};

const instances = Number(process.env.BENCH_INSTANCES ?? 1000);
const windowsH = (process.env.BENCH_WINDOWS ?? '1h,6h').split(',').map((w) => Number(w.replace(/h$/, '')));
const runs = Number(process.env.BENCH_RUNS ?? 3);
const STEP_MS = 15_000;

const have = (bin: string): boolean => spawnSync(bin, ['--version'], { stdio: 'ignore' }).error === undefined;
if (!have('prometheus') || !have('promtool')) {
  if (process.env.CI === 'true') throw new Error('prometheus/promtool not installed (Debian package prometheus)');
  console.log(JSON.stringify({ bench: 'promql.fleet-queries', skipped: 'prometheus or promtool not installed' }));
  process.exit(0);
}

const round = (x: number, digits = 1): number => Number(x.toFixed(digits));
const points = (res: ApiResponse): [number, number] => {
  const m = (res.data?.result ?? []) as { values: unknown[] }[];
  return [m.length, m.reduce((n, s) => n + s.values.length, 0)];
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infersight-bench-promql-'));
const began = performance.now();
try {
  const scrapes = Math.ceil(((Math.max(...windowsH) * 60 + 40) * 60_000) / STEP_MS);
  let t0 = performance.now();
  const data = generateFleet(instances, scrapes);
  const generateSeconds = (performance.now() - t0) / 1000;
  const progress = (what: string): void => void process.stderr.write(`promql bench: ${what} (${round((performance.now() - began) / 1000)} s)\n`);
  progress(`generated ${data.labels.length} series x ${scrapes} scrapes`);

  const db = await Db.open({ dir: path.join(dir, 'db'), fsync: { mode: 'never' } });
  const dbLoadSeconds = await loadDb(data, db);
  t0 = performance.now();
  while (db.isCompactable()) await db.compact();
  const dbCompactSeconds = (performance.now() - t0) / 1000;
  progress('loaded our Db');

  const promDir = path.join(dir, 'prometheus');
  const om = await loadPrometheus(data, 'promtool', dir, promDir);
  t0 = performance.now();
  const peer = await startPrometheus('prometheus', promDir, { maxSamples: 2_000_000_000, timeoutS: 1800 });
  const prometheusStartSeconds = (performance.now() - t0) / 1000;
  progress('loaded and started Prometheus');
  const engine = new Engine({ maxSamples: 2_000_000_000, timeoutMs: 1_800_000 });

  const endMs = Math.floor(data.maxTMs / STEP_MS) * STEP_MS;
  const results: Record<string, unknown>[] = [];
  let prometheusMaxRssBytes: number | null = null;
  try {
    for (const hours of windowsH) {
      const startMs = endMs - hours * 3_600_000;
      for (const [name, query] of Object.entries(QUERIES)) {
        const ours = async () => engine.rangeQuery(db, query, startMs, endMs, STEP_MS);
        const theirs = async () => peer.client.queryRange(query, startMs, endMs, STEP_MS, true);
        await ours();
        const o: Measured<QueryResult>[] = [];
        for (let i = 0; i < runs; i++) o.push(await measure(ours));
        const firstProm = await theirs();
        if (firstProm.status !== 'success') throw new Error(`prometheus failed on ${query}: ${firstProm.error}`);
        const p: Measured<ApiResponse>[] = [];
        for (let i = 0; i < runs; i++) p.push(await measure(theirs));
        const last = o[o.length - 1].value;
        const series = last.value.type === 'matrix' ? last.value.v : [];
        const ourPoints = series.reduce((n, s) => n + s.t.length, 0);
        const [promSeries, promPoints] = points(firstProm);
        const timing = (key: string): number => median(p.map((m) => (m.value.data?.stats?.timings?.[key] ?? NaN) * 1000));
        const oursMs = median(o.map((m) => m.ms));
        const httpMs = median(p.map((m) => m.ms));
        const execMs = timing('execTotalTime');
        const samplesRead = last.stats.totalQueryableSamples;
        const allocated = median(o.map((m) => m.allocatedBytes));
        results.push({
          query: name,
          windowHours: hours,
          steps: Math.round((endMs - startMs) / STEP_MS) + 1,
          oursMedianMs: round(oursMs),
          oursMinMs: round(Math.min(...o.map((m) => m.ms))),
          oursAllocatedBytes: allocated,
          oursPeakHeapBytes: median(o.map((m) => m.peakHeapBytes)),
          oursRetainedBytes: median(o.map((m) => m.retainedBytes)),
          oursSamplesRead: samplesRead,
          oursPeakSamples: last.stats.peakSamples,
          allocatedBytesPerSampleRead: round(allocated / Math.max(1, samplesRead), 2),
          resultSeries: series.length,
          resultPoints: ourPoints,
          prometheusHttpMedianMs: round(httpMs),
          prometheusExecTotalMs: round(execMs),
          prometheusEvalTotalMs: round(timing('evalTotalTime')),
          prometheusSamplesRead: firstProm.data?.stats?.samples?.totalQueryableSamples ?? null,
          ratioOursToPrometheusHttp: round(oursMs / httpMs, 2),
          ratioOursToPrometheusExec: round(oursMs / execMs, 2),
          sameSeriesAndPoints: promSeries === series.length && promPoints === ourPoints,
        });
        process.stderr.write(`promql bench: ${name} ${hours}h ours ${round(oursMs)} ms, prometheus ${round(httpMs)} ms (exec ${round(execMs)} ms)\n`);
      }
    }
    prometheusMaxRssBytes = peer.maxRssBytes();
  } finally {
    await peer.stop();
    await db.close();
  }
  console.log(
    JSON.stringify({
      bench: 'promql.fleet-queries',
      instances,
      series: data.labels.length,
      samples: data.labels.length * scrapes,
      stepSeconds: STEP_MS / 1000,
      runs,
      generateSeconds: round(generateSeconds),
      dbLoadSeconds: round(dbLoadSeconds),
      dbCompactSeconds: round(dbCompactSeconds),
      openMetricsBytes: om.openMetricsBytes,
      openMetricsWriteSeconds: round(om.writeSeconds),
      promtoolSeconds: round(om.promtoolSeconds),
      prometheusStartSeconds: round(prometheusStartSeconds),
      maxRssBytes: process.resourceUsage().maxRSS * 1024,
      prometheusMaxRssBytes,
      totalSeconds: round((performance.now() - began) / 1000),
      queries: results,
    }),
  );
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
