/**
 * The soak (issue 14): the built `infersight serve` (run `npm run build` first) as a child process
 * on a temp data directory, fed by remote write at the highest rate it sustains for
 * SOAK_DURATION while a second client runs the Insights dashboard's queries; RSS stays flat, no
 * acknowledged sample is lost, and the event loop delay is reported (docs/benchmarks.md).
 *
 * 1. Ramp (at most SOAK_RAMP_STEP_SECONDS × steps, 60 s at the defaults): the fleet data set at
 *    1 s resolution (`rw-load-file.ts`, ~283 series per instance, one sample a second each) for
 *    SOAK_RAMP_INSTANCES instances in turn, each step played in real time (`rw-sender.ts`). A step
 *    is sustained when nothing failed and its last second was acknowledged within 2 s of its
 *    release (the sender's backlog did not grow: `remote-write-e2e`'s `keptUp`); the ramp stops
 *    at the first step that is not.
 * 2. Soak: 80% of the last sustained step's instances (the same series, already created) for
 *    SOAK_DURATION, encoded before it starts, timestamped from the moment sending starts. Meanwhile
 *    `dashboard-client.ts` (a child process) runs every Insights query every 15 s, and every 10 s
 *    this process reads the server's VmRSS (/proc/<pid>/status) and its `/metrics`, whose
 *    `infersight_event_loop_delay_seconds` quantiles cover the 10 s since the previous read.
 * 3. Check: every acknowledged sample is counted back by `count_over_time` per stored series
 *    (`loss-check.ts`).
 *
 * One JSON line; `eventLoopDelayP99Ms` is the worst 10 s window's p99, `rssSlopeBytesPerMin` the
 * least-squares slope of RSS over the soak's second half.
 *
 * Env: SOAK_DURATION (default 10m; 60s for a quick check), SOAK_RAMP_INSTANCES (default
 * 50,100,200,400,700,1000), SOAK_RAMP_STEP_SECONDS (10), SOAK_SHARE (0.8), SOAK_SHARDS (4),
 * SOAK_BATCH_SERIES (2000).
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDurationMs } from '../../src/model/index.js';
import { memoryBytes } from '../ingest/proc-stats.js';
import { startInfersightReceiver } from '../ingest/receivers.js';
import { writeLoadFile } from '../ingest/rw-load-file.js';
import { sendLoad } from '../ingest/rw-sender.js';
import type { DashboardReport } from './dashboard-client.js';
import { AckCounter, lostSamples } from './loss-check.js';
import { linearSlope, quantile } from './stats.js';

const durationMs = parseDurationMs(process.env.SOAK_DURATION ?? '10m');
if (durationMs === undefined || durationMs < 10_000) throw new Error(`SOAK_DURATION must be a duration of 10s or more, not ${process.env.SOAK_DURATION}`);
const rampInstances = (process.env.SOAK_RAMP_INSTANCES ?? '50,100,200,400,700,1000').split(',').map(Number);
const rampStepSeconds = Number(process.env.SOAK_RAMP_STEP_SECONDS ?? 10);
const share = Number(process.env.SOAK_SHARE ?? 0.8);
const shards = Number(process.env.SOAK_SHARDS ?? 4);
const batchSeries = Number(process.env.SOAK_BATCH_SERIES ?? 2000);
const SAMPLE_EVERY_MS = 10_000;
const QUERY_EVERY_MS = 15_000;

const log = (msg: string): void => void process.stderr.write(`soak: ${msg}\n`);
const round = (v: number, digits = 0): number => Number(v.toFixed(digits));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** One reading of the server, every 10 s of the soak. */
interface Reading {
  readonly tMs: number;
  readonly rssBytes: number | null;
  readonly loopP99Seconds: number | null;
  readonly loopMaxSeconds: number | null;
}

