import { describe, expect, it } from 'vitest';
import { useCleanups } from '../model/testing/cleanups.js';
import { MemoryLogger } from '../model/index.js';
import { Db, type DbOptions } from '../tsdb/index.js';
import { tempDir } from '../tsdb/testing/temp-dir.js';
import { FaultyFs } from '../tsdb/wal/testing/faulty-fs.js';
import { encodeRemoteWriteV1, snappyEncode } from '../wire/index.js';
import { startServer } from './serve.js';

const NOW = 1_764_547_200_000;
const cleanups = useCleanups();

/** A server whose store writes through a fault-injecting file system. */
async function start() {
  const t = tempDir('storage-faults');
  cleanups.push(t.remove);
  const faults = new FaultyFs();
  let nowMs = NOW;
  const server = await startServer({
    listen: '127.0.0.1:0',
    storage: { dir: t.dir, fsync: { mode: 'always' } },
    logger: new MemoryLogger(),
    clock: () => nowMs,
    openStore: (o: DbOptions) => Db.open({ ...o, fs: faults }),
  });
  cleanups.push(() => server.close());
  await server.ready;
  const base = `http://127.0.0.1:${server.http.address.port}`;
  const write = async (k: number): Promise<[number, string]> => {
    const body = snappyEncode(encodeRemoteWriteV1([{ labels: [['__name__', 'up'], ['job', 'a']], samples: [{ tMs: NOW + k * 1000, value: k }] }]));
    const res = await fetch(`${base}/api/v1/write`, { method: 'POST', body, headers: { 'Content-Type': 'application/x-protobuf', 'Content-Encoding': 'snappy' } });
    return [res.status, await res.text()];
  };
  const values = async (): Promise<string[]> => {
    const q = new URLSearchParams({ query: 'up[1h]', time: String(NOW / 1000 + 60) });
    const res = await fetch(`${base}/api/v1/query?${q.toString()}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { result: { values: [number, string][] }[] } };
    return body.data.result.flatMap((r) => r.values.map(([, v]) => v));
  };
  return { base, faults, write, values, advance: (ms: number) => (nowMs += ms) };
}

describe('a server whose disk fails', () => {
  it.each<[string, (f: FaultyFs) => void]>([
    ['the disk is full', (f) => f.diskFull()],
    ['every WAL fsync fails with EIO', (f) => f.inject({ op: 'fsync', path: '/wal/', code: 'EIO' })],
  ])('when %s, remote write answers 503 (senders retry), queries and health keep answering, and writes resume once it is fixed', async (_name, arm) => {
    const { base, faults, write, values, advance } = await start();
    expect(await write(0)).toEqual([204, '']);
    arm(faults);
    const [status, text] = await write(1);
    expect(status).toBe(503);
    expect(text).toMatch(/write-ahead log write failed/);
    expect(await values()).toEqual(['0']);
    expect((await fetch(`${base}/-/healthy`)).status).toBe(200);
    faults.clear();
    advance(2000); // past the WAL recovery's retry pause
    expect(await write(1)).toEqual([204, '']); // the sender's retry of the refused batch
    expect(await values()).toEqual(['0', '1']);
  });
});
