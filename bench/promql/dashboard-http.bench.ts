/**
 * Eighteen queries of the Insights dashboard over HTTP, instant and as 1 h range queries, against
 * three stores holding the same samples, in the same run: the built `infersight serve` (a child
 * process, like the other two), Debian's Prometheus 2.42 and VictoriaMetrics (docs/benchmarks.md,
 * issue 15).
 *
 * Data (dashboard-data.ts): `fleet-<N>` simulated and scraped every 15 s for BENCH_HISTORY up to a
 * fixed end, through the normalizer (catalog names), then copied into our `Db` (served from its
 * head, as a live server serves its last hour), Prometheus blocks (promtool backfill) and
 * VictoriaMetrics (`/api/v1/import`, rollup cache off).
 *
 * Queries: the panels' text with every variable at its default (`$__all`, so `=~".*"` matchers)
 * and the builtin intervals of a 1 h range at the UI's 15 s step (`$__range` = 3600s,
 * `$__rate_interval` = 60s). Each is asked as an instant query at the data's end and as a range
 * query over the last hour at a 15 s step, as `GET` with `nocache=1` (Prometheus ignores it). Per
 * query, mode and store: one warm-up, then BENCH_RUNS runs, the three stores taking turns, and the
 * median wall time from sending the request to the last byte of the answer (JSON not decoded).
 * Ratios are ours / Prometheus and VictoriaMetrics / Prometheus (below 1: faster than
 * Prometheus), with their geometric means. `series*` counts the result series of each store, a
 * sanity check only (VictoriaMetrics' staleness and `rate` differ from Prometheus' by design).
 *
 * Env: BENCH_INSTANCES (comma list, default "100,300"), BENCH_HISTORY (minutes, default 65),
 * BENCH_RUNS (default 5), BENCH_SEED (default 1). Needs `npm run build` (dist/); without
 * prometheus, promtool or victoria-metrics on PATH it prints a `skipped` line, or fails when CI=true.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { INSIGHTS, builtinIntervals, dashboardPanels, defaultValues, interpolate, panelQueries } from '../../src/dashboards/index.js';
import { Db } from '../../src/tsdb/index.js';
import { CLI, startServe } from '../../test/e2e/cli.js';
import { findPeer, startVictoriaMetrics } from '../../test/peers/peers.js';
import { exportStores, simulateFleet } from './dashboard-data.js';
import { median } from './measure.js';
import { createBlocks, startPrometheus } from './prometheus-peer.js';

/** The 18 queries: key, panel id, query refId (docs/benchmarks.md lists them with their text). */
const PICKS: readonly (readonly [string, string, string])[] = [
  ['invocations', 'invocations', 'A'],
  ['instances', 'instances', 'A'],
  ['errorRate', 'error-rate', 'A'],
  ['ttftP99', 'ttft-p99', 'A'],
  ['azSkew', 'az-skew', 'A'],
  ['hexCells', 'fleet-hexgrid', 'cells'],
  ['hexTtftP99', 'fleet-hexgrid', 'ttft_p99'],
  ['hexOutputTps', 'fleet-hexgrid', 'output_tps'],
  ['hexKvUsage', 'fleet-hexgrid', 'kv_usage'],
  ['hexErrorRatio', 'fleet-hexgrid', 'error_ratio'],
  ['hexDown', 'fleet-hexgrid', 'down'],
  ['ttftP99ZScore', 'instance-table', 'ttft_p99_z'],
  ['engineE2eP99ByComponent', 'token-latency', 'engine_e2e'],
  ['queueTimeByComponent', 'phase-timing', 'queue'],
  ['kvCacheUsedTokens', 'kv-cache-capacity', 'used'],
  ['gpuMemoryShare', 'gpu-instances', 'memory_share'],
  ['azTrafficShare', 'az-traffic', 'share'],
  ['promptLengthHeatmap', 'prompt-length', 'A'],
];

const RANGE_MS = 3_600_000;
const STEP_MS = 15_000;

/** The picked queries' text, interpolated as the UI does for a 1 h range. */
function dashboardBenchQueries(): { key: string; expr: string }[] {
  const opts = { variables: INSIGHTS.variables, ...builtinIntervals({ rangeMs: RANGE_MS, stepMs: STEP_MS }) };
  const values = defaultValues(INSIGHTS);
  const panels = dashboardPanels(INSIGHTS);
  return PICKS.map(([key, panelId, refId]) => {
    const panel = panels.find((p) => p.id === panelId);
    const q = panel === undefined ? undefined : panelQueries(panel).find((x) => x.refId === refId);
    if (q === undefined) throw new Error(`dashboard-http bench: Insights has no query ${panelId}/${refId}`);
    return { key, expr: interpolate(q.expr, values, opts) };
  });
}

