import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { FAULT_DEFAULTS, HONOR_LABELS_JOBS, startSimulation, type RunningSimulation } from '../sim/index.js';
import { DemoLoad } from './demo-load.js';
import { gatewayConfigForSim } from './gateway.js';
import { startServer, type RunningServer, type ServeOptions } from './serve.js';

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
  /** A built-in scenario (`demo` by default; `infersight sim --list` names the others). */
  readonly scenario?: string;
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
export function demoScrapeConfig(fileSdPath: string, scrapeInterval: string): string {
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
    '# Written by `infersight demo`: scrape the simulated fleet through its file_sd file.',
    'global:',
    `  scrape_interval: ${scrapeInterval}`,
    `  scrape_timeout: ${scrapeInterval}`,
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
  return { flush_interval: flushInterval, health_check: { interval: `${Math.max(2, Math.ceil(replicas / 25))}s`, timeout: '1s' }, upstream: { retries: 1 } };
}

/**
 * `infersight demo`: the simulated fleet, and the embedded server scraping it (file_sd written
 * under `<data>/sim/`), with the fault API mounted on the server, and the gateway in front of the
 * simulated replicas carrying a bounded share of the load (src/server/demo-load.ts). The same
 * parts as `serve` and `sim`, wired in one process.
 */
export async function startDemo(o: DemoOptions): Promise<RunningDemo> {
  const dir = join(o.storage.dir, 'sim');
  await mkdir(dir, { recursive: true });
  const fileSdPath = join(dir, 'file_sd.json');
  const configFile = join(dir, 'scrape.yml');
  const sim = await startSimulation({
    scenario: o.scenario ?? 'demo',
    seed: o.seed,
    speed: o.speed,
    listen: '127.0.0.1:0',
    fileSdPath,
    groundTruthPath: join(dir, 'ground-truth.json'),
    logger: o.logger,
    clock: o.clock,
  });
  try {
    await sim.writeFileSd(fileSdPath);
    const scrapeInterval = o.scrapeInterval ?? '15s';
    // The file_sd file sits beside scrape.yml, and file_sd paths resolve against the config
    // file's directory: name it by its base name, so a relative `--data` (the default `./data`)
    // finds it as well as an absolute one does.
    await writeFile(configFile, demoScrapeConfig(basename(fileSdPath), scrapeInterval));
    const g = o.gateway === false ? null : (o.gateway ?? {});
    const gwConfig = (): ReturnType<typeof gatewayConfigForSim> => {
      const targets = sim.targets();
      return gatewayConfigForSim(targets, sim.url, demoGatewaySettings(scrapeInterval, targets.filter((t) => t.kind === 'engine').length), { max_concurrency: 64 });
    };
    const { gateway: _gateway, ...serve } = o;
    const server = await startServer({
      ...serve,
      scrape: { configFile },
      sim: sim.handlers,
      gateway: g === null ? undefined : { config: gwConfig(), listen: g.listen ?? '127.0.0.1:9310', listenRequired: g.listenRequired ?? false },
    });
    let load: DemoLoad | null = null;
    let refresh: ReturnType<typeof setInterval> | undefined;
    const gw = server.gateway;
    if (gw !== null && g !== null) {
      const l = new DemoLoad({ gatewayUrl: gw.url, share: g.share, maxPerSec: g.maxPerSec, seed: o.seed, clock: o.clock, logger: o.logger });
      load = l;
      sim.simulation.divertArrival = l.divert;
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

/** One line per fault kind with what it does, for the demo's menu. */
export function faultMenu(): string[] {
  return Object.entries(FAULT_DEFAULTS).map(([kind, d]) => `${kind.padEnd(28)} ${d.effect}`);
}
