// A simulated fleet scraped into the embedded store in virtual time, for tests that run dashboard
// queries against realistic data: the demo scenario's simulation, the real scrape manager (file_sd,
// target labels, `up`, staleness) on fake timers, the normalizer, the TSDB and the PromQL engine
// behind a QueryClient. No HTTP, no sleeping; 15 virtual minutes take a few seconds.
import { FakeTimers } from '../../src/model/testing/fake-timers.js';
import { FakeFs } from '../../src/ingest/scrape/testing/harness.js';
import { ScrapeManager, parseScrapeConfigFile, type ScrapeFetch } from '../../src/ingest/scrape/index.js';
import { createCostEvaluator, defaultBenchmarkCatalog, defaultPriceCatalog } from '../../src/cost/index.js';
import { MemoryLogger } from '../../src/model/index.js';
import { NormalizingAppendable } from '../../src/normalize/index.js';
import { Engine, EngineQueryClient } from '../../src/promql/index.js';
import type { QueryClient } from '../../src/query/index.js';
import type { Appendable } from '../../src/storage/index.js';
import { catalogMetadata } from '../../src/semconv/index.js';
import { demoScrapeConfig } from '../../src/server/demo.js';
import { appendableSink } from '../../src/server/series-sink.js';
import { Simulation, TargetRegistry, fileSdGroups, scenarioByName, type FaultSpec } from '../../src/sim/index.js';
import { Db } from '../../src/tsdb/index.js';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';
import { TEXT_CONTENT_TYPE } from '../../src/wire/index.js';

/** A fleet that has been running and scraped. */
export interface LiveFleet {
  readonly client: QueryClient;
  readonly simulation: Simulation;
  /** Virtual time now (the end of the run), Unix ms. */
  readonly nowMs: number;
  close(): Promise<void>;
}

/** Options of `runLiveFleet`. */
export interface LiveFleetOptions {
  readonly scenario?: string;
  readonly seed?: number;
  /** Virtual run time, ms. */
  readonly durationMs: number;
  readonly scrapeIntervalS?: number;
  /** Faults injected at the start (their `startMs`/`endMs` are offsets from it). */
  readonly faults?: readonly FaultSpec[];
  /**
   * Called after every simulated second with the virtual time, the store and the query client, while
   * the fleet runs (rule evaluation in test/rules writes recorded series back into the store).
   */
  readonly onStep?: (nowMs: number, appendable: Appendable, client: QueryClient) => Promise<void>;
  /**
   * Runs src/cost's evaluator at every scrape interval, as the server does (it writes the cost and
   * benchmark series the Insights and Cost panels read).
   */
  readonly cost?: boolean;
  /** Called once with the simulation before it runs (ground-truth tests read its state in `onStep`). */
  readonly onSimulation?: (simulation: Simulation) => void;
}

const SD_FILE = '/sd/file_sd.json';
const START_MS = Date.UTC(2025, 0, 6, 9, 0, 0);

function body(text: string): AsyncIterable<Uint8Array> {
  return (async function* () {
    yield Buffer.from(text);
  })();
}

/** Runs the simulation for `durationMs` of virtual time, scraping every target as `infersight demo` would. */
export async function runLiveFleet(o: LiveFleetOptions): Promise<LiveFleet> {
  const timers = new FakeTimers(START_MS);
  const logger = new MemoryLogger();
  const simulation = new Simulation({ scenario: scenarioByName(o.scenario ?? 'demo'), seed: o.seed ?? 1, startMs: START_MS });
  for (const f of o.faults ?? []) simulation.injectFault(f);
  o.onSimulation?.(simulation);
  const registry = new TargetRegistry(simulation);
  const fs = new FakeFs();
  let sdVersion = -1;
  const syncTargets = (): void => {
    registry.sync();
    if (registry.version === sdVersion) return;
    sdVersion = registry.version;
    fs.files.set(SD_FILE, JSON.stringify(fileSdGroups(registry.list(), 'sim.invalid:80')));
    fs.notify();
  };
  syncTargets();
  const fetch: ScrapeFetch = (req) => {
    const id = /^\/targets\/([^/]+)\/metrics$/.exec(new URL(req.url).pathname)?.[1];
    const target = id === undefined ? undefined : registry.get(id);
    if (target === undefined) return Promise.reject(new Error(`dial tcp ${req.url}: connection refused`));
    if (!target.available()) return Promise.resolve({ status: 503, statusText: 'Service Unavailable', contentType: 'text/plain', body: body('loading\n') });
    return Promise.resolve({ status: 200, statusText: 'OK', contentType: TEXT_CONTENT_TYPE, body: body(target.families().renderText()) });
  };

  const t = tempDir('dashboards-live');
  const db = await Db.open({ dir: t.dir, fsync: { mode: 'never' }, logger, clock: timers.clock });
  const manager = new ScrapeManager({
    appendable: new NormalizingAppendable(db),
    logger,
    clock: timers.clock,
    timers,
    fetch,
    readFile: (f) => fs.readFile(f),
    fileSdFs: fs,
    watchDirs: fs.watch,
    hostname: 'test',
  });
  const interval = `${o.scrapeIntervalS ?? 15}s`;
  await manager.applyConfig(parseScrapeConfigFile(demoScrapeConfig(SD_FILE, interval), '/cfg/scrape.yml'));
  const engine = new Engine({ now: timers.clock });
  const client = new EngineQueryClient({ engine, queryable: db, metadata: catalogMetadata });
  const stepMs = 1000;
  const scrapeMs = (o.scrapeIntervalS ?? 15) * 1000;
  const cost = o.cost === true ? createCostEvaluator({ client, sink: appendableSink(db), prices: defaultPriceCatalog, benchmarks: defaultBenchmarkCatalog, intervalMs: scrapeMs, scrapeIntervalMs: scrapeMs }) : null;
  for (let elapsed = 0; elapsed < o.durationMs; elapsed += stepMs) {
    simulation.advanceTo(timers.now + stepMs);
    syncTargets();
    await timers.advance(stepMs);
    if (cost !== null && timers.now % scrapeMs === 0) await cost.evaluate(timers.now);
    await o.onStep?.(timers.now, db, client);
  }
  return {
    client,
    simulation,
    nowMs: timers.now,
    close: async () => {
      await manager.stop();
      await db.close();
      t.remove();
    },
  };
}
