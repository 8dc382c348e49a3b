/**
 * `startSimulation`: a simulated fleet behind one HTTP listener, driven in real time (optionally
 * sped up) or by hand (`advanceTo`, for tests), writing a file_sd file and the ground truth as it
 * goes. `infersight sim` is this plus flags; `infersight demo` adds the server and a scrape config
 * that reads the file_sd file, and mounts `handlers` for `/api/v1/sim/*`.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { noopLogger, systemClock, type Clock, type Logger, type UnixMs } from '../model/index.js';
import { simApiHandlers, type SimApiHandlers } from './api.js';
import type { GroundTruthEntry } from './faults.js';
import { handleSimRequest, type SimHttpContext } from './http.js';
import { scenarioByName } from './scenarios.js';
import { Simulation } from './simulation.js';
import type { FaultSpec, ScenarioSpec } from './spec.js';
import { TargetRegistry, fileSdGroups, type FileSdGroup, type SimTarget } from './targets.js';

/** Options of `startSimulation`. */
export interface StartSimulationOptions {
  /** A built-in scenario name (`demo`, `steady`, a fault kind) or a scenario value. */
  readonly scenario: string | ScenarioSpec;
  readonly seed?: number;
  /** Virtual seconds per real second (default 1). Ignored in manual mode. */
  readonly speed?: number;
  /** `realtime` (default): a timer advances the simulation; `manual`: only `advanceTo` does. */
  readonly mode?: 'realtime' | 'manual';
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
  close(): Promise<void>;
}

function parseListen(addr: string): { host: string; port: number } {
  const i = addr.lastIndexOf(':');
  const port = Number(addr.slice(i + 1));
  if (i < 0 || !Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`sim: invalid listen address ${JSON.stringify(addr)}: want host:port`);
  return { host: addr.slice(0, i).replace(/^\[(.*)\]$/, '$1') || '0.0.0.0', port };
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
  const manual = o.mode === 'manual';
  const wallStart = clock();
  const toWall = (v: number): UnixMs => (manual ? v : wallStart + (v - wallStart) / speed);
  const sim = new Simulation({ scenario, seed: o.seed ?? 1, startMs: wallStart, tickMs: o.tickMs ?? (manual ? 1000 : Math.min(1000, Math.max(100, 100 * speed))), toWallMs: toWall });
  const registry = new TargetRegistry(sim);
  const virtualNow = (): number => (manual ? sim.nowMs : wallStart + (clock() - wallStart) * speed);
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
    pace: (tMs) => (manual ? 0 : Math.max(0, (tMs - virtualNow()) / speed)),
  };
  const server: Server = createServer((req, res) => {
    handleSimRequest(ctx, req, res).catch((e: unknown) => {
      logger.error('sim: request failed', { path: req.url, err: String(e) });
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  const { host, port } = parseListen(o.listen ?? '127.0.0.1:0');
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const a = server.address() as AddressInfo;
  address = `${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}`;
  await persist(true);
  writeGroundTruth();
  let timer: ReturnType<typeof setInterval> | undefined;
  if (!manual) {
    timer = setInterval(() => {
      sim.advanceTo(virtualNow());
      void persist();
    }, Math.max(20, sim.tickMs / speed));
    timer.unref();
  }
  logger.info('sim: started', { scenario: scenario.name, address, targets: registry.list().length, speed: manual ? 'manual' : speed });
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
    close: async () => {
      if (timer !== undefined) clearInterval(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await writing;
    },
  };
}
