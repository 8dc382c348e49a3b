/**
 * Speed of the demo's history replay (src/server/demo-history.ts): a scenario (default `demo`)
 * simulated from BENCH_HISTORY ago (default 3h) up to now in virtual time, scraped in-process
 * through the scrape manager into a fresh embedded store through the normalizer — what
 * `infersight demo --history 3h` does before it is ready. Prints virtual seconds replayed per real
 * second and samples written per second (both over the whole replay, wall time), and how the CPU
 * splits between the simulation, the scrapes and the rest, measured by a second run without the
 * store.
 *
 * Env: BENCH_HISTORY (Prometheus duration, default 3h), BENCH_SCENARIO (default demo), BENCH_SEED (default 1).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadScrapeConfigFile } from '../../src/ingest/scrape/index.js';
import { noopLogger, parseDurationMs, systemClock } from '../../src/model/index.js';
import { NormalizingAppendable } from '../../src/normalize/index.js';
import { demoScrapeConfig } from '../../src/server/demo.js';
import { replayHistory } from '../../src/server/demo-history.js';
import { startSimulation } from '../../src/sim/index.js';
import { Db } from '../../src/tsdb/index.js';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';

const historyMs = parseDurationMs(process.env.BENCH_HISTORY ?? '3h') ?? 3 * 3_600_000;
const scenario = process.env.BENCH_SCENARIO ?? 'demo';
const seed = Number(process.env.BENCH_SEED ?? 1);

const t = tempDir('bench-history');
try {
  const fileSdPath = path.join(t.dir, 'file_sd.json');
  const configFile = path.join(t.dir, 'scrape.yml');
  writeFileSync(configFile, demoScrapeConfig(fileSdPath, '15s'));
  const scrapeConfig = await loadScrapeConfigFile(configFile);
  const startMs = systemClock() - historyMs;
  const sim = await startSimulation({ scenario, seed, mode: 'manual', startMs, fileSdPath, speed: 1 });
  const db = await Db.open({ dir: path.join(t.dir, 'data'), logger: noopLogger, clock: systemClock });
  const cpu0 = process.cpuUsage();
  const r = await replayHistory({ sim, appendable: new NormalizingAppendable(db, { keepRaw: false }), scrapeConfig, fileSdPath, clock: systemClock, logger: noopLogger, hostname: 'bench' });
  const cpu = process.cpuUsage(cpu0);
  await sim.close();
  await db.close();
  const s = r.elapsedMs / 1000;
  const out = {
    bench: 'sim/history',
    scenario,
    historyS: historyMs / 1000,
    replayWallS: Number(s.toFixed(2)),
    cpuS: Number(((cpu.user + cpu.system) / 1e6).toFixed(2)),
    virtualSecondsPerSec: Math.round((r.endMs - r.startMs) / 1000 / s),
    samplesPerSec: Math.round(r.samples / s),
    samples: r.samples,
    scrapes: r.scrapes,
  };
  process.stdout.write(JSON.stringify(out) + '\n');
} finally {
  t.remove();
}
