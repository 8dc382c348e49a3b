/**
 * The dashboard benchmark's data (dashboard-http.bench.ts): the simulated `fleet-<N>` scraped
 * every 15 s for `historyMs` up to `endMs`, as `infersight demo --history` replays it (the scrape
 * manager on virtual timers, through the normalizer, so series carry the catalog names the
 * dashboards query), into a scratch `Db`; then every series read back once and written into
 * three stores: a fresh `Db` directory for `infersight serve`, an OpenMetrics file for promtool's
 * backfill (Prometheus) and VictoriaMetrics' JSON-lines import (`/api/v1/import`).
 *
 * Non-finite values (stale markers, the simulator's NaN gauges) are left out of all three: neither
 * OpenMetrics backfill nor the JSON import carries stale markers, and JSON has no NaN. So the
 * stores hold exactly the same samples.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadScrapeConfigFile } from '../../src/ingest/scrape/index.js';
import { Matcher, noopLogger, type Labels } from '../../src/model/index.js';
import { NormalizingAppendable } from '../../src/normalize/index.js';
import { demoScrapeConfig } from '../../src/server/demo.js';
import { replayHistory } from '../../src/server/demo-history.js';
import { startSimulation } from '../../src/sim/index.js';
import { Db } from '../../src/tsdb/index.js';
import { OpenMetricsFile, openMetricsValue } from './prometheus-peer.js';

/** What `simulateFleet` wrote. */
export interface SimulatedFleet {
  readonly scratch: Db;
  readonly samples: number;
  readonly replaySeconds: number;
}

/**
 * Replays `fleet-<instances>` from `endMs - historyMs` to `endMs` into a new `Db` under `dir`. The
 * replay's wall clock is pinned at `endMs`, so it stops there whatever the real time.
 */
export async function simulateFleet(instances: number, historyMs: number, endMs: number, dir: string, seed = 1): Promise<SimulatedFleet> {
  const t0 = performance.now();
  const fileSdPath = path.join(dir, 'file_sd.json');
  const configFile = path.join(dir, 'scrape.yml');
  writeFileSync(configFile, demoScrapeConfig(fileSdPath, '15s'));
  const scrapeConfig = await loadScrapeConfigFile(configFile);
  const clock = (): number => endMs;
  const sim = await startSimulation({ scenario: `fleet-${instances}`, seed, mode: 'manual', startMs: endMs - historyMs, fileSdPath, speed: 1, clock });
  const scratch = await Db.open({ dir: path.join(dir, 'scratch'), fsync: { mode: 'never' }, logger: noopLogger, clock });
  try {
    const r = await replayHistory({ sim, appendable: new NormalizingAppendable(scratch), scrapeConfig, fileSdPath, clock, logger: noopLogger, hostname: 'bench' });
    return { scratch, samples: r.samples, replaySeconds: (performance.now() - t0) / 1000 };
  } finally {
    await sim.close();
  }
}

/** What `exportStores` wrote into each store. */
export interface ExportedStores {
  readonly series: number;
  readonly samples: number;
  readonly minTMs: number;
  readonly maxTMs: number;
  readonly openMetricsBytes: number;
  readonly vmImportBytes: number;
  readonly seconds: number;
}

/** Where `exportStores` writes. */
export interface ExportTargets {
  /** Our store, written through its appender. */
  readonly ours: Db;
  /** The OpenMetrics file for promtool. */
  readonly openMetricsFile: string;
  /** Sends one body of JSON lines to VictoriaMetrics' `/api/v1/import`. */
  readonly vmImport: (body: string) => Promise<void>;
}

/** Bytes of JSON lines per VictoriaMetrics import request. */
const VM_BODY_BYTES = 8 << 20;
/** Samples per commit into our store. */
const COMMIT_SAMPLES = 200_000;

/**
 * Our store takes samples no older than its newest minus half a block range (1 h): it is written
 * in passes over windows of this length, every series' samples of one window per pass.
 */
