import http from 'node:http';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useCleanups } from '../../model/testing/cleanups.js';
import { MemoryLogger } from '../../model/index.js';
import { SUITE_T0_MS, queryClientSuiteData } from '../../query/testing/index.js';
import { Db, type DbOptions } from '../../tsdb/index.js';
import { tempDir } from '../../tsdb/testing/temp-dir.js';
import { startServer, type RunningServer, type ServeOptions } from '../serve.js';
import { openSuiteDb } from '../testing/suite-db.js';

const data = queryClientSuiteData();
const cleanups = useCleanups();

async function start(extra: Partial<ServeOptions> = {}, load = true): Promise<{ server: RunningServer; base: string }> {
  const t = tempDir('api');
  cleanups.push(t.remove);
  if (load) await (await openSuiteDb(t.dir, data)).close();
  const server = await startServer({ listen: '127.0.0.1:0', storage: { dir: t.dir, fsync: { mode: 'never' } }, logger: new MemoryLogger(), clock: () => data.endMs, ...extra });
  cleanups.push(() => server.close());
  if (extra.openStore === undefined) await server.ready;
  return { server, base: `http://127.0.0.1:${server.http.address.port}` };
}

const T = (s: number) => String((SUITE_T0_MS + s * 1000) / 1000);
/** Status and decoded body (JSON.parse's `any`: tests assert on its fields directly). */
async function get(base: string, path: string): Promise<{ status: number; body: ReturnType<typeof JSON.parse> }> {
  const res = await fetch(base + path);
  return { status: res.status, body: JSON.parse(await res.text()) };
}