/** The server's RSS and, from its `/metrics`, the event loop delay since the previous read. */
async function read(base: string, pid: number | undefined, t0: number): Promise<Reading> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const value = (line: string): number | null => {
    const m = new RegExp(`^${line.replace(/[{}".]/g, '\\$&')} (\\S+)$`, 'm').exec(text);
    return m === null ? null : Number(m[1]);
  };
  return {
    tMs: performance.now() - t0,
    rssBytes: memoryBytes(pid).rss,
    loopP99Seconds: value('infersight_event_loop_delay_seconds{quantile="0.99"}'),
    loopMaxSeconds: value('infersight_event_loop_delay_max_seconds'),
  };
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'infersight-bench-soak-'));
const out: Record<string, unknown> = { bench: 'soak', soakDurationS: durationMs / 1000, loadAvg1mStart: round(os.loadavg()[0], 2) };
const receiver = await startInfersightReceiver(path.join(tmp, 'data'));
const base = new URL(receiver.writeUrl).origin;
try {
  const acks = new AckCounter();
  const firstSampleMs = Date.now();
  let encodeUsPerSample = 0;

  // 1. The ramp.
  let sustained: { instances: number; samplesPerSec: number } | null = null;
  const steps: Record<string, unknown>[] = [];
  for (const instances of rampInstances) {
    const t = performance.now();
    const load = writeLoadFile({ file: path.join(tmp, 'ramp.bin'), instances, seconds: rampStepSeconds, batchSeries, startMs: Math.floor(Date.now() / 1000) * 1000 });
    encodeUsPerSample = ((performance.now() - t) * 1000) / load.totalSamples;
    const sent = await sendLoad(load, receiver.writeUrl, shards, undefined, acks.listener(load));
    const keptUp = sent.requestsFailed === 0 && sent.finalLagSeconds < 2;
    steps.push({ instances, samplesPerSecOffered: load.seriesCount, keptUp, finalLagS: round(sent.finalLagSeconds, 2), maxLagS: round(sent.maxLagSeconds, 2), latencyP99Ms: sent.latencyP99Ms });
    log(`ramp: ${instances} instances, ${load.seriesCount} samples/s: ${keptUp ? 'kept up' : 'fell behind'} (final lag ${sent.finalLagSeconds.toFixed(2)} s)`);
    if (!keptUp) break;
    sustained = { instances, samplesPerSec: load.seriesCount };
  }
  fs.rmSync(path.join(tmp, 'ramp.bin'), { force: true });
  out.rampSteps = steps;
  out.rampSustainedSamplesPerSec = sustained?.samplesPerSec ?? 0;

  // 2. The soak, encoded first; its timestamps start when sending does.
  const instances = Math.max(1, Math.round(share * (sustained?.instances ?? rampInstances[0])));
  const seconds = Math.ceil(durationMs / 1000);
  const estimateMs = (encodeUsPerSample / 1000) * instances * 290 * seconds;
  const startMs = Math.ceil((Date.now() + 1.5 * estimateMs + 2000) / 1000) * 1000;
  log(`encoding ${seconds} s of ${instances} instances (about ${Math.round(estimateMs / 1000)} s)`);
  const load = writeLoadFile({ file: path.join(tmp, 'soak.bin'), instances, seconds, batchSeries, startMs });
  await sleep(startMs - Date.now());
  const dashboards = fork(fileURLToPath(new URL('./dashboard-client.ts', import.meta.url)), [base, String(QUERY_EVERY_MS)], { execArgv: ['--import', 'tsx'] });
  const report = new Promise<DashboardReport>((resolve, reject) => {
    dashboards.once('message', (m) => resolve(m as DashboardReport));
    dashboards.once('exit', (code) => reject(new Error(`the dashboard client exited with ${code}`)));
  });
  const t0 = performance.now();
  const readings: Reading[] = [await read(base, receiver.pid, t0)];
  const sampler = setInterval(() => void read(base, receiver.pid, t0).then((r) => readings.push(r), (e: unknown) => log(`reading /metrics failed: ${String(e)}`)), SAMPLE_EVERY_MS);
  let sent;
  try {
    sent = await sendLoad(load, receiver.writeUrl, shards, (k) => (k % 30 === 0 ? log(`soak: second ${k} of ${seconds}`) : undefined), acks.listener(load));
  } finally {
    clearInterval(sampler);
    dashboards.send('stop');
  }
  readings.push(await read(base, receiver.pid, t0));
  const queries = await report;
  fs.rmSync(load.file, { force: true });

  // 3. Every acknowledged sample stored?
  const atS = Date.now() / 1000;
  const loss = await lostSamples(base, acks, atS, atS - firstSampleMs / 1000 + 60);

  const rss = readings.map((r) => r.rssBytes).filter((v): v is number => v !== null);
  const secondHalf = readings.filter((r) => r.rssBytes !== null && r.tMs >= durationMs / 2);
  // The first reading's window is the server's life before the soak (start, ramp): left out.
  const windows = readings.slice(1);
  const p99s = windows.map((r) => r.loopP99Seconds).filter((v): v is number => v !== null);
  const maxes = windows.map((r) => r.loopMaxSeconds).filter((v): v is number => v !== null);
  Object.assign(out, {
    soakInstances: instances,
    samplesPerSec: Math.round(sent.samplesWritten / sent.wallSeconds),
    samplesPerSecOffered: load.seriesCount,
    soakKeptUp: sent.requestsFailed === 0 && sent.finalLagSeconds < 2,
    soakMaxLagS: round(sent.maxLagSeconds, 2),
    soakFinalLagS: round(sent.finalLagSeconds, 2),
    writeLatencyP50Ms: sent.latencyP50Ms,
    writeLatencyP99Ms: sent.latencyP99Ms,
    writeRequestsFailed: sent.requestsFailed,
    ...(sent.failures.length > 0 ? { writeFailures: sent.failures } : {}),
    rssStartBytes: rss[0] ?? null,
    rssEndBytes: rss.at(-1) ?? null,
    rssMaxBytes: rss.length === 0 ? null : Math.max(...rss),
    rssSlopeBytesPerMin: secondHalf.length < 2 ? null : Math.round(linearSlope(secondHalf.map((r) => [r.tMs / 60_000, r.rssBytes ?? 0])) ?? 0),
    readings: readings.length,
    eventLoopDelayP99Ms: p99s.length === 0 ? null : round(Math.max(...p99s) * 1000, 1),
    eventLoopDelayP99MedianWindowMs: p99s.length === 0 ? null : round(quantile(p99s, 0.5) * 1000, 1),
    eventLoopDelayMaxMs: maxes.length === 0 ? null : round(Math.max(...maxes) * 1000, 1),
    queryRounds: queries.rounds,
    queriesRun: queries.queriesRun,
    queriesFailed: queries.failed,
    ...(queries.failures.length > 0 ? { queryFailures: queries.failures } : {}),
    queryP50Ms: queries.latenciesMs.length === 0 ? null : round(quantile(queries.latenciesMs, 0.5), 1),
    queryP99Ms: queries.latenciesMs.length === 0 ? null : round(quantile(queries.latenciesMs, 0.99), 1),
    samplesAcked: loss.samplesAcked,
    samplesDroppedByCatalog: loss.samplesDropped,
    samplesExpectedStored: loss.samplesExpected,
    samplesLost: loss.samplesLost,
    samplesExtra: loss.samplesExtra,
    seriesChecked: loss.seriesChecked,
    seriesMissing: loss.seriesMissing,
    lossCheckMs: loss.checkMs,
    loadAvg1mEnd: round(os.loadavg()[0], 2),
  });
} finally {
  await receiver.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
}
console.log(JSON.stringify(out));
if (out.samplesLost !== 0) process.exitCode = 1;