const instancesList = (process.env.BENCH_INSTANCES ?? '100,300').split(',').map(Number);
const historyMs = Number(process.env.BENCH_HISTORY ?? 65) * 60_000;
const runs = Number(process.env.BENCH_RUNS ?? 5);
const seed = Number(process.env.BENCH_SEED ?? 1);

const round = (x: number, digits = 1): number => Number(x.toFixed(digits));
const geomean = (xs: readonly number[]): number => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);

/** One store under test: how to ask it a query. */
interface Store {
  readonly name: 'ours' | 'prometheus' | 'vm';
  readonly base: string;
}

/** Asks `store` one query; resolves with the wall time to the answer's last byte and the answer's series count. */
async function ask(store: Store, expr: string, mode: 'instant' | 'range', endMs: number): Promise<{ ms: number; series: number }> {
  const params = new URLSearchParams(
    mode === 'instant'
      ? { query: expr, time: String(endMs / 1000), nocache: '1' }
      : { query: expr, start: String((endMs - RANGE_MS) / 1000), end: String(endMs / 1000), step: String(STEP_MS / 1000), nocache: '1' },
  );
  const url = `${store.base}/api/v1/${mode === 'instant' ? 'query' : 'query_range'}?${params.toString()}`;
  const t0 = performance.now();
  const res = await fetch(url);
  const text = await res.text();
  const ms = performance.now() - t0;
  const body = JSON.parse(text) as { status: string; error?: string; data?: { result: unknown } };
  if (body.status !== 'success') throw new Error(`${store.name} failed (${res.status}) on ${mode} ${expr}: ${body.error}`);
  const result = body.data?.result;
  return { ms, series: Array.isArray(result) ? result.length : 1 };
}

