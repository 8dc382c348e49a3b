import { mkdir, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { basename, join } from 'node:path';
import { formatPromDuration, parsePromDuration } from '../config/index.js';
import { loadScrapeConfigFile } from '../ingest/index.js';
import type { DurationMs } from '../model/index.js';
import { RULE_PACK_FILE, rulePackYaml } from '../rules/index.js';
import { FAULT_DEFAULTS, HONOR_LABELS_JOBS, scenarioByName, startSimulation, type RunningSimulation, type ScenarioSpec } from '../sim/index.js';
import { replayHistory, type HistoryDeriver, type HistoryProgress, type HistoryReport } from './demo-history.js';
import { DemoLoad } from './demo-load.js';
import { gatewayConfigForSim } from './gateway.js';
import { JUDGE_DEFAULTS, type QualityConfig } from './quality-config.js';
import { startServer, type RunningServer, type ServeOptions } from './serve.js';
import type { QueryClient } from '../query/index.js';
import type { Appendable } from '../storage/index.js';

/** The gateway part of the demo: where it listens and how much of the load goes through it. */
export interface DemoGatewayOptions {
  /** `host:port` of the gateway (default `127.0.0.1:9310`; a free port when that is busy, unless `listenRequired`). */
  readonly listen?: string;
  readonly listenRequired?: boolean;
  /** Share of the simulated arrivals sent through the gateway (default 0.25). */
  readonly share?: number;
  /** Most requests per real second through the gateway (default 10). */
  readonly maxPerSec?: number;
}

/** Options of `startDemo`: a server's options plus the simulated fleet's. */
export interface DemoOptions extends Omit<ServeOptions, 'scrape' | 'sim' | 'gateway'> {
  /** A built-in scenario (`demo` by default; `infersight sim --list` names the others) or a scenario value (a scenario file). */
  readonly scenario?: string | ScenarioSpec;
  /**
   * On a fresh data directory, the span of history to simulate and write before going live
   * (src/server/demo-history.ts; default none). With `fit`, a fleet too big to replay that much
   * in about 20 s gets a shorter history (`historyFit`).
   */
  readonly history?: { readonly durationMs: DurationMs; readonly fit?: boolean; readonly onProgress?: (p: HistoryProgress) => void };
  readonly seed?: number;
  /** Virtual seconds per real second (default 1). */
  readonly speed?: number;
  /** How often the simulated targets are scraped (Prometheus duration, default `15s`); also the gateway's flush interval. */
  readonly scrapeInterval?: string;
  /** The gateway in front of the simulated replicas (on by default); `false`: none. */
  readonly gateway?: DemoGatewayOptions | false;
}

/** A running demo: the server and the fleet it scrapes. */
export interface RunningDemo {
  readonly server: RunningServer;
  readonly sim: RunningSimulation;
  /** The clients that send a share of the load through the gateway (null without a gateway). */
  readonly load: DemoLoad | null;
  /** The history being replayed (its span, after `historyFit`); null when there is none (not asked for, or the data directory holds data). */
  readonly history: { readonly durationMs: DurationMs; readonly done: Promise<HistoryReport | null> } | null;
  /** Stops the server first (so that nothing scrapes a closed fleet), then the fleet. */
  close(): Promise<void>;
}

/**
 * The scrape configuration that discovers the simulated targets through their file_sd file: two
 * jobs over the same file, split on the target's `job`. The front door and platform exporters
 * (`HONOR_LABELS_JOBS`) label each series with the replica it is about, so their job honours the
 * exposed labels; every other target is scraped as usual (target labels win).
 * `fileSdPath` is written as given; file_sd paths resolve against the configuration file's
 * directory (as in Prometheus), so the demo passes a path relative to that directory.
 */
export function demoScrapeConfig(fileSdPath: string, scrapeInterval: string, ruleFiles: readonly string[] = []): string {
  const job = (name: string, action: 'keep' | 'drop', honor: boolean): string[] => [
    `  - job_name: ${name}`,
    ...(honor ? ['    honor_labels: true'] : []),
    '    file_sd_configs:',
    `      - files: [${JSON.stringify(fileSdPath)}]`,
    '        refresh_interval: 5s',
    '    relabel_configs:',
    '      - source_labels: [job]',
    `        regex: ${JSON.stringify(HONOR_LABELS_JOBS.join('|'))}`,
    `        action: ${action}`,
  ];
  return [
    '# Written by `infersight demo`: scrape the simulated fleet through its file_sd file, and',
    '# evaluate the rule files (the default LLM rule pack, and any *.yml put beside it).',
    'global:',
    `  scrape_interval: ${scrapeInterval}`,
    `  scrape_timeout: ${scrapeInterval}`,
    `  evaluation_interval: ${scrapeInterval}`,
    ...(ruleFiles.length === 0 ? [] : ['rule_files:', ...ruleFiles.map((f) => `  - ${JSON.stringify(f)}`)]),
    'scrape_configs:',
    ...job('sim', 'drop', false),
    ...job('sim-exporters', 'keep', true),
    '',
  ].join('\n');
}

/**
 * The demo's gateway settings beyond the models (snake_case, as in a gateway YAML file). Health
 * checks slow down with the fleet's size (about 25 probes a second at most).
 */
function demoGatewaySettings(flushInterval: string, replicas: number): Record<string, unknown> {
  return {
    flush_interval: flushInterval,
    health_check: { interval: `${Math.max(2, Math.ceil(replicas / 25))}s`, timeout: '1s' },
    upstream: { retries: 1 },
    sampling: { rate: DEMO_SAMPLING_RATE },
  };
}

/** Share of the demo's real requests through the gateway that are sampled for quality evaluation. */
export const DEMO_SAMPLING_RATE = 0.2;

/** The simulator's judge model (src/sim/openai.ts answers it at the simulation's OpenAI URL). */
export const DEMO_JUDGE_MODEL = 'infersight-sim-judge';

/**
 * The demo's quality settings: the embedded store in `<data>/quality` (the wiring's default),
 * every gateway sample evaluated by stage 1, and a share of them judged by the simulator's judge.
 */
export function demoQualityDefaults(simUrl: string): Partial<QualityConfig> {
  return { judge: { baseURL: `${simUrl}/v1`, model: DEMO_JUDGE_MODEL, apiKeyFile: null, ...JUDGE_DEFAULTS, share: 0.25 } };
}

/**
 * `infersight demo`: the simulated fleet, and the embedded server scraping it (file_sd written
 * under `<data>/sim/`), with the fault API mounted on the server, and the gateway in front of the
 * simulated replicas carrying a bounded share of the load (src/server/demo-load.ts). The same
 * parts as `serve` and `sim`, wired in one process.
 */
export async function startDemo(o: DemoOptions): Promise<RunningDemo> {
  const fresh = await isFreshDataDir(o.storage.dir);
  const dir = join(o.storage.dir, 'sim');
  await mkdir(dir, { recursive: true });
  const fileSdPath = join(dir, 'file_sd.json');
  const configFile = join(dir, 'scrape.yml');
  const scenario = typeof o.scenario === 'object' ? o.scenario : scenarioByName(o.scenario ?? 'demo');
  const scrapeInterval = o.scrapeInterval ?? '15s';
  const intervalMs = parsePromDuration(scrapeInterval);
  const historyMs = !fresh || o.history === undefined ? 0 : o.history.fit === true ? historyFit(o.history.durationMs, scenario, intervalMs) : o.history.durationMs;
  const sim = await startSimulation({
    scenario,
    seed: o.seed,
    speed: o.speed,
    ...(historyMs > 0 ? { mode: 'manual' as const, startMs: o.clock() - historyMs } : {}),
    listen: '127.0.0.1:0',
    fileSdPath,
    groundTruthPath: join(dir, 'ground-truth.json'),
    logger: o.logger,
    clock: o.clock,
  });
  try {
    await sim.writeFileSd(fileSdPath);
    // The file_sd file sits beside scrape.yml, and file_sd paths resolve against the config
    // file's directory: name it by its base name, so a relative `--data` (the default `./data`)
    // finds it as well as an absolute one does.
    // The default LLM rule pack (src/rules/pack), written on every start (it is generated: an
    // operator's own rules go in other files of rules/, which the glob picks up too).
    await mkdir(join(dir, 'rules'), { recursive: true });
    await writeFile(join(dir, 'rules', RULE_PACK_FILE), rulePackYaml());
    await writeFile(configFile, demoScrapeConfig(basename(fileSdPath), scrapeInterval, ['rules/*.yml']));
    const g = o.gateway === false ? null : (o.gateway ?? {});
    const gwConfig = (): ReturnType<typeof gatewayConfigForSim> => {
      const targets = sim.targets();
      return gatewayConfigForSim(targets, sim.url, demoGatewaySettings(scrapeInterval, targets.filter((t) => t.kind === 'engine').length), { max_concurrency: 64 });
    };
    const { gateway: _gateway, history: _history, scenario: _scenario, ...serve } = o;
    let load: DemoLoad | null = null;
    let resolveHistory: (r: HistoryReport | null) => void = () => undefined;
    const done = new Promise<HistoryReport | null>((resolve) => (resolveHistory = resolve));
    const backfill =
      historyMs <= 0
        ? undefined
        : {
            description: `replaying the last ${formatPromDuration(historyMs)} of the simulated fleet`,
            // Then the rules over the same span, as if they had run live.
            rulesFromMs: o.clock() - historyMs,
            // Cost in step with the history as it is written (the server's derivers).
            run: async (ingest: Appendable, query: QueryClient, signal: AbortSignal, derivers: readonly HistoryDeriver[]): Promise<void> => {
              try {
                const report = await replayHistory({
                  sim,
                  appendable: ingest,
                  query,
                  scrapeConfig: await loadScrapeConfigFile(configFile),
                  fileSdPath,
                  clock: o.clock,
                  logger: o.logger,
                  hostname: os.hostname(),
                  onProgress: o.history?.onProgress,
                  derivers,
                  signal,
                });
                resolveHistory(report);
              } finally {
                // Live from here on, whether the replay finished or not; real clients only now.
                await sim.goLive();
                if (load !== null) sim.simulation.divertArrival = load.divert;
                resolveHistory(null);
              }
            },
          };
    const server = await startServer({
      ...serve,
      scrape: { configFile },
      sim: sim.handlers,
      gateway: g === null ? undefined : { config: gwConfig(), listen: g.listen ?? '127.0.0.1:9310', listenRequired: g.listenRequired ?? false },
      backfill,
      // The insight runner ticks with the scrape interval (and replays over the history after the rules).
      diagnose: { intervalMs, ...o.diagnose },
      // Quality on: the gateway's samples of the demo's real requests, drift at the scrape interval.
      quality: { intervalMs, ...o.quality, defaults: { ...demoQualityDefaults(sim.url), ...o.quality?.defaults } },
      // Cost over the simulated fleet: scraped rates are per wall second, `speed` virtual seconds each.
      cost: { scrapeIntervalMs: intervalMs, rateScale: () => sim.simulation.speed, ...o.cost },
    });
    let refresh: ReturnType<typeof setInterval> | undefined;
    const gw = server.gateway;
    if (gw !== null && g !== null) {
      const l = new DemoLoad({ gatewayUrl: gw.url, share: g.share, maxPerSec: g.maxPerSec, seed: o.seed, clock: o.clock, logger: o.logger });
      load = l;
      // Requests through the gateway are real HTTP in real time: none while history is replayed.
      if (sim.live) sim.simulation.divertArrival = l.divert;
      // Replicas come and go with autoscaling: keep the gateway's pools in step with the targets.
      const engines = (): string => sim.targets().filter((t) => t.kind === 'engine').map((t) => t.id).join(',');
      let seen = engines();
      refresh = setInterval(() => {
        const now = engines();
        if (now === seen) return;
        seen = now;
        gw.reconfigure(gwConfig());
      }, 2000);
      refresh.unref();
    }
    return {
      server,
      sim,
      load,
      history: backfill === undefined ? null : { durationMs: historyMs, done },
      close: async () => {
        clearInterval(refresh);
        sim.simulation.divertArrival = undefined;
        load?.close();
        await server.close();
        await sim.close();
      },
    };
  } catch (e) {
    await sim.close();
    throw e;
  }
}

/**
 * Whether `dir` holds no data yet: it does not exist, or holds nothing but the demo's own `sim/`
 * folder. Anything else (a WAL, blocks, files of another kind) counts as data, so history is
 * only ever written into a directory nobody has written samples to.
 */
export async function isFreshDataDir(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).every((name) => name === 'sim');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw e;
  }
}

