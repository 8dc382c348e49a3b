/**
 * `startSimulation`: a simulated fleet behind one HTTP listener, driven in real time (optionally
 * sped up) or by hand (`advanceTo`, for tests and for a history replay, which then `goLive`s),
 * writing a file_sd file and the ground truth as it goes. `infersight sim` is this plus flags;
 * `infersight demo` adds the server and a scrape config that reads the file_sd file, and mounts
 * `handlers` for `/api/v1/sim/*`.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { dirname } from 'node:path';
import { formatHostPort, listenOn } from '../http/index.js';
import { noopLogger, systemClock, type Clock, type Logger, type UnixMs } from '../model/index.js';
import { simApiHandlers, type SimApiHandlers } from './api.js';
import type { GroundTruthEntry } from './faults.js';
import { handleSimRequest, type SimHttpContext } from './http.js';
import { scenarioByName } from './scenarios.js';
import { Simulation } from './simulation.js';
import type { FaultSpec, ScenarioSpec } from './spec.js';
import { targetMetrics, type TargetMetricsResponse } from './target-metrics.js';
import { TargetRegistry, fileSdGroups, type FileSdGroup, type SimTarget } from './targets.js';

/** Options of `startSimulation`. */
export interface StartSimulationOptions {
  /** A built-in scenario name (`demo`, `steady`, a fault kind) or a scenario value. */
  readonly scenario: string | ScenarioSpec;
  readonly seed?: number;
  /** Virtual seconds per real second once the run is live (default 1). */
  readonly speed?: number;
  /**
   * `realtime` (default): a timer advances the simulation from the clock's now; `manual`: only
   * `advanceTo` does, until `goLive` hands the run over to the timer.
   */
  readonly mode?: 'realtime' | 'manual';
  /**
   * Virtual time of the start and base of the scenario's fault offsets (default: the clock's
   * now). A history replay starts in the past in manual mode and goes live once caught up.
   */
  readonly startMs?: UnixMs;
  /** `host:port` to listen on (default `127.0.0.1:0`, a free port). */
  readonly listen?: string;
  /** Where to keep a file_sd JSON file of the targets (rewritten atomically when they change). */
  readonly fileSdPath?: string;
  /** Where to keep the ground truth JSON (rewritten when a fault is injected). */
  readonly groundTruthPath?: string;
  readonly tickMs?: number;
  readonly clock?: Clock;
  readonly logger?: Logger;
}

/** A running simulation. */
export interface RunningSimulation {
  readonly simulation: Simulation;
  /** `host:port` of the listener, as file_sd targets name it, and its base URL. */
  readonly address: string;
  readonly url: string;
  /** The control API handlers, for mounting on another server. */
  readonly handlers: SimApiHandlers;
  targets(): SimTarget[];
  fileSdGroups(): FileSdGroup[];
  /** Writes the file_sd JSON to `path` (atomically). */
  writeFileSd(path: string): Promise<void>;
  groundTruth(): GroundTruthEntry[];
  /** Injects a fault starting `spec.startMs` from now. */
  injectFault(spec: FaultSpec): GroundTruthEntry;
  /** Manual mode: advances virtual time to `tMs` and brings targets and files up to date. */
  advanceTo(tMs: UnixMs): Promise<void>;
  /**
   * Hands a manual-mode run over to real time: from the clock's now on (or from where the
   * simulation stands, when that is ahead), virtual time runs `speed` times as fast as the clock,
   * onward from the simulation's state: nothing jumps. Ground-truth times after that point map
   * through the speed; the file_sd and ground-truth files are rewritten. A no-op once live.
   */
  goLive(): Promise<void>;
  /** True once the run follows the clock (at once in `realtime` mode, after `goLive` in `manual`). */
  readonly live: boolean;
  /** Target `id`'s `/metrics` answer for `accept`, rendered in-process (what the listener would send). */
  targetMetrics(id: string, accept: string): TargetMetricsResponse;
  close(): Promise<void>;
}

async function writeAtomic(path: string, body: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, body);
  await rename(tmp, path);
}

