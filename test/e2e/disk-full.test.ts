import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCleanups } from '../../src/model/testing/cleanups.js';
import { encodeRemoteWriteV1, snappyEncode } from '../../src/wire/index.js';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';
import { startServe, type RunningCli } from './cli.js';

const cleanups = useCleanups();

const T0 = Date.now() - 3_600_000;

/** SIGTERM (unless it already exited), then its exit. */
function stop(cli: RunningCli): Promise<number | null> {
  if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGTERM');
  return cli.exited;
}

/**
 * Mounts a tmpfs of `bytes` at a fresh directory, or returns null when mounting is refused
 * (not root, or a container without CAP_SYS_ADMIN). The injected-fault tests in src/tsdb and
 * src/server cover the same paths everywhere; this one adds a real kernel's ENOSPC.
 */
function mountTinyTmpfs(bytes: number): string | null {
  const t = tempDir('e2e-disk-full');
  cleanups.push(t.remove);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', t.dir], { stdio: 'pipe' });
  } catch {
    return null;
  }
  cleanups.push(() => {
    execFileSync('umount', ['-l', t.dir], { stdio: 'pipe' });
  });
  return t.dir;
}

/** Fills the file system holding `dir` with one file, until the kernel says ENOSPC. */
function fill(dir: string): string {
  const file = path.join(dir, 'filler');
  const fd = fs.openSync(file, 'w');
  const block = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) fs.writeSync(fd, block);
  } catch (e) {
    expect((e as NodeJS.ErrnoException).code).toBe('ENOSPC');
  } finally {
    fs.closeSync(fd);
  }
  return file;
}

describe('infersight serve on a disk that fills up (whole process, real tmpfs)', () => {
  it('answers remote write with 503 while the disk is full, keeps serving queries, takes writes again once space returns, and loses nothing acknowledged', async (ctx) => {
    const dir = mountTinyTmpfs(4 * 1024 * 1024);
    if (dir === null) {
      ctx.skip('mount -t tmpfs was refused here (not root, or a container without CAP_SYS_ADMIN); the injected-fault tests of src/tsdb cover the same paths');
      return;
    }
    const data = path.join(dir, 'data');
    const args = ['--data', data, '--wal-fsync', 'always', '--retention', '2d'];
    const cli = await startServe(args);
    cleanups.push(() => stop(cli));
    const write = async (base: string, k: number): Promise<number> => {
      const body = snappyEncode(encodeRemoteWriteV1([{ labels: [['__name__', 'disk_full_probe']], samples: [{ tMs: T0 + k * 1000, value: k }] }]));
      const res = await fetch(`${base}/api/v1/write`, { method: 'POST', body, headers: { 'Content-Type': 'application/x-protobuf', 'Content-Encoding': 'snappy' } });
      await res.arrayBuffer();
      return res.status;
    };
    const values = async (base: string): Promise<string[]> => {
      const q = new URLSearchParams({ query: 'disk_full_probe[2h]', time: String(Date.now() / 1000) });
      const res = await fetch(`${base}/api/v1/query?${q.toString()}`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { data: { result: { values: [number, string][] }[] } };
      return body.data.result.flatMap((r) => r.values.map(([, v]) => v));
    };

    expect(await write(cli.base, 0)).toBe(204);
    const filler = fill(dir);
    // The WAL segment's last page still has room for a few small records; then ENOSPC.
    let k = 1;
    while (k < 2000 && (await write(cli.base, k)) === 204) k++;
    const acked = Array.from({ length: k }, (_, i) => String(i));
    expect(k).toBeLessThan(2000);
    expect(await write(cli.base, k)).toBe(503); // a sender retries a 5xx
    expect(await write(cli.base, k + 1)).toBe(503);
    expect(await values(cli.base)).toEqual(acked);
    expect((await fetch(`${cli.base}/-/healthy`)).status).toBe(200);
    expect(cli.log.some((l) => l.includes('wal: write failed') && l.includes('ENOSPC'))).toBe(true);

    fs.rmSync(filler); // space returns
    expect(await write(cli.base, k)).toBe(204); // the retried batches go through, no restart
    expect(await write(cli.base, k + 1)).toBe(204);
    acked.push(String(k), String(k + 1));
    expect(await values(cli.base)).toEqual(acked);

    // Nothing acknowledged is lost, even to a crash right after.
    cli.child.kill('SIGKILL');
    await cli.exited;
    const again = await startServe(args);
    cleanups.push(() => stop(again));
    expect(await values(again.base)).toEqual(acked);
  }, 60_000);
});
