import http from 'node:http';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { useCleanups } from '../model/testing/cleanups.js';
import { MemoryLogger } from '../model/index.js';
import { Db, type DbOptions } from '../tsdb/index.js';
import { tempDir } from '../tsdb/testing/temp-dir.js';
import { encodeOtlpMetrics, encodeRemoteWriteV1, snappyEncode } from '../wire/index.js';
import { startServer, type ServeOptions } from './serve.js';

const NOW = 1_764_547_200_000;
const cleanups = useCleanups();

async function start(extra: Partial<ServeOptions> = {}) {
  const t = tempDir('ingest-routes');
  cleanups.push(t.remove);
  const logger = new MemoryLogger();
  const server = await startServer({ listen: '127.0.0.1:0', storage: { dir: t.dir, fsync: { mode: 'never' } }, logger, clock: () => NOW, ...extra });
  cleanups.push(() => server.close());
  return { server, logger, base: `http://127.0.0.1:${server.http.address.port}` };
}

const rw = (value: number) => snappyEncode(encodeRemoteWriteV1([{ labels: [['__name__', 'up'], ['job', 'a']], samples: [{ tMs: NOW, value }] }]));

describe('ingest routes', () => {
  it('normalizes engine-native names into the catalog and lists the catalog as metadata', async () => {
    const { server, base } = await start();
    await server.ready;
    const body = snappyEncode(
      encodeRemoteWriteV1([{ labels: [['__name__', 'vllm:num_requests_running'], ['model_name', 'm'], ['engine', '0']], samples: [{ tMs: NOW, value: 3 }] }]),
    );
    const res = await fetch(`${base}/api/v1/write`, { method: 'POST', body, headers: { 'Content-Type': 'application/x-protobuf', 'Content-Encoding': 'snappy' } });
    expect(res.status).toBe(204);
    const q = (await (await fetch(`${base}/api/v1/query?query=${encodeURIComponent('{__name__=~".+"}')}&time=${NOW / 1000}`)).json()) as {
      data: { result: { metric: Record<string, string>; value: [number, string] }[] };
    };
    expect(q.data.result.map((r) => r.metric)).toEqual([{ __name__: 'llm_requests_running', dp_rank: '0', engine: 'vllm', model: 'm' }]);
    const meta = (await (await fetch(`${base}/api/v1/metadata?metric=llm_requests_running`)).json()) as { data: Record<string, unknown[]> };
    expect(meta.data.llm_requests_running).toHaveLength(1);
  });

  it('keeps raw engine names too when asked', async () => {
    const { server, base } = await start({ normalize: { keepRaw: true } });
    await server.ready;
    const body = snappyEncode(encodeRemoteWriteV1([{ labels: [['__name__', 'vllm:num_requests_running'], ['model_name', 'm']], samples: [{ tMs: NOW, value: 3 }] }]));
    await fetch(`${base}/api/v1/write`, { method: 'POST', body, headers: { 'Content-Type': 'application/x-protobuf', 'Content-Encoding': 'snappy' } });
    const q = (await (await fetch(`${base}/api/v1/query?query=${encodeURIComponent('count({__name__=~".+"})')}&time=${NOW / 1000}`)).json()) as {
      data: { result: { value: [number, string] }[] };
    };
    expect(q.data.result[0].value[1]).toBe('2');
  });

  it('serves remote write and OTLP on the main listener, and reads back what was written', async () => {
    const { server, base } = await start();
    await server.ready;
    const res = await fetch(`${base}/api/v1/write`, { method: 'POST', body: rw(1), headers: { 'Content-Type': 'application/x-protobuf', 'Content-Encoding': 'snappy' } });
    expect(res.status).toBe(204);
    const otlp = encodeOtlpMetrics({ resourceMetrics: [{ scopeMetrics: [{ metrics: [{ name: 'g', data: { case: 'gauge', value: { dataPoints: [{ timeUnixNano: BigInt(NOW) * 1_000_000n, value: { case: 'asDouble', value: 2 } }] } } }] }] }] }, 'json');
    const o = await fetch(`${base}/api/v1/otlp/v1/metrics`, { method: 'POST', body: otlp, headers: { 'Content-Type': 'application/json' } });
    expect([o.status, await o.text()]).toEqual([200, '{}']);
    const q = (await (await fetch(`${base}/api/v1/query?query=${encodeURIComponent('up or g')}&time=${NOW / 1000}`)).json()) as { data: { result: unknown[] } };
    expect(q.data.result).toHaveLength(2);
    expect((await fetch(`${base}/api/v1/write`)).status).toBe(405);
  });

  it('answers 503 while the store replays its WAL, so senders retry', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { base, server } = await start({ openStore: async (o: DbOptions) => (await gate, Db.open(o)) });
    const res = await fetch(`${base}/api/v1/write`, { method: 'POST', body: rw(1) });
    expect([res.status, await res.text()]).toEqual([503, 'the store is not ready yet: replaying the write-ahead log\n']);
    release();
    await server.ready;
  });

  it('refuses a body over the limit with 413 without reading it all, and closes the connection', async () => {
    const { base, server } = await start({ ingest: { limits: { maxBodyBytes: 1000 } } });
    await server.ready;
    const reply = await new Promise<{ status: number; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
      const req = http.request(`${base}/api/v1/write`, { method: 'POST', headers: { 'Transfer-Encoding': 'chunked' } }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      });
      req.on('error', reject);
      req.write(Buffer.alloc(600));
      req.write(Buffer.alloc(600));
    });
    expect([reply.status, reply.headers.connection]).toEqual([413, 'close']);
  });

  it('serves POST /v1/metrics on the OTLP listener; a busy default port only warns, a required one fails', async () => {
    const { server } = await start({ ingest: { otlpListen: { address: '127.0.0.1:0', required: true } } });
    await server.ready;
    const port = server.otlpHttp?.address.port;
    const res = await fetch(`http://127.0.0.1:${port}/v1/metrics`, { method: 'POST', body: new Uint8Array(0), headers: { 'Content-Type': 'application/x-protobuf' } });
    expect(res.status).toBe(200);
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => blocker.close(() => r())));
    const busy = `127.0.0.1:${(blocker.address() as net.AddressInfo).port}`;
    const soft = await start({ ingest: { otlpListen: { address: busy, required: false } } });
    expect(soft.server.otlpHttp).toBeNull();
    expect(soft.logger.lines.some((l) => l.level === 'warn' && l.msg.startsWith('OTLP receiver not started'))).toBe(true);
    await expect(start({ ingest: { otlpListen: { address: busy, required: true } } })).rejects.toThrow(/EADDRINUSE/);
  });

  // Issue 14, finding 3: every refused write used to leave its new series in the head.
  it('leaves no series in the head for refused writes, whatever refused them', async () => {
    const { server, base } = await start();
    await server.ready;
    const post = (series: { labels: [string, string][]; samples: { tMs: number; value: number }[] }[]) =>
      fetch(`${base}/api/v1/write`, { method: 'POST', body: snappyEncode(encodeRemoteWriteV1(series)), headers: { 'Content-Type': 'application/x-protobuf', 'Content-Encoding': 'snappy' } });
    expect((await post([{ labels: [['__name__', 'up'], ['job', 'a']], samples: [{ tMs: NOW, value: 1 }] }])).status).toBe(204);
    const fresh = Array.from({ length: 50 }, (_, i) => ({ labels: [['__name__', 'fresh'], ['i', String(i)]] as [string, string][], samples: [{ tMs: NOW, value: i }] }));
    const cases: [string, typeof fresh, string][] = [
      ['the store refuses a sample (out of order) after 50 new series', [...fresh, { labels: [['__name__', 'up'], ['job', 'a']], samples: [{ tMs: NOW - 60_000, value: 0 }] }], 'out of order sample'],
      ['a timestamp too far ahead', [...fresh, { labels: [['__name__', 'x']], samples: [{ tMs: NOW + 3_600_000, value: 0 }] }], 'in the future'],
      ['a label value over the limit', [...fresh, { labels: [['__name__', 'x'], ['v', 'v'.repeat(28 * 1024)]], samples: [{ tMs: NOW, value: 0 }] }], 'is 28672 bytes long'],
    ];
    for (const [name, series, want] of cases) {
      const res = await post(series);
      expect([name, res.status, res.headers.get('content-type'), await res.text()]).toEqual([name, 400, 'text/plain; charset=utf-8', expect.stringContaining(want)]);
    }
    const db = server.db();
    expect(db?.head.numSeries()).toBe(1);
    expect(db?.head.numPendingSeries()).toBe(0);
    expect((await post(fresh)).status).toBe(204);
    expect(db?.head.numSeries()).toBe(51);
  });

  it('refuses new series past the head series limit with a 400 and writes nothing of the request', async () => {
    const t = tempDir('ingest-routes');
    cleanups.push(t.remove);
    const server = await startServer({ listen: '127.0.0.1:0', storage: { dir: t.dir, fsync: { mode: 'never' }, maxSeries: 10 }, logger: new MemoryLogger(), clock: () => NOW, normalize: { enabled: false } });
    cleanups.push(() => server.close());
    await server.ready;
    const base = `http://127.0.0.1:${server.http.address.port}`;
    const series = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ labels: [['__name__', 'capped'], ['i', String(from + i)]] as [string, string][], samples: [{ tMs: NOW, value: i }] }));
    const post = (body: ReturnType<typeof series>) =>
      fetch(`${base}/api/v1/write`, { method: 'POST', body: snappyEncode(encodeRemoteWriteV1(body)), headers: { 'Content-Type': 'application/x-protobuf', 'Content-Encoding': 'snappy' } });
    expect((await post(series(0, 8))).status).toBe(204);
    const res = await post(series(8, 5));
    expect([res.status, await res.text()]).toEqual([400, expect.stringContaining('head series limit exceeded')]);
    expect(server.db()?.head.numSeries()).toBe(8);
    expect(server.db()?.head.numPendingSeries()).toBe(0);
    expect((await post(series(8, 2))).status).toBe(204);
    expect(server.db()?.head.numSeries()).toBe(10);
  });
});
