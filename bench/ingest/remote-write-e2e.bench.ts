/**
 * Remote write end to end, through HTTP, against two receivers in the same run, one after the
 * other: the built `infersight serve` (run `npm run build` first) and Debian's Prometheus 2.42
 * (`--web.enable-remote-write-receiver`), each a child process on a fresh temp data directory.
 *
 * The load is the fleet data set at 1 s resolution (1,000 instances ≈ 283,000 series, so
 * ≈ 283,000 samples/s offered), encoded beforehand (rw-load-file.ts) into snappy requests of
 * 2,000 series with one sample each, then played in real time (rw-sender.ts): second k's
 * requests are released at k + 1 s through 4 in-order shards, as Prometheus' queue manager sends.
 *
 * Per receiver: samples/s achieved; whether it kept up (nothing failed, and the last second's
 * requests were answered within 2 s of their release: a receiver that falls behind for good ends
 * further behind with every second; `maxLagSeconds` shows passing stalls too, such as creating
 * every series in second 0); request latency; the receiver's CPU seconds over the run
 * (/proc/<pid>/stat utime + stime, every thread) and samples per CPU-second; RSS at the end and
 * at the peak; the sender's own CPU seconds (it shares the machine). Then ours ÷ Prometheus of
 * samples per CPU-second (goal ≥ 1).
 *
 * Env: BENCH_INSTANCES (1000), BENCH_SECONDS (60; the issue's full run is 600), BENCH_BATCH_SERIES
 * (2000), BENCH_SHARDS (4), BENCH_RECEIVERS (`infersight,prometheus`). Without `prometheus` on
 * PATH its entry is `skipped` (a failure under CI=true).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cpuSeconds, memoryBytes } from './proc-stats.js';
import { startInfersightReceiver, startPrometheusReceiver, type Receiver } from './receivers.js';
import { writeLoadFile, type LoadFile } from './rw-load-file.js';
import { sendLoad } from './rw-sender.js';

const instances = Number(process.env.BENCH_INSTANCES ?? 1000);
const seconds = Number(process.env.BENCH_SECONDS ?? 60);
const batchSeries = Number(process.env.BENCH_BATCH_SERIES ?? 2000);
const shards = Number(process.env.BENCH_SHARDS ?? 4);
const wanted = (process.env.BENCH_RECEIVERS ?? 'infersight,prometheus').split(',').map((s) => s.trim());

const round = (v: number | null, digits = 0): number | null => (v === null ? null : Number(v.toFixed(digits)));
const log = (msg: string): void => void process.stderr.write(`remote-write-e2e: ${msg}\n`);

/** Runs the load against one receiver and measures it. */
async function measure(start: (dir: string) => Promise<Receiver>, dir: string, load: LoadFile): Promise<Record<string, unknown>> {
  const receiver = await start(dir);
  try {
    const cpuBefore = cpuSeconds(receiver.pid);
    const senderBefore = process.cpuUsage();
    const sent = await sendLoad(load, receiver.writeUrl, shards, (k) => {
      if (k % 10 === 0) log(`${receiver.name}: second ${k} of ${load.seconds}`);
    });
    const cpuAfter = cpuSeconds(receiver.pid);
    const sender = process.cpuUsage(senderBefore);
    const mem = memoryBytes(receiver.pid);
    const cpu = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
    return {
      samplesWritten: sent.samplesWritten,
      samplesPerSecAchieved: Math.round(sent.samplesWritten / sent.wallSeconds),
      keptUp: sent.requestsFailed === 0 && sent.finalLagSeconds < 2,
      maxLagSeconds: round(sent.maxLagSeconds, 2),
      finalLagSeconds: round(sent.finalLagSeconds, 2),
      latencyP50Ms: sent.latencyP50Ms,
      latencyP99Ms: sent.latencyP99Ms,
      requestsFailed: sent.requestsFailed,
      ...(sent.failures.length > 0 ? { failures: sent.failures } : {}),
      wallSeconds: round(sent.wallSeconds, 1),
      cpuSeconds: round(cpu, 1),
      cpuCoresAvg: cpu === null ? null : round(cpu / sent.wallSeconds, 2),
      samplesPerCpuSecond: cpu === null || cpu === 0 ? null : Math.round(sent.samplesWritten / cpu),
      senderCpuSeconds: round((sender.user + sender.system) / 1e6, 1),
      rssBytesEnd: mem.rss,
      rssBytesPeak: mem.peak,
    };
  } finally {
    await receiver.stop();
  }
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'infersight-bench-rw-e2e-'));
const out: Record<string, unknown> = { bench: 'ingest.remote-write-e2e', instances, seconds, batchSeries, shards, loadAvg1mStart: round(os.loadavg()[0], 2) };
try {
  const t0 = performance.now();
  log(`encoding ${seconds} s of ${instances} instances`);
  const load = writeLoadFile({ file: path.join(tmp, 'load.bin'), instances, seconds, batchSeries, startMs: Math.floor(Date.now() / 1000) * 1000 });
  Object.assign(out, {
    series: load.seriesCount,
    samples: load.totalSamples,
    samplesPerSecOffered: load.seriesCount,
    requests: load.offsets.length,
    bytesPerSampleRaw: round(load.rawBytes / load.totalSamples, 1),
    bytesPerSampleSnappy: round(load.compressedBytes / load.totalSamples, 1),
    encodeSeconds: round((performance.now() - t0) / 1000, 1),
  });
  if (wanted.includes('infersight')) {
    log('infersight serve');
    out.infersight = await measure(startInfersightReceiver, path.join(tmp, 'infersight'), load);
  }
  if (wanted.includes('prometheus')) {
    const prometheus = 'prometheus';
    if (spawnSync(prometheus, ['--version'], { stdio: 'ignore' }).error !== undefined) {
      if (process.env.CI === 'true') throw new Error('prometheus is not installed; CI must install it');
      out.prometheus = 'skipped: prometheus not on PATH';
    } else {
      log('prometheus');
      out.prometheus = await measure((dir) => startPrometheusReceiver(prometheus, dir), path.join(tmp, 'prometheus'), load);
    }
  }
  const ours = (out.infersight as { samplesPerCpuSecond?: number | null } | undefined)?.samplesPerCpuSecond;
  const theirs = (out.prometheus as { samplesPerCpuSecond?: number | null } | string | undefined);
  const theirRate = typeof theirs === 'object' ? theirs.samplesPerCpuSecond : undefined;
  out.samplesPerCpuSecondOursOverPrometheus = typeof ours === 'number' && typeof theirRate === 'number' ? round(ours / theirRate, 2) : null;
  out.loadAvg1mEnd = round(os.loadavg()[0], 2);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
console.log(JSON.stringify(out));
