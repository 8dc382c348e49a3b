import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The built CLI launcher (`npm test` builds dist/ first). */
export const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/infersight.js');

/** A running `infersight` process and the address it listens on. */
export interface RunningCli {
  child: ChildProcess;
  base: string;
  /** Every stderr line so far. */
  log: string[];
  /** Resolves with the exit code once the process exits. */
  exited: Promise<number | null>;
}

/** Starts `infersight serve` with `args` on a free port and waits for its `ready` log line. */
export function startServe(args: string[]): Promise<RunningCli> {
  return spawnUntilReady(['serve', '--listen', '127.0.0.1:0', ...args]);
}

/** Spawns the CLI with `args` and resolves once it logs `msg=ready address=…`. */
function spawnUntilReady(args: string[]): Promise<RunningDemoCli> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const log: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    readline.createInterface({ input: child.stderr }).on('line', (line) => {
      log.push(line);
      const m = / msg=ready address=([\d.]+:\d+)/.exec(line);
      if (m) {
        resolve({
          child,
          base: `http://${m[1]}`,
          log,
          exited,
          stdout: () => out,
          stop: async () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    void exited.then((code) => reject(new Error(`infersight ${args[0]} exited with ${code} before ready:\n${log.join('\n')}`)));
  });
}

/** Runs the CLI to completion and returns its exit code and output. */
export function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A running `infersight demo` process. */
export interface RunningDemoCli extends RunningCli {
  /** Everything the process printed to stdout so far (the banner). */
  stdout(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts `infersight demo` on a free port with `args` (data dir, speed, scenario, ...) and waits
 * for its `ready` log line. Without a `--history` in `args` it starts with none (`--history 0`):
 * the default replays hours of history before it is ready, which only the tests of that wait for.
 */
export function startDemoCli(args: string[]): Promise<RunningDemoCli> {
  const history = args.some((a) => a === '--history' || a.startsWith('--history=')) ? [] : ['--history', '0'];
  return spawnUntilReady(['demo', '--listen', '127.0.0.1:0', ...history, ...args]);
}
