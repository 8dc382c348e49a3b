import { afterEach, describe, expect, it } from 'vitest';
import { MemoryLogger } from '../model/index.js';
import { Db, type DbOptions } from '../tsdb/index.js';
import { tempDir } from '../tsdb/testing/temp-dir.js';
import { startServer, type RunningServer } from './serve.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function start(openStore?: (o: DbOptions) => Promise<Db>): Promise<{ server: RunningServer; base: string }> {
  const t = tempDir('serve');
  cleanups.push(t.remove);
  const server = await startServer({
    listen: '127.0.0.1:0',
    storage: { dir: t.dir, fsync: { mode: 'never' } },
    logger: new MemoryLogger(),
    clock: () => 1_700_000_000_000,
    openStore,
  });
  cleanups.push(() => server.close());
  return { server, base: `http://127.0.0.1:${server.http.address.port}` };
}

describe('serve', () => {
  it('answers /-/ready with 503 until the store is open, /-/healthy always', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { server, base } = await start(async (o) => {
      await gate;
      return Db.open(o);
    });
    expect((await fetch(`${base}/-/healthy`)).status).toBe(200);
    const notReady = await fetch(`${base}/-/ready`);
    expect(notReady.status).toBe(503);
    expect(await notReady.text()).toMatch(/replaying/);
    release();
    await server.ready;
    expect((await fetch(`${base}/-/ready`)).status).toBe(200);
  });

  it('exposes the TSDB self-metrics in Prometheus text format', async () => {
    const { server, base } = await start();
    await server.ready;
    const res = await fetch(`${base}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain; version=0.0.4');
    const body = await res.text();
    for (const name of [
      'infersight_tsdb_head_series 0',
      'infersight_tsdb_head_samples_appended_total 0',
      'infersight_tsdb_wal_fsync_duration_seconds_count',
      'infersight_tsdb_blocks_loaded 0',
      'infersight_tsdb_compaction_duration_seconds_sum',
      '# TYPE infersight_tsdb_rejected_samples_total counter',
      'infersight_tsdb_rejected_samples_total{reason="out_of_order"} 0',
      'process_resident_memory_bytes',
    ]) {
      expect(body).toContain(name);
    }
  });

  it.each([
    ['GET', '/nope', 404, 'text'],
    ['GET', '/api/v1/nope', 404, 'json'],
    ['POST', '/-/healthy', 405, 'text'],
    ['DELETE', '/metrics', 405, 'text'],
    ['GET', '/%ZZ%00..//', 404, 'text'],
  ])('%s %s answers %i and keeps serving', async (method, path, status, kind) => {
    const { base } = await start();
    const res = await fetch(`${base}${path}`, { method });
    expect(res.status).toBe(status);
    if (kind === 'json') expect(await res.json()).toMatchObject({ status: 'error', errorType: 'not_found' });
    else await res.text();
    expect((await fetch(`${base}/-/healthy`)).status).toBe(200);
  });

  it('rejects a request line the HTTP parser cannot read and keeps serving', async () => {
    const { base, server } = await start();
    const net = await import('node:net');
    const reply = await new Promise<string>((resolve) => {
      const sock = net.connect(server.http.address.port, '127.0.0.1', () => sock.write('GARBAGE\r\n\r\n'));
      let data = '';
      sock.on('data', (d) => (data += d.toString()));
      sock.on('close', () => resolve(data));
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400/);
    expect((await fetch(`${base}/-/healthy`)).status).toBe(200);
  });
});
