/**
 * Real peers for interop tests (Debian's prometheus, victoria-metrics, prometheus-alertmanager,
 * chromium), found on PATH. Under CI=true a missing peer fails the test that needs it; elsewhere
 * the test is skipped with the reason printed, so a laptop without the packages still runs
 * `npm test`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { it } from 'vitest';

/** The peers the project tests against, by binary name. */
export type PeerBinary = 'prometheus' | 'promtool' | 'victoria-metrics' | 'prometheus-alertmanager' | 'chromium';

/** The absolute path of `binary`, or null when it is not installed. */
export function findPeer(binary: PeerBinary): string | null {
  const res = spawnSync('sh', ['-c', `command -v ${binary}`], { encoding: 'utf8' });
  const found = res.stdout.trim();
  return res.status === 0 && found !== '' ? found : null;
}

/**
 * Declares a test that needs `binary`. With the peer installed it runs `fn(path)`; without it,
 * under CI=true the test fails, otherwise it is skipped with the reason in its name.
 */
export function itWithPeer(name: string, binary: PeerBinary, fn: (path: string) => Promise<void>, timeoutMs = 120_000): void {
  const path = findPeer(binary);
  if (path !== null) {
    it(name, () => fn(path), timeoutMs);
  } else if (process.env.CI === 'true') {
    it(name, () => {
      throw new Error(`${binary} is not installed; CI must install it (see .ci/run)`);
    });
  } else {
    it.skip(`${name} [skipped: ${binary} not installed; set CI=true to fail instead]`, () => undefined);
  }
}

/** A free TCP port on 127.0.0.1 (for peers that cannot listen on port 0 and report it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** A started peer process. */
export interface PeerProcess {
  readonly child: ChildProcess;
  /** The last 20,000 characters of its stdout and stderr, for error messages. */
  readonly output: () => string;
  /** SIGTERM, then waits for the exit. */
  readonly stop: () => Promise<void>;
}

/** Starts a peer process; the tail of its output is kept for error messages. */
export function startPeer(path: string, args: string[]): PeerProcess {
  const child = spawn(path, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const keep = (d: Buffer): void => void (out = (out + d.toString()).slice(-20_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Polls `check` until it returns a value (not undefined) or `timeoutMs` passes. Polling, not sleeping for time to pass. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = await check().catch(() => undefined);
    if (got !== undefined) return got;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Starts a peer and polls `readyUrl` until it answers 200 (benchmarks start Prometheus and
 * Infersight this way). Fails with the peer's output when it exits first or is not ready within
 * `timeoutMs`.
 */
export async function startReadyPeer(name: string, path: string, args: string[], readyUrl: string, timeoutMs = 120_000): Promise<PeerProcess> {
  const p = startPeer(path, args);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (p.child.exitCode !== null) throw new Error(`${name} exited with ${p.child.exitCode}:\n${p.output().slice(-3000)}`);
    if (await fetch(readyUrl).then((r) => r.status === 200, () => false)) return p;
    if (Date.now() > deadline) {
      await p.stop();
      throw new Error(`${name} not ready after ${timeoutMs / 1000} s:\n${p.output().slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A started Alertmanager (`startAlertmanager`). */
export interface AlertmanagerPeer extends PeerProcess {
  readonly base: string;
  readonly port: number;
}

/**
 * Starts Debian's `prometheus-alertmanager` with `configYaml`, its storage under `dir`, a free
 * port on 127.0.0.1 and gossip off (`--cluster.listen-address=`), and waits until it is ready.
 */
export async function startAlertmanager(binary: string, configYaml: string, dir: string): Promise<AlertmanagerPeer> {
  const config = join(dir, 'alertmanager.yml');
  writeFileSync(config, configYaml);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const am = await startReadyPeer(
    'alertmanager',
    binary,
    [`--config.file=${config}`, `--storage.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--cluster.listen-address='],
    `${base}/-/ready`,
  );
  return { ...am, base, port };
}

/** A started VictoriaMetrics single node (`startVictoriaMetrics`). */
export interface VictoriaMetricsPeer extends PeerProcess {
  readonly base: string;
}

/**
 * Starts Debian's `victoria-metrics` with its storage in `dataDir` on a free port of 127.0.0.1
 * and waits until `/health` answers. Data of any age is kept (`-retentionPeriod=100y`), and the
 * rollup-result cache is off unless `cache` is set: the tests and benchmarks load data once and
 * then read it, so a cached answer would hide what the storage does.
 */
export async function startVictoriaMetrics(binary: string, dataDir: string, opts: { cache?: boolean; args?: readonly string[] } = {}): Promise<VictoriaMetricsPeer> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const args = [`-storageDataPath=${dataDir}`, `-httpListenAddr=127.0.0.1:${port}`, '-retentionPeriod=100y', '-loggerLevel=ERROR', ...(opts.cache === true ? [] : ['-search.disableCache']), ...(opts.args ?? [])];
  const vm = await startReadyPeer('victoria-metrics', binary, args, `${base}/health`);
  return { ...vm, base };
}
