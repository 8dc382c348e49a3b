import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLogger } from '../../src/model/index.js';
import { queryClientSuiteData } from '../../src/query/testing/index.js';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { openSuiteDb } from '../../src/server/testing/suite-db.js';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';

/**
 * Hostile input for every API endpoint: each answer is a 4xx in Prometheus' error envelope (or a
 * clean success where Prometheus also succeeds), and the server keeps answering normal queries.
 */
describe('HTTP API under hostile input', () => {
  const data = queryClientSuiteData();
  const t = tempDir('api-hostile');
  let server: RunningServer;
  let base = '';

  beforeAll(async () => {
    await (await openSuiteDb(t.dir, data)).close();
    server = await startServer({ listen: '127.0.0.1:0', storage: { dir: t.dir, fsync: { mode: 'never' } }, logger: new MemoryLogger(), clock: () => data.endMs });
    await server.ready;
    base = `http://127.0.0.1:${server.http.address.port}`;
  });
  afterAll(async () => {
    await server.close();
    t.remove();
  });

  async function stillServing(): Promise<void> {
    const r = await fetch(`${base}/api/v1/query?query=${encodeURIComponent('sum(suite_requests_total)')}&time=${data.endMs / 1000}`);
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ status: 'success', data: { resultType: 'vector' } });
  }

  const huge = 'suite_requests_total{job=~"' + 'a|'.repeat(40_000) + 'b"}';
  const nested = '('.repeat(20_000) + '1' + ')'.repeat(20_000);
  const q = (s: string) => encodeURIComponent(s);

  it.each<[string, string, string, number, string, string]>([
    // [name, method, path?query, status, errorType, message fragment]
    ['query: nonsense time', 'GET', `/api/v1/query?query=up&time=yesterday`, 400, 'bad_data', `invalid parameter "time": Invalid time value for 'time': cannot parse "yesterday"`],
    ['query: NaN time', 'GET', `/api/v1/query?query=up&time=NaN`, 400, 'bad_data', 'cannot parse "NaN" to a valid timestamp'],
    ['query: time beyond the representable', 'GET', `/api/v1/query?query=up&time=1e300`, 400, 'bad_data', 'cannot parse "1e300"'],
    ['query: impossible date', 'GET', `/api/v1/query?query=up&time=2023-02-30T00:00:00Z`, 400, 'bad_data', 'cannot parse "2023-02-30T00:00:00Z"'],
    ['query: bad timeout', 'GET', `/api/v1/query?query=up&timeout=-`, 400, 'bad_data', 'invalid parameter "timeout"'],
    ['query: bad lookback_delta', 'GET', `/api/v1/query?query=up&lookback_delta=forever`, 400, 'bad_data', 'invalid parameter "lookback_delta"'],
    ['query: empty', 'GET', `/api/v1/query`, 400, 'bad_data', 'invalid parameter "query": '],
    ['query: garbage', 'GET', `/api/v1/query?query=${q('}{)(][')}`, 400, 'bad_data', 'invalid parameter "query": '],
    ['query: NUL bytes and bad UTF-8', 'GET', `/api/v1/query?query=up%00%FF%FE`, 400, 'bad_data', 'invalid parameter "query": '],
    ['query: over 64 KiB (GET)', 'GET', `/api/v1/query?query=${q(huge)}`, 400, 'bad_data', 'more than the limit of 65536 bytes'],
    ['query: deeply nested', 'GET', `/api/v1/query?query=${q(nested)}`, 400, 'bad_data', 'invalid parameter "query": '],
    ['query: selects everything', 'GET', `/api/v1/query?query=${q('{__name__=~".*"}')}`, 400, 'bad_data', 'invalid parameter "query": '],
    ['range: missing everything', 'GET', `/api/v1/query_range`, 400, 'bad_data', 'invalid parameter "start": cannot parse "" to a valid timestamp'],
    ['range: end before start', 'GET', `/api/v1/query_range?query=up&start=10&end=5&step=1`, 400, 'bad_data', 'end timestamp must not be before start time'],
    ['range: negative step', 'GET', `/api/v1/query_range?query=up&start=0&end=5&step=-1`, 400, 'bad_data', 'zero or negative query resolution step widths'],
    ['range: NaN step', 'GET', `/api/v1/query_range?query=up&start=0&end=5&step=NaN`, 400, 'bad_data', 'zero or negative query resolution step widths'],
    ['range: too many points', 'GET', `/api/v1/query_range?query=up&start=0&end=1e9&step=1`, 400, 'bad_data', 'exceeded maximum resolution of 11,000 points per timeseries'],
    ['range: step overflows', 'GET', `/api/v1/query_range?query=up&start=0&end=5&step=1e300`, 400, 'bad_data', 'It overflows int64'],
    ['series: no match[]', 'GET', `/api/v1/series`, 400, 'bad_data', 'no match[] parameter provided'],
    ['series: empty match[]', 'GET', `/api/v1/series?match[]=`, 400, 'bad_data', 'invalid parameter "match[]": '],
    ['series: match[] that is no selector', 'GET', `/api/v1/series?match[]=${q('sum(up)')}`, 400, 'bad_data', 'invalid parameter "match[]": '],
    ['series: match[] of everything', 'GET', `/api/v1/series?match[]=${q('{a=~".*"}')}`, 400, 'bad_data', 'match[] must contain at least one non-empty matcher'],
    ['series: bad regex', 'GET', `/api/v1/series?match[]=${q('{a=~"("}')}`, 400, 'bad_data', 'invalid parameter "match[]": '],
    ['series: semicolons', 'GET', `/api/v1/series?match[]=up;x=1`, 400, 'bad_data', 'error parsing form values: invalid semicolon separator in query'],
    ['series: bad escape', 'GET', `/api/v1/series?match[]=%zz`, 400, 'bad_data', 'error parsing form values: invalid URL escape "%zz"'],
    ['series: huge match[]', 'GET', `/api/v1/series?match[]=${q(huge)}`, 400, 'bad_data', 'more than the limit'],
    ['series: bad limit', 'GET', `/api/v1/series?match[]=up&limit=lots`, 400, 'bad_data', 'invalid parameter "limit"'],
    ['series: negative limit', 'GET', `/api/v1/series?match[]=up&limit=-1`, 400, 'bad_data', 'limit must be non-negative'],
    ['labels: bad start', 'GET', `/api/v1/labels?start=-Inf`, 400, 'bad_data', `Invalid time value for 'start'`],
    ['labels: bad match[]', 'GET', `/api/v1/labels?match[]=${q('up{')}`, 400, 'bad_data', 'parse error'],
    ['label values: invalid name', 'GET', `/api/v1/label/${q('a b')}/values`, 400, 'bad_data', 'invalid label name: "a b"'],
    ['label values: undecodable name', 'GET', `/api/v1/label/%E0%A4%A/values`, 400, 'bad_data', 'invalid label name'],
    ['label values: bad end', 'GET', `/api/v1/label/job/values?end=never`, 400, 'bad_data', `Invalid time value for 'end'`],
    ['metadata: bad limit', 'GET', `/api/v1/metadata?limit=1.5`, 400, 'bad_data', 'limit must be a number'],
    ['exemplars: bad query', 'GET', `/api/v1/query_exemplars?query=${q('up{')}`, 400, 'bad_data', 'parse error'],
    ['exemplars: end before start', 'GET', `/api/v1/query_exemplars?query=up&start=5&end=1`, 400, 'bad_data', 'end timestamp must not be before start timestamp'],
    ['format_query: bad query', 'GET', `/api/v1/format_query?query=${q('1 +')}`, 400, 'bad_data', 'invalid parameter "query": '],
    ['parse_query: huge query', 'GET', `/api/v1/parse_query?query=${q(huge)}`, 400, 'bad_data', 'more than the limit'],
    ['unknown API path', 'GET', `/api/v1/nope`, 404, 'not_found', '/api/v1/nope not found'],
    ['wrong method', 'DELETE', `/api/v1/query`, 405, 'bad_data', 'method DELETE not allowed'],
    ['label values by POST (GET only, as Prometheus)', 'POST', `/api/v1/label/job/values`, 405, 'bad_data', 'not allowed'],
  ])('%s', async (_name, method, target, status, errorType, message) => {
    const res = await fetch(base + target, { method });
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toBe('application/json');
    const body = (await res.json()) as { status: string; errorType: string; error: string };
    expect(body).toMatchObject({ status: 'error', errorType });
    expect(body.error).toContain(message);
    await stillServing();
  });

  it('refuses a POSTed query over 64 KiB and a form body over the limit, closing that connection', async () => {
    const post = (body: string) => fetch(`${base}/api/v1/query`, { method: 'POST', body, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    const big = await post(`query=${q(huge)}`);
    expect(big.status).toBe(400);
    expect(((await big.json()) as { error: string }).error).toContain('more than the limit of 65536 bytes');
    const tooLarge = await post('query=' + 'x'.repeat(11 * 1024 * 1024));
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.headers.get('connection')).toBe('close');
    expect(await tooLarge.json()).toEqual({ status: 'error', errorType: 'bad_data', error: 'error parsing form values: http: POST too large' });
    await stillServing();
  });

  it('ignores a body that is not form-encoded, as Go does', async () => {
    const res = await fetch(`${base}/api/v1/query?time=${data.endMs / 1000}`, { method: 'POST', body: JSON.stringify({ query: 'up' }), headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toContain('no expression found in input');
  });

  it('answers request headers over 1 MiB with 431 in the error envelope', async () => {
    const reply = await new Promise<string>((resolve) => {
      const sock = net.connect(server.http.address.port, '127.0.0.1', () => {
        sock.write(`GET /api/v1/query?query=${'a'.repeat(1_100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
      });
      let got = '';
      sock.on('data', (d) => (got += d.toString()));
      sock.on('error', () => resolve(got));
      sock.on('close', () => resolve(got));
    });
    expect(reply).toMatch(/^HTTP\/1\.1 431/);
    expect(reply).toContain('"errorType":"bad_data"');
    await stillServing();
  });

  it('survives a burst of concurrent bad requests mixed with good ones', async () => {
    const targets = Array.from({ length: 60 }, (_, i) =>
      i % 3 === 0 ? `/api/v1/query?query=${q('sum(suite_requests_total)')}&time=${data.endMs / 1000}` : i % 3 === 1 ? `/api/v1/query_range?query=up&start=x` : `/api/v1/series?match[]=${q('{')}`,
    );
    const statuses = await Promise.all(targets.map(async (p) => (await fetch(base + p)).status));
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 400)).toHaveLength(40);
    await stillServing();
  });

  it('answers a CORS preflight with 204, allowing no origin without --web.cors.origin', async () => {
    const res = await fetch(`${base}/api/v1/query`, { method: 'OPTIONS', headers: { Origin: 'https://grafana.example' } });
    expect(res.status).toBe(204);
    expect(res.headers.get('vary')).toBe('Origin');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});
