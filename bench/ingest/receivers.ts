/**
 * Remote write receivers as child processes on loopback, each on a fresh data directory: the
 * built `infersight serve` (dist/, from `npm run build`) and Debian's `prometheus` 2.42 with
 * `--web.enable-remote-write-receiver`. Both run with their defaults otherwise (Infersight:
 * normalization on, WAL fsync every 1 s; Prometheus: its TSDB defaults).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freeLoopbackPort } from '../promql/prometheus-peer.js';

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
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const keep = (d: Buffer): void => void (out = (out + d.toString()).slice(-20_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  const r: Receiver = {
    name,
    pid: child.pid,
    writeUrl: `${base}/api/v1/write`,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}:\n${out.slice(-3000)}`);
    if (await fetch(`${base}/-/ready`).then((res) => res.status === 200, () => false)) return r;
    if (Date.now() > deadline) {
      await r.stop();
      throw new Error(`${name} not ready after 120 s:\n${out.slice(-3000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Starts `infersight serve` (the built CLI) on `dataDir`. */
export async function startInfersightReceiver(dataDir: string): Promise<Receiver> {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error('dist/ is missing: run npm run build first');
  const port = await freeLoopbackPort();
  return start('infersight', process.execPath, [INFERSIGHT_CLI, 'serve', '--listen', `127.0.0.1:${port}`, '--data', dataDir, '--otlp.listen', 'off', '--log-level', 'warn'], port);
}

/** Starts `prometheus` with the remote write receiver on `dataDir` (no scrape targets). */
export async function startPrometheusReceiver(binary: string, dataDir: string): Promise<Receiver> {
  fs.mkdirSync(dataDir, { recursive: true });
  const config = path.join(dataDir, '..', `prometheus-${path.basename(dataDir)}.yml`);
  fs.writeFileSync(config, 'global:\n  scrape_interval: 1h\n');
  const port = await freeLoopbackPort();
  return start(
    'prometheus',
    binary,
    [`--config.file=${config}`, `--storage.tsdb.path=${dataDir}`, `--web.listen-address=127.0.0.1:${port}`, '--web.enable-remote-write-receiver', '--log.level=warn'],
    port,
  );
}
