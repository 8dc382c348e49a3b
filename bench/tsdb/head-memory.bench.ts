/**
 * What the head costs in memory and garbage collection under steady ingest: 300k series of the
 * fleet data set appended as a scraper would (one commit per target scrape, WAL on, fsync every
 * 1 s, the event loop turning between scrape rounds), then heap, RSS and head bytes per series
 * after a full GC, ingest samples per CPU-second, the share of that CPU spent in GC pauses, and
 * the cost of reading every series back (select, then every sample).
 *
 * The GC share is the sum of the `gc` performance entries (V8's main-thread pauses: scavenges
 * and mark-compact finalisations) that start inside the timed append loops, over the process
 * CPU time of those loops (all threads). With BENCH_PROFILE=1 the bench also runs V8's sampling
 * CPU profiler in-process and reports the share of main-thread samples in "(garbage collector)"
 * during those loops, the number `--cpu-prof` shows (it includes incremental marking steps);
 * the profiler slows ingest, so the throughput keys of that run are not comparable.
 *
 * Env: BENCH_SERIES (default 300000; rounded up to whole instances of ~283 series),
 * BENCH_SCRAPES (default 240 = 1 h at 15 s: every series seals 2 chunks), BENCH_PROFILE.
 */
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { matcher, type SeriesIterator } from '../../src/model/index.js';
import { Db } from '../../src/tsdb/index.js';
import { instance, rng } from './fleet-dataset.js';
import { writeFleet } from './fleet-writer.js';

const targetSeries = Number(process.env.BENCH_SERIES ?? 300_000);
const scrapes = Number(process.env.BENCH_SCRAPES ?? 240);
const profile = process.env.BENCH_PROFILE === '1';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infersight-bench-head-memory-'));
const gc = (globalThis as { gc?: () => void }).gc;

/** Instances needed for `series` (4- and 8-GPU instances alternate, so count them on the data set). */
function instancesFor(series: number): number {
  const r = rng(1);
  let n = 0;
  let i = 0;
  while (n < series) n += instance(i++, r).series.length;
  return i;
}

/** The `[start, end)` windows (performance.now() ms) of the timed loops, and the GC pauses inside them. */
class GcMeter {
  readonly windows: [number, number][] = [];
  private readonly entries: PerformanceEntry[] = [];
  private readonly observer = new PerformanceObserver((list) => this.entries.push(...list.getEntries()));

  constructor() {
    this.observer.observe({ entryTypes: ['gc'] });
  }

