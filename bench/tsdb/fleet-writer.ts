/**
 * Writes the fleet data set into a `Db` the way a scraper would: one appender and one commit per
 * instance and scrape, with series refs cached. Shared by the TSDB benchmarks.
 */
import type { Db } from '../../src/tsdb/index.js';
import { instance, requestsPerScrape, rng, scrapeTimeMs, type DatasetInstance } from './fleet-dataset.js';

/** Where a fleet write starts and how much it writes. */
export interface FleetWrite {
  instances: number;
  scrapes: number;
  startMs?: number;
  seed?: number;
  /** Called after every scrape round (e.g. to run compaction). */
  afterScrape?: (k: number) => Promise<void>;
  /** Called after each round's timed loop with its `performance.now()` bounds (to attribute GC pauses). */
  timed?: (startMs: number, endMs: number) => void;
}

/** The start of every benchmark data set: 2025-12-01T00:00:00Z. */
export const BENCH_START_MS = 1_764_547_200_000;

/** What a fleet write did: samples and series written, and the wall and CPU seconds spent inside append/commit. */
export interface FleetWritten {
  samples: number;
  series: number;
  appendSeconds: number;
  /** Process CPU (user + system, every thread) during the timed loops. */
  appendCpuSeconds: number;
}

/** Appends the data set; returns what it wrote and the time spent inside append/commit. */
export async function writeFleet(db: Db, w: FleetWrite): Promise<FleetWritten> {
  const r = rng(w.seed ?? 1);
  const fleet: DatasetInstance[] = Array.from({ length: w.instances }, (_, i) => instance(i, r));
  const refs = fleet.map((f) => new Array<number>(f.series.length).fill(0));
  const startMs = w.startMs ?? BENCH_START_MS;
  let samples = 0;
  let appendSeconds = 0;
  let appendCpuMicros = 0;
  const vals = fleet.map((f) => new Float64Array(f.series.length));
  const ts = new Float64Array(w.instances);
  for (let k = 0; k < w.scrapes; k++) {
    // Values are drawn before the timed loop, so it measures the store, not the generator.
    for (let i = 0; i < w.instances; i++) {
      const f = fleet[i];
      const n = requestsPerScrape(f.rate, r);
      const v = vals[i];
      for (let j = 0; j < f.series.length; j++) v[j] = f.series[j].next(n, r);
      ts[i] = scrapeTimeMs(startMs, i, k, r);
    }
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < w.instances; i++) {
      const series = fleet[i].series;
      const ref = refs[i];
      const v = vals[i];
      const app = db.appender();
      for (let j = 0; j < series.length; j++) ref[j] = app.append(ref[j], series[j].labels, ts[i], v[j]);
      await app.commit();
      samples += series.length;
    }
    const cpu = process.cpuUsage(cpu0);
    const t1 = performance.now();
    appendCpuMicros += cpu.user + cpu.system;
    appendSeconds += (t1 - t0) / 1000;
    w.timed?.(t0, t1);
    if (w.afterScrape) await w.afterScrape(k);
  }
  return { samples, series: fleet.reduce((n, f) => n + f.series.length, 0), appendSeconds, appendCpuSeconds: appendCpuMicros / 1e6 };
}
