import { describe, expect, it } from 'vitest';
import { useCleanups } from '../model/testing/cleanups.js';
import { MemoryLogger } from '../model/index.js';
import fs from 'node:fs';
import path from 'node:path';
import { VirtualTimers } from '../model/index.js';
import { Db, type DbOptions } from '../tsdb/index.js';
import { tempDir } from '../tsdb/testing/temp-dir.js';
import { Labels } from '../model/index.js';
import { startServer, type RunningServer, type ServerBackfill } from './serve.js';

const cleanups = useCleanups();
const NOW = 1_700_000_000_000;

async function start(openStore?: (o: DbOptions) => Promise<Db>, backfill?: ServerBackfill, configFile?: string): Promise<{ server: RunningServer; base: string }> {
  const t = tempDir('serve');
  cleanups.push(t.remove);
  const server = await startServer({
    ...(configFile === undefined ? {} : { scrape: { configFile }, rules: { timers: new VirtualTimers(NOW) } }),
    listen: '127.0.0.1:0',
    storage: { dir: t.dir, fsync: { mode: 'never' } },
    logger: new MemoryLogger(),
    clock: () => NOW,
    openStore,
    backfill,
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

  it('answers /-/ready with 503 while the backfill runs, lets queries see what it wrote, then 200', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    let aborted: AbortSignal | undefined;
    const { server, base } = await start(undefined, {
      description: 'replaying the last 3h of the simulated fleet',
      run: async (ingest, _query, signal) => {
        aborted = signal;
        const app = ingest.appender();
        app.append(0, Labels.from({ __name__: 'history_probe', job: 'x' }), 1_700_000_000_000 - 60_000, 1);
        await app.commit();
        started();
        await gate;
      },
    });
    await running;
    const notReady = await fetch(`${base}/-/ready`);
    expect(notReady.status).toBe(503);
    expect(await notReady.text()).toBe('Service Unavailable: replaying the last 3h of the simulated fleet.\n');
    const q = await fetch(`${base}/api/v1/query?query=history_probe&time=${1_700_000_000 - 30}`);
    expect(((await q.json()) as { data: { result: unknown[] } }).data.result).toHaveLength(1);
    release();
    await server.ready;
    expect((await fetch(`${base}/-/ready`)).status).toBe(200);
    expect(aborted?.aborted).toBe(false);
  });

  it('evaluates the rules over as much of a long backfill as the head accepts, refusing none', async () => {
    // Three hours of history, one sample per 15 s; the head refuses samples more than an hour
    // (half its 2 h block range) behind its newest, so rules replayed from the backfill's start
    // would see the first two hours of their samples refused as out of bounds.
    const t = tempDir('serve-rules');
    cleanups.push(t.remove);
    fs.writeFileSync(path.join(t.dir, 'rules.yml'), 'groups:\n- name: g\n  interval: 15s\n  rules:\n  - record: probe:rate1m\n    expr: rate(probe_total[1m])\n');
    fs.writeFileSync(path.join(t.dir, 'config.yml'), 'rule_files: [rules.yml]\nscrape_configs: []\n');
    const fromMs = NOW - 3 * 3600_000;
    const { server, base } = await start(
      undefined,
      {
        description: 'writing three hours',
        rulesFromMs: fromMs,
        run: async (ingest) => {
          const labels = Labels.from({ __name__: 'probe_total', job: 'x' });
          for (let ts = fromMs; ts <= NOW; ts += 60_000) {
            const app = ingest.appender();
            for (let k = 0; k < 4 && ts + k * 15_000 <= NOW; k++) app.append(0, labels, ts + k * 15_000, (ts - fromMs) / 1000 + k * 15);
            await app.commit();
          }
        },
      },
      path.join(t.dir, 'config.yml'),
    );
    await server.ready;
    const q = await fetch(`${base}/api/v1/query?query=${encodeURIComponent('count_over_time(probe:rate1m[3h])')}&time=${NOW / 1000}`);
    const result = ((await q.json()) as { data: { result: { value: [number, string] }[] } }).data.result;
    // One evaluation every 15 s over the last 55 minutes (the hour the head accepts, less the
    // replay's margin).
    expect(Number(result[0]?.value[1])).toBeGreaterThanOrEqual(55 * 4 - 1);
    expect(Number(result[0]?.value[1])).toBeLessThanOrEqual(55 * 4 + 1);
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toContain('infersight_tsdb_rejected_samples_total{reason="out_of_bounds"} 0\n');
  });

  it('aborts a running backfill when it closes', async () => {
    let signal: AbortSignal | undefined;
    const { server } = await start(undefined, {
      description: 'writing',
      run: (_ingest, _query, s) => {
        signal = s;
        return new Promise<void>((_resolve, reject) => s.addEventListener('abort', () => reject(s.reason as Error)));
      },
    });
    while (signal === undefined) await new Promise((r) => setImmediate(r));
    await server.close();
    expect(signal.aborted).toBe(true);
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
      '# TYPE infersight_event_loop_delay_seconds summary',
      'infersight_event_loop_delay_seconds{quantile="0.99"}',
      'infersight_event_loop_delay_max_seconds',
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