  /** Stops observing (after letting queued entries arrive) and sums the pauses that start in a window. */
  async finish(): Promise<{ pauseMs: number; pauses: number; majorPauseMs: number }> {
    await new Promise((resolve) => setImmediate(resolve));
    this.observer.disconnect();
    let pauseMs = 0;
    let pauses = 0;
    let majorPauseMs = 0;
    const sorted = this.entries.slice().sort((a, b) => a.startTime - b.startTime);
    let w = 0;
    for (const e of sorted) {
      while (w < this.windows.length && this.windows[w][1] <= e.startTime) w++;
      if (w === this.windows.length) break;
      if (e.startTime < this.windows[w][0]) continue;
      pauseMs += e.duration;
      pauses++;
      // NODE_PERFORMANCE_GC_MAJOR = 4 (mark-compact)
      if ((e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === 4) majorPauseMs += e.duration;
    }
    return { pauseMs, pauses, majorPauseMs };
  }
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string };
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The share of profiler samples in "(garbage collector)" among those inside `windows` (performance.now() ms). */
function profileGcShare(p: CpuProfile, windows: readonly [number, number][], hrtimeOffsetUs: number): number {
  const gcNodes = new Set(p.nodes.filter((n) => n.callFrame.functionName === '(garbage collector)').map((n) => n.id));
  let tUs = p.startTime;
  let inside = 0;
  let inGc = 0;
  let w = 0;
  for (let i = 0; i < p.samples.length; i++) {
    tUs += p.timeDeltas[i];
    const tMs = (tUs - hrtimeOffsetUs) / 1000;
    while (w < windows.length && windows[w][1] <= tMs) w++;
    if (w === windows.length) break;
    if (tMs < windows[w][0]) continue;
    inside++;
    if (gcNodes.has(p.samples[i])) inGc++;
  }
  return inside === 0 ? 0 : inGc / inside;
}

/** Two full collections a loop turn apart: array buffers' memory is released after the first one's sweep. */
async function fullGc(): Promise<void> {
  gc?.();
  await new Promise((resolve) => setImmediate(resolve));
  gc?.();
}

/** Wall milliseconds of `run`. */
function timeMs(run: () => void): number {
  const t0 = performance.now();
  run();
  return performance.now() - t0;
}

try {
  const instances = instancesFor(targetSeries);
  await fullGc();
  const before = process.memoryUsage();
  const db = await Db.open({ dir, fsync: { mode: 'interval', intervalMs: 1000 }, retentionMs: 0 });
  const session = profile ? new Session() : null;
  if (session !== null) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 500 });
    await session.post('Profiler.start');
  }
  // V8's profile clock and process.hrtime are both CLOCK_MONOTONIC; performance.now() is offset from them.
  const hrtimeOffsetUs = Number(process.hrtime.bigint() / 1000n) - performance.now() * 1000;
  const meter = new GcMeter();
  const written = await writeFleet(db, {
    instances,
    scrapes,
    timed: (t0, t1) => meter.windows.push([t0, t1]),
    // Let the event loop turn between rounds, as a server does (the WAL's fsync timer runs).
    afterScrape: () => new Promise((resolve) => setImmediate(resolve)),
  });
  const gcPauses = await meter.finish();
  let gcShareProfile: number | null = null;
  if (session !== null) {
    const { profile: p } = (await session.post('Profiler.stop')) as { profile: CpuProfile };
    session.disconnect();
    gcShareProfile = Number(profileGcShare(p, meter.windows, hrtimeOffsetUs).toFixed(4));
  }
  await fullGc();
  const after = process.memoryUsage();
  const series = db.head.numSeries();
  // The generator's state (label sets, histogram counters) is alive too: a few hundred bytes per
  // series, so this slightly overstates the head, the same way on every revision.
  const heapBytes = after.heapUsed + after.arrayBuffers - (before.heapUsed + before.arrayBuffers);

  // Reading every series back: select alone (labels), then every sample through the iterators.
  const all = [matcher('=~', '__name__', '.+')];
  const minT = db.head.minTimeMs;
  const maxT = db.head.maxTimeMs;
  const selects: number[] = [];
  for (let run = 0; run < 3; run++) {
    selects.push(
      timeMs(() => {
        const q = db.querier(minT, maxT);
        const set = q.select(all);
        while (set.next()) set.at();
        q.close();
      }),
    );
  }
  selects.sort((a, b) => a - b);
  let read = 0;
  const readMs = timeMs(() => {
    const q = db.querier(minT, maxT);
    const set = q.select(all);
    let it: SeriesIterator | undefined;
    while (set.next()) {
      it = set.at().iterator(it);
      while (it.next()) read++;
    }
    q.close();
  });
  await db.close();
  console.log(
    JSON.stringify({
      bench: 'tsdb.head-memory',
      series,
      scrapes,
      samples: written.samples,
      samplesPerSec: Math.round(written.samples / written.appendSeconds),
      samplesPerCpuSec: Math.round(written.samples / written.appendCpuSeconds),
      cpuPerWall: Number((written.appendCpuSeconds / written.appendSeconds).toFixed(2)),
      gcShareOfCpu: Number((gcPauses.pauseMs / 1000 / written.appendCpuSeconds).toFixed(4)),
      gcShareOfWall: Number((gcPauses.pauseMs / 1000 / written.appendSeconds).toFixed(4)),
      gcShareProfile,
      gcPauses: gcPauses.pauses,
      gcPauseMs: Math.round(gcPauses.pauseMs),
      gcMajorPauseMs: Math.round(gcPauses.majorPauseMs),
      headBytesPerSeries: gc ? Math.round(heapBytes / series) : null,
      heapUsedBytes: after.heapUsed,
      arrayBuffersBytes: after.arrayBuffers,
      rssBytes: after.rss,
      selectAllMs: Number(selects[1].toFixed(1)),
      readAllMs: Math.round(readMs),
      readSamplesPerSec: Math.round(read / (readMs / 1000)),
      samplesRead: read,
    }),
  );
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