/**
 * Target scrapes a default history may take: the `demo` fleet's (about 25 targets) 3 h at 15 s
 * is about 19,000, replayed in about 16 s of one core on the development machine
 * (bench/sim/history.bench.ts); a bigger fleet gets proportionally less history.
 */
export const HISTORY_SCRAPE_BUDGET = 20_000;

/** The shortest default history worth replaying (shorter shows no trend): 10 minutes. */
export const MIN_FIT_HISTORY_MS = 10 * 60_000;

/**
 * The history a fleet gets when the default is asked for: `wantedMs`, shortened to whole scrape
 * intervals so that the fleet's initial targets times the scrapes stay within
 * `HISTORY_SCRAPE_BUDGET`, and none when that leaves less than `MIN_FIT_HISTORY_MS`: `fleet-100`
 * (about 230 targets) gets 21 minutes, `fleet-1000` (about 2,300) none, since a short history of
 * a big fleet is mostly the cost of creating its series (310,000 for `fleet-1000`, 30 CPU-s for
 * 2 minutes) and shows no trend. An explicit `--history` is never shortened.
 */
export function historyFit(wantedMs: DurationMs, scenario: ScenarioSpec, intervalMs: DurationMs): DurationMs {
  const f = scenario.fleet;
  const replicas = f.endpoints.reduce((n, e) => n + e.components.reduce((m, c) => m + c.copies.initial, 0), 0);
  const instances = f.endpoints.reduce((n, e) => n + e.instances.initial, 0);
  const components = f.endpoints.reduce((n, e) => n + e.components.length, 0);
  const targets = replicas + instances + 3 * components;
  const scrapes = Math.floor(HISTORY_SCRAPE_BUDGET / Math.max(1, targets));
  const fit = Math.min(wantedMs, scrapes * intervalMs);
  return fit < Math.min(wantedMs, MIN_FIT_HISTORY_MS) ? 0 : fit;
}

/** One line per fault kind with what it does, for the demo's menu. */
export function faultMenu(): string[] {
  return Object.entries(FAULT_DEFAULTS).map(([kind, d]) => `${kind.padEnd(28)} ${d.effect}`);
}
