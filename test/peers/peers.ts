/**
 * Real peers for interop tests (Debian's prometheus, victoria-metrics, prometheus-alertmanager,
 * chromium, postgresql), found on PATH (PostgreSQL: in /usr/lib/postgresql/<major>/bin). Under CI=true a missing peer fails the test that needs it; elsewhere
 * the test is skipped with the reason printed, so a laptop without the packages still runs
 * `npm test`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { it } from 'vitest';

/** The peers the project tests against, by binary name. */
export type PeerBinary = 'prometheus' | 'promtool' | 'victoria-metrics' | 'prometheus-alertmanager' | 'chromium' | 'postgres';

/**
 * The absolute path of `binary`, or null when it is not installed. Debian keeps PostgreSQL's
 * server binaries off PATH, in /usr/lib/postgresql/<major>/bin: the newest major there is taken.
 */
export function findPeer(binary: PeerBinary): string | null {
  const res = spawnSync('sh', ['-c', `command -v ${binary}`], { encoding: 'utf8' });
  const found = res.stdout.trim();
  if (res.status === 0 && found !== '') return found;
  if (binary !== 'postgres') return null;
  const majors = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  const bin = majors.map((v) => `/usr/lib/postgresql/${v}/bin/postgres`).find((f) => existsSync(f));
  return bin ?? null;
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

/**
 * Starts a peer process; the tail of its output is kept for error messages. `o.uid`/`o.gid` run
 * it as another user (PostgreSQL refuses root); `o.stopSignal` replaces SIGTERM.
 */
export function startPeer(path: string, args: string[], o: { uid?: number; gid?: number; stopSignal?: NodeJS.Signals } = {}): PeerProcess {
  const child = spawn(path, args, { stdio: ['ignore', 'pipe', 'pipe'], uid: o.uid, gid: o.gid });
  let out = '';
  const keep = (d: Buffer): void => void (out = (out + d.toString()).slice(-20_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill(o.stopSignal ?? 'SIGTERM');
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

/** A started PostgreSQL server (`startPostgres`). */
export interface PostgresPeer extends PeerProcess {
  readonly port: number;
  /** `postgresql://postgres@127.0.0.1:<port>/postgres` (trust authentication on loopback). */
  readonly connectionString: string;
}

/**
 * Starts Debian's PostgreSQL (`binary`: the `postgres` that `findPeer('postgres')` found) with a
 * fresh cluster in `dir` (initdb; trust authentication; fsync off, since the tests own the data),
 * listening on 127.0.0.1 on a free port with its unix socket in `dir`, and waits until it takes a
 * connection. PostgreSQL refuses to run as root: as root, `dir` is handed to the `postgres` user
 * and both programs run as that user (so `dir`'s parents must let that user through: a fresh
 * `mkdtemp` in the system temp dir does). `stop` asks for a fast shutdown (SIGINT: open connections
 * are closed rather than waited for) and awaits the exit.
 */
export async function startPostgres(binary: string, dir: string, timeoutMs = 60_000): Promise<PostgresPeer> {
  const asUser: { uid?: number; gid?: number } = {};
  if (process.getuid?.() === 0) {
    const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    if (!Number.isInteger(uid) || !Number.isInteger(gid)) throw new Error('running as root, and there is no postgres user to run PostgreSQL as');
    Object.assign(asUser, { uid, gid });
  }
  const data = join(dir, 'data');
  mkdirSync(data, { recursive: true });
  if (asUser.uid !== undefined && asUser.gid !== undefined) {
    chownSync(dir, asUser.uid, asUser.gid);
    chownSync(data, asUser.uid, asUser.gid);
  }
  const init = spawnSync(join(dirname(binary), 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'], {
    encoding: 'utf8',
    timeout: timeoutMs,
    ...asUser,
  });
  if (init.status !== 0) throw new Error(`initdb failed (${init.status ?? init.signal}):\n${init.stdout}${init.stderr}`);
  const port = await freePort();
  const p = startPeer(binary, ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'], {
    ...asUser,
    stopSignal: 'SIGINT',
  });
  const connectionString = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (p.child.exitCode !== null) throw new Error(`postgres exited with ${p.child.exitCode}:\n${p.output().slice(-3000)}`);
    const c = new pg.Client({ connectionString });
    const up = await c.connect().then(() => true, () => false);
    await c.end().catch(() => undefined);
    if (up) return { ...p, port, connectionString };
    if (Date.now() > deadline) {
      await p.stop();
      throw new Error(`postgres not ready after ${timeoutMs / 1000} s:\n${p.output().slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
