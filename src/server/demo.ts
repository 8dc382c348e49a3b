import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FAULT_DEFAULTS, startSimulation, type RunningSimulation } from '../sim/index.js';
import { startServer, type RunningServer, type ServeOptions } from './serve.js';

/** Options of `startDemo`: a server's options plus the simulated fleet's. */
export interface DemoOptions extends Omit<ServeOptions, 'scrape' | 'sim'> {
  /** A built-in scenario (`demo` by default; `infersight sim --list` names the others). */
  readonly scenario?: string;
  readonly seed?: number;
  /** Virtual seconds per real second (default 1). */
  readonly speed?: number;
  /** How often the simulated targets are scraped (Prometheus duration, default `15s`). */
  readonly scrapeInterval?: string;
}

/** A running demo: the server and the fleet it scrapes. */
export interface RunningDemo {
  readonly server: RunningServer;
  readonly sim: RunningSimulation;
  /** Stops the server first (so that nothing scrapes a closed fleet), then the fleet. */
  close(): Promise<void>;
}

/** The scrape configuration that discovers the simulated targets through their file_sd file. */
export function demoScrapeConfig(fileSdPath: string, scrapeInterval: string): string {
  return [
    '# Written by `infersight demo`: scrape the simulated fleet through its file_sd file.',
    'global:',
    `  scrape_interval: ${scrapeInterval}`,
    `  scrape_timeout: ${scrapeInterval}`,
    'scrape_configs:',
    '  - job_name: sim',
    '    file_sd_configs:',
    `      - files: [${JSON.stringify(fileSdPath)}]`,
    '        refresh_interval: 5s',
    '',
  ].join('\n');
}

/**
 * `infersight demo`: the simulated fleet, and the embedded server scraping it (file_sd written
 * under `<data>/sim/`), with the fault API mounted on the server. The same parts as `serve` and
 * `sim`, wired in one process.
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
    await writeFile(configFile, demoScrapeConfig(fileSdPath, o.scrapeInterval ?? '15s'));
    const server = await startServer({ ...o, scrape: { configFile }, sim: sim.handlers });
    return {
      server,
      sim,
      close: async () => {
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