/** Builds the fleet, starts the listener and (in real-time mode) the clock. */
export async function startSimulation(o: StartSimulationOptions): Promise<RunningSimulation> {
  const clock = o.clock ?? systemClock;
  const logger = o.logger ?? noopLogger;
  const scenario = typeof o.scenario === 'string' ? scenarioByName(o.scenario) : o.scenario;
  const speed = o.speed ?? 1;
  // Real time ticks at most every 100 ms of wall time, so streamed tokens arrive smoothly; a
  // manual run (a test, a history replay) ticks whole virtual seconds.
  const liveTickMs = o.tickMs ?? Math.min(1000, Math.max(100, 100 * speed));
  // Until the run is live, virtual time is wall time (a replay writes samples at speed 1); from
  // `liveFromMs` on, virtual time runs `speed` times as fast as the clock.
  let liveFromMs: number | undefined;
  const toWall = (v: number): UnixMs => (liveFromMs === undefined || v <= liveFromMs ? v : liveFromMs + (v - liveFromMs) / speed);
  const startMs = o.startMs ?? clock();
  const sim = new Simulation({ scenario, seed: o.seed ?? 1, startMs, tickMs: o.mode === 'manual' ? (o.tickMs ?? 1000) : liveTickMs, toWallMs: toWall });
  const registry = new TargetRegistry(sim);
  const virtualNow = (): number => (liveFromMs === undefined ? sim.nowMs : liveFromMs + (clock() - liveFromMs) * speed);
  let address = '';
  const groups = (): FileSdGroup[] => fileSdGroups(registry.list(), address);
  let writtenVersion = -1;
  let writing = Promise.resolve();
  const persist = (force = false): Promise<void> => {
    registry.sync();
    if (o.fileSdPath !== undefined && (force || registry.version !== writtenVersion)) {
      writtenVersion = registry.version;
      const body = JSON.stringify(groups(), null, 2) + '\n';
      const path = o.fileSdPath;
      writing = writing.then(() => writeAtomic(path, body)).catch((e: unknown) => logger.error('sim: writing file_sd failed', { path, err: String(e) }));
    }
    return writing;
  };
  const writeGroundTruth = (): void => {
    const path = o.groundTruthPath;
    if (path === undefined) return;
    const body = JSON.stringify(sim.groundTruth(), null, 2) + '\n';
    writing = writing.then(() => writeAtomic(path, body)).catch((e: unknown) => logger.error('sim: writing ground truth failed', { path, err: String(e) }));
  };
  const handlers = simApiHandlers(sim, groups, writeGroundTruth);
  const ctx: SimHttpContext = {
    sim,
    targets: registry,
    api: handlers,
    wallNow: clock,
    pace: (tMs) => (liveFromMs === undefined ? 0 : Math.max(0, (tMs - virtualNow()) / speed)),
  };
  const server: Server = createServer((req, res) => {
    handleSimRequest(ctx, req, res).catch((e: unknown) => {
      logger.error('sim: request failed', { path: req.url, err: String(e) });
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  address = formatHostPort(await listenOn(server, o.listen ?? '127.0.0.1:0'));
  let timer: ReturnType<typeof setInterval> | undefined;
  const goLive = async (): Promise<void> => {
    if (liveFromMs !== undefined) return;
    // Behind the clock (the rest of a replay's last tick, the listener's start), the simulation
    // catches up at speed 1 on its first live tick; ahead of it, it waits for the clock.
    liveFromMs = Math.max(sim.nowMs, clock());
    sim.tickMs = liveTickMs;
    sim.speed = speed;
    timer = setInterval(() => {
      sim.advanceTo(virtualNow());
      void persist();
    }, Math.max(20, sim.tickMs / speed));
    timer.unref();
    writeGroundTruth();
    await persist(true);
  };
  if (o.mode === 'manual') {
    writeGroundTruth();
    await persist(true);
  } else await goLive();
  logger.info('sim: started', { scenario: scenario.name, address, targets: registry.list().length, speed: o.mode === 'manual' ? 'manual' : speed });
  return {
    simulation: sim,
    address,
    url: `http://${address}`,
    handlers,
    targets: () => (registry.sync(), registry.list()),
    fileSdGroups: () => (registry.sync(), groups()),
    writeFileSd: (path) => writeAtomic(path, JSON.stringify((registry.sync(), groups()), null, 2) + '\n'),
    groundTruth: () => sim.groundTruth(),
    injectFault: (spec) => {
      const e = sim.injectFault(spec);
      writeGroundTruth();
      return e;
    },
    advanceTo: async (tMs) => {
      sim.advanceTo(tMs);
      await persist();
    },
    goLive,
    get live() {
      return liveFromMs !== undefined;
    },
    targetMetrics: (id, accept) => (registry.sync(), targetMetrics(registry, id, accept)),
    close: async () => {
      if (timer !== undefined) clearInterval(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await writing;
    },
  };
}