describe('query API wiring', () => {
  it('answers 503 unavailable until the store is open', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { server, base } = await start({ openStore: async (o: DbOptions) => (await gate, Db.open(o)) }, false);
    for (const path of ['/api/v1/query?query=1', '/api/v1/labels', '/api/v1/status/tsdb']) {
      const r = await get(base, path);
      expect(r).toEqual({ status: 503, body: { status: 'error', errorType: 'unavailable', error: 'the store is not ready yet: replaying the write-ahead log' } });
    }
    expect((await get(base, '/api/v1/status/buildinfo')).status).toBe(200);
    release();
    await server.ready;
    expect((await get(base, '/api/v1/query?query=1')).status).toBe(200);
  });

  it.each([
    ['/api/v1/rules', { groups: [] }],
    ['/api/v1/alerts', { alerts: [] }],
  ])('answers %s as Prometheus does without rule files while no rules engine is wired', async (path, data) => {
    const { base } = await start();
    expect(await get(base, path)).toEqual({ status: 200, body: { status: 'success', data } });
  });

  it('gzips only when asked', async () => {
    const { base } = await start();
    const raw = (headers: http.OutgoingHttpHeaders) =>
      new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http
          .get(`${base}/api/v1/labels`, { headers }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
          })
          .on('error', reject);
      });
    const zipped = await raw({ 'Accept-Encoding': 'br, gzip;q=0.5' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(zipped.body).toString())).toMatchObject({ status: 'success' });
    const plain = await raw({ 'Accept-Encoding': 'gzip;q=0, identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.body.toString())).toMatchObject({ status: 'success' });
  });

  it('honours lookback_delta, stats and limit', async () => {
    const { base } = await start();
    expect((await get(base, `/api/v1/query?query=suite_short&time=${T(200)}`)).body.data.result).toHaveLength(1);
    expect((await get(base, `/api/v1/query?query=suite_short&time=${T(200)}&lookback_delta=1m`)).body.data.result).toEqual([]);
    const stats = (await get(base, `/api/v1/query_range?query=suite_short&start=${T(0)}&end=${T(60)}&step=15&stats=all`)).body.data.stats;
    expect(stats.samples).toEqual({ totalQueryableSamples: expect.any(Number), peakSamples: expect.any(Number) });
    expect(Object.keys(stats.timings)).toEqual(['evalTotalTime', 'resultSortTime', 'queryPreparationTime', 'innerEvalTime', 'execQueueTime', 'execTotalTime']);
    const limited = await get(base, '/api/v1/series?match[]=suite_requests_total&limit=1');
    expect(limited.body).toEqual({ status: 'success', data: [expect.any(Object)], warnings: ['results truncated due to limit'] });
    expect((await get(base, '/api/v1/label/instance/values?limit=2')).body.data).toEqual(['a:9000', 'b:9000']);
  });

  it('times a query out with 503 timeout', async () => {
    let now = data.endMs;
    const { base } = await start({ clock: () => (now += 60_000) });
    const r = await get(base, `/api/v1/query?query=suite_requests_total&time=${T(300)}&timeout=1s`);
    expect(r).toEqual({ status: 503, body: { status: 'error', errorType: 'timeout', error: expect.stringContaining('timed out') } });
  });

  it('takes POST body values before URL values, as Go does', async () => {
    const { base } = await start();
    const res = await fetch(`${base}/api/v1/query?query=suite_nonexistent&time=${T(307)}`, {
      method: 'POST',
      body: 'query=sum(suite_requests_total)',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(JSON.parse(await res.text()).data.result).toEqual([{ metric: {}, value: [Number(T(307)), '300'] }]);
  });

  it('formats and parses queries', async () => {
    const { base } = await start();
    expect((await get(base, `/api/v1/format_query?query=${encodeURIComponent('sum(x)by(job)')}`)).body.data).toBe('sum by (job) (x)');
    const ast = (await get(base, `/api/v1/parse_query?query=${encodeURIComponent('rate(x{a="b"}[5m] offset 1m) > 0.5')}`)).body.data;
    expect(ast).toEqual({
      bool: false,
      lhs: {
        args: [{ anchored: false, matchers: [{ name: 'a', type: '=', value: 'b' }, { name: '__name__', type: '=', value: 'x' }], name: 'x', offset: 60_000, range: 300_000, smoothed: false, startOrEnd: null, timestamp: null, type: 'matrixSelector' }],
        func: { argTypes: ['matrix'], name: 'rate', returnType: 'vector', variadic: 0 },
        type: 'call',
      },
      matching: null,
      op: '>',
      rhs: { type: 'numberLiteral', val: '0.5' },
      type: 'binaryExpr',
    });
  });

  it('reports build info, flags, runtime info and TSDB cardinality', async () => {
    const { base } = await start({ engine: { timeoutMs: 30_000 } });
    const build = (await get(base, '/api/v1/status/buildinfo')).body.data;
    expect(build).toMatchObject({ version: '2.42.0', revision: expect.stringMatching(/^infersight-/), branch: 'infersight' });
    const flags = (await get(base, '/api/v1/status/flags')).body.data;
    expect(flags).toMatchObject({ listen: '127.0.0.1:0', retention: '15d', 'query.timeout': '30s' });
    expect(Object.keys(flags)).toEqual([...Object.keys(flags)].sort());
    expect((await get(base, '/api/v1/status/runtimeinfo')).body.data).toMatchObject({ reloadConfigSuccess: true, storageRetention: '15d', corruptionCount: 0 });
    const tsdb = (await get(base, '/api/v1/status/tsdb')).body.data;
    expect(tsdb.headStats).toMatchObject({ numSeries: 5, minTime: data.startMs, maxTime: data.endMs });
    expect(tsdb.seriesCountByMetricName.slice(0, 2)).toEqual([
      { name: 'suite_gpu_utilization', value: 2 },
      { name: 'suite_requests_total', value: 2 },
    ]);
    expect(tsdb.labelValueCountByLabelName[0]).toEqual({ name: '__name__', value: 3 });
  });

  it('reports an empty head with Go int64 extremes', async () => {
    const { base } = await start({}, false);
    const res = await fetch(`${base}/api/v1/status/tsdb`);
    expect(await res.text()).toContain('"minTime":9223372036854775807,"maxTime":-9223372036854775808');
  });
});

describe('form bodies', () => {
  it('refuses a chunked body over the limit with 400 and closes the connection', async () => {
    const { base } = await start({ api: { maxBodyBytes: 1000 } });
    const reply = await new Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
      const req = http.request(`${base}/api/v1/query`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Transfer-Encoding': 'chunked' } }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      });
      req.on('error', reject);
      req.write('query=' + 'x'.repeat(600));
      req.write('y'.repeat(600));
      // Never ends the body: the server must answer anyway.
    });
    expect(reply.status).toBe(400);
    expect(reply.headers.connection).toBe('close');
    expect(JSON.parse(reply.body)).toEqual({ status: 'error', errorType: 'bad_data', error: 'error parsing form values: http: POST too large' });
    expect((await fetch(`${base}/-/healthy`)).status).toBe(200);
  });
});