/** Builds the three stores for `instances`, runs every query on each, and returns the bench line's entry. */
async function runSize(instances: number, bins: { prometheus: string; promtool: string; vm: string }): Promise<Record<string, unknown>> {
  const began = performance.now();
  const progress = (what: string): void => void process.stderr.write(`dashboard-http ${instances}: ${what} (${round((performance.now() - began) / 1000)} s)\n`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infersight-bench-dashboard-'));
  const stops: (() => Promise<unknown>)[] = [];
  try {
    const endMs = Math.floor(Date.now() / STEP_MS) * STEP_MS;
    const sim = await simulateFleet(instances, historyMs, endMs, dir, seed);
    progress(`replayed ${sim.samples} samples`);
    // Answers near the data's end in full (the default hides the last 30 s as still arriving).
    const vmPeer = await startVictoriaMetrics(bins.vm, path.join(dir, 'vm'), { args: ['-search.latencyOffset=0s'] });
    stops.push(() => vmPeer.stop());
    const oursDir = path.join(dir, 'ours');
    const ours = await Db.open({ dir: oursDir, fsync: { mode: 'never' } });
    const omFile = path.join(dir, 'fleet.om');
    const exported = await exportStores(sim.scratch, {
      ours,
      openMetricsFile: omFile,
      vmImport: async (body) => {
        const r = await fetch(`${vmPeer.base}/api/v1/import`, { method: 'POST', body });
        if (r.status !== 204) throw new Error(`VictoriaMetrics import answered ${r.status}: ${await r.text()}`);
      },
    });
    await ours.close();
    await sim.scratch.close();
    fs.rmSync(path.join(dir, 'scratch'), { recursive: true, force: true });
    progress(`exported ${exported.series} series, ${exported.samples} samples`);
    const promDir = path.join(dir, 'prometheus');
    const promtoolSeconds = createBlocks(bins.promtool, omFile, promDir);
    fs.rmSync(omFile);
    const prom = await startPrometheus(bins.prometheus, promDir, { maxSamples: 2_000_000_000, timeoutS: 1800 });
    stops.push(() => prom.stop());
    await fetch(`${vmPeer.base}/internal/force_flush`);
    for (let i = 0; ; i++) {
      const r = (await (await fetch(`${vmPeer.base}/api/v1/series/count`)).json()) as { data: number[] };
      if (r.data[0] >= exported.series) break;
      if (i > 600) throw new Error(`VictoriaMetrics shows ${r.data[0]} of ${exported.series} series`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const cli = await startServe(['--data', oursDir, '--otlp.listen', 'off', '--retention', '0', '--wal-fsync', 'never', '--query.max-samples', '2000000000', '--query.timeout', '30m']);
    stops.push(async () => {
      cli.child.kill('SIGTERM');
      await cli.exited;
    });
    progress('three stores up');

    const stores: Store[] = [
      { name: 'ours', base: cli.base },
      { name: 'prometheus', base: prom.base },
      { name: 'vm', base: vmPeer.base },
    ];
    const lastMs = Math.floor(exported.maxTMs / STEP_MS) * STEP_MS;
    const queries: Record<string, unknown>[] = [];
    const ratios = { ours: [] as number[], vm: [] as number[], oursInstant: [] as number[], oursRange: [] as number[], vmInstant: [] as number[], vmRange: [] as number[] };
    for (const q of dashboardBenchQueries()) {
      for (const mode of ['instant', 'range'] as const) {
        const ms: Record<string, number[]> = { ours: [], prometheus: [], vm: [] };
        const series: Record<string, number> = {};
        for (const s of stores) series[s.name] = (await ask(s, q.expr, mode, lastMs)).series;
        for (let r = 0; r < runs; r++) {
          // Turns rotate, so no store always runs right after another's garbage.
          for (let k = 0; k < stores.length; k++) {
            const s = stores[(r + k) % stores.length];
            ms[s.name].push((await ask(s, q.expr, mode, lastMs)).ms);
          }
        }
        const m = { ours: median(ms.ours), prometheus: median(ms.prometheus), vm: median(ms.vm) };
        const oursRatio = m.ours / m.prometheus;
        const vmRatio = m.vm / m.prometheus;
        ratios.ours.push(oursRatio);
        ratios.vm.push(vmRatio);
        (mode === 'instant' ? ratios.oursInstant : ratios.oursRange).push(oursRatio);
        (mode === 'instant' ? ratios.vmInstant : ratios.vmRange).push(vmRatio);
        queries.push({
          query: q.key,
          mode,
          oursMedianMs: round(m.ours),
          prometheusMedianMs: round(m.prometheus),
          vmMedianMs: round(m.vm),
          ratioOursToPrometheus: round(oursRatio, 2),
          ratioVmToPrometheus: round(vmRatio, 2),
          seriesOurs: series.ours,
          seriesPrometheus: series.prometheus,
          seriesVm: series.vm,
        });
        progress(`${q.key} ${mode}: ours ${round(m.ours)} ms, prometheus ${round(m.prometheus)} ms, vm ${round(m.vm)} ms`);
      }
    }
    return {
      instances,
      series: exported.series,
      samples: exported.samples,
      historyMinutes: historyMs / 60_000,
      replaySeconds: round(sim.replaySeconds),
      exportSeconds: round(exported.seconds),
      promtoolSeconds: round(promtoolSeconds),
      openMetricsBytes: exported.openMetricsBytes,
      vmImportBytes: exported.vmImportBytes,
      geomeanOursToPrometheus: round(geomean(ratios.ours), 3),
      geomeanVmToPrometheus: round(geomean(ratios.vm), 3),
      geomeanOursToPrometheusInstant: round(geomean(ratios.oursInstant), 3),
      geomeanOursToPrometheusRange: round(geomean(ratios.oursRange), 3),
      geomeanVmToPrometheusInstant: round(geomean(ratios.vmInstant), 3),
      geomeanVmToPrometheusRange: round(geomean(ratios.vmRange), 3),
      oursMaxRssBytes: processRss(cli.child.pid),
      prometheusMaxRssBytes: prom.maxRssBytes(),
      vmMaxRssBytes: processRss(vmPeer.child.pid),
      totalSeconds: round((performance.now() - began) / 1000),
      queries,
    };
  } finally {
    for (const stop of stops.reverse()) await stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A process' peak resident memory (Linux `VmHWM`), or null. */
function processRss(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  const kb = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return kb === null ? null : Number(kb[1]) * 1024;
}

const bins = { prometheus: findPeer('prometheus'), promtool: findPeer('promtool'), vm: findPeer('victoria-metrics') };
const missing = Object.entries(bins)
  .filter(([, p]) => p === null)
  .map(([n]) => n);
if (missing.length > 0) {
  if (process.env.CI === 'true') throw new Error(`dashboard-http bench: ${missing.join(', ')} not installed (Debian packages prometheus, victoria-metrics)`);
  console.log(JSON.stringify({ bench: 'promql.dashboard-http', skipped: `${missing.join(', ')} not installed` }));
  process.exit(0);
}
if (!fs.existsSync(path.join(path.dirname(CLI), '..', 'dist', 'cli', 'main.js'))) throw new Error('dashboard-http bench: dist/ is missing; run npm run build first');
const sizes: Record<string, unknown>[] = [];
for (const n of instancesList) sizes.push(await runSize(n, bins as { prometheus: string; promtool: string; vm: string }));
console.log(JSON.stringify({ bench: 'promql.dashboard-http', ours: 'infersight serve (dist/, child process)', rangeSeconds: RANGE_MS / 1000, stepSeconds: STEP_MS / 1000, runs, sizes }));
