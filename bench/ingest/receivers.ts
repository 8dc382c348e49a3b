/**
 * Remote write receivers as child processes on loopback, each on a fresh data directory: the
 * built `infersight serve` (dist/, from `npm run build`) and Debian's `prometheus` 2.42 with
 * `--web.enable-remote-write-receiver`. Both run with their defaults otherwise (Infersight:
 * normalization on, WAL fsync every 1 s; Prometheus: its TSDB defaults).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startReadyPeer } from '../../test/peers/peers.js';

/** A running receiver. */
export interface Receiver {
  readonly name: string;
  readonly pid: number | undefined;
  /** The remote write endpoint. */
  readonly writeUrl: string;
  output(): string;
  /** Stops the process (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The built CLI launcher; `npm run build` must have run. */
export const INFERSIGHT_CLI = path.join(ROOT, 'bin', 'infersight.js');

async function start(name: string, command: string, args: string[], port: number): Promise<Receiver> {
  const base = `http://127.0.0.1:${port}`;
  const p = await startReadyPeer(name, command, args, `${base}/-/ready`);
  return { name, pid: p.child.pid, writeUrl: `${base}/api/v1/write`, output: p.output, stop: p.stop };
}

/** Starts `infersight serve` (the built CLI) on `dataDir`. */
export async function startInfersightReceiver(dataDir: string): Promise<Receiver> {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error('dist/ is missing: run npm run build first');
  const port = await freePort();
  return start('infersight', process.execPath, [INFERSIGHT_CLI, 'serve', '--listen', `127.0.0.1:${port}`, '--data', dataDir, '--otlp.listen', 'off', '--log-level', 'warn'], port);
}

/** Starts `prometheus` with the remote write receiver on `dataDir` (no scrape targets). */
export async function startPrometheusReceiver(binary: string, dataDir: string): Promise<Receiver> {
  fs.mkdirSync(dataDir, { recursive: true });
  const config = path.join(dataDir, '..', `prometheus-${path.basename(dataDir)}.yml`);
  fs.writeFileSync(config, 'global:\n  scrape_interval: 1h\n');
  const port = await freePort();
  return start(
    'prometheus',
    binary,
    [`--config.file=${config}`, `--storage.tsdb.path=${dataDir}`, `--web.listen-address=127.0.0.1:${port}`, '--web.enable-remote-write-receiver', '--log.level=warn'],
    port,
  );
}