const OURS_WINDOW_MS = 30 * 60_000;

/**
 * Reads every series of `from` once (sorted by labels, so each metric family is contiguous, as
 * OpenMetrics requires) and writes its finite samples into the three targets: OpenMetrics and
 * VictoriaMetrics series by series, our store afterwards in time windows (`OURS_WINDOW_MS`).
 */
export async function exportStores(from: Db, to: ExportTargets): Promise<ExportedStores> {
  const t0 = performance.now();
  const q = from.querier(-Infinity, Infinity);
  const set = q.select([new Matcher('=~', '__name__', '.+')]);
  const om = new OpenMetricsFile(to.openMetricsFile);
  const kept: { labels: Labels; ts: Float64Array; vs: Float64Array }[] = [];
  let vmBody: string[] = [];
  let vmBodyBytes = 0;
  let vmImportBytes = 0;
  let samples = 0;
  let minTMs = Infinity;
  let maxTMs = -Infinity;
  const ts: number[] = [];
  const vs: number[] = [];
  const flushVm = async (): Promise<void> => {
    if (vmBody.length === 0) return;
    const body = vmBody.join('');
    vmImportBytes += body.length;
    vmBody = [];
    vmBodyBytes = 0;
    await to.vmImport(body);
  };
  try {
    while (set.next()) {
      const s = set.at();
      const it = s.iterator();
      ts.length = 0;
      vs.length = 0;
      while (it.next()) {
        const { tMs, value } = it.at();
        if (!Number.isFinite(value)) continue;
        ts.push(tMs);
        vs.push(value);
      }
      const itErr = it.err();
      if (itErr !== null) throw itErr;
      if (ts.length === 0) continue;
      samples += ts.length;
      minTMs = Math.min(minTMs, ts[0]);
      maxTMs = Math.max(maxTMs, ts[ts.length - 1]);
      const labels: Labels = s.labels;
      kept.push({ labels, ts: Float64Array.from(ts), vs: Float64Array.from(vs) });
      const head = OpenMetricsFile.head(labels);
      for (let i = 0; i < ts.length; i++) om.text(head, `${openMetricsValue(vs[i])} ${ts[i] / 1000}\n`);
      const line = `${JSON.stringify({ metric: labels.toRecord(), values: vs, timestamps: ts })}\n`;
      vmBody.push(line);
      vmBodyBytes += line.length;
      if (vmBodyBytes >= VM_BODY_BYTES) await flushVm();
    }
    const setErr = set.err();
    if (setErr !== null) throw setErr;
    await flushVm();
  } finally {
    om.close();
    q.close();
  }
  await writeInWindows(to.ours, kept, minTMs, maxTMs);
  return { series: kept.length, samples, minTMs, maxTMs, openMetricsBytes: om.bytes, vmImportBytes, seconds: (performance.now() - t0) / 1000 };
}

/** Appends `series` to `db` one `OURS_WINDOW_MS` window at a time, committing every `COMMIT_SAMPLES`. */
async function writeInWindows(db: Db, series: readonly { labels: Labels; ts: Float64Array; vs: Float64Array }[], minTMs: number, maxTMs: number): Promise<void> {
  const next = new Int32Array(series.length);
  const refs = new Float64Array(series.length);
  let app = db.appender();
  let pending = 0;
  for (let lo = minTMs; lo <= maxTMs; lo += OURS_WINDOW_MS) {
    const hi = lo + OURS_WINDOW_MS;
    for (let k = 0; k < series.length; k++) {
      const { labels, ts, vs } = series[k];
      let i = next[k];
      for (; i < ts.length && ts[i] < hi; i++) refs[k] = app.append(refs[k], labels, ts[i], vs[i]);
      pending += i - next[k];
      next[k] = i;
      if (pending >= COMMIT_SAMPLES) {
        await app.commit();
        app = db.appender();
        pending = 0;
      }
    }
  }
  await app.commit();
}
