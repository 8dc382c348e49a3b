import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARDS, INSIGHTS, toGrafana } from '../../dashboards/index.js';
import { MemoryLogger } from '../../model/index.js';
import { rulePackYaml } from '../../rules/index.js';
import { tempDir } from '../../tsdb/testing/temp-dir.js';
import { startServer, type RunningServer } from '../serve.js';

/** The list `/api/v1/dashboards` answers, in menu order. */
const LISTED = DASHBOARDS.map((d) => ({ id: d.id, title: d.title, description: d.description }));

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

// The dashboards and what is exported beside them (the rule pack at /api/v1/rules/pack).
describe('/api/v1/dashboards and /api/v1/rules/pack', () => {
  const t = tempDir('api-dashboards');
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer({ listen: '127.0.0.1:0', storage: { dir: t.dir, fsync: { mode: 'never' } }, logger: new MemoryLogger(), clock: () => 1_700_000_000_000 });
    await server.ready;
  });
  afterAll(async () => {
    await server.close();
    t.remove();
  });

  /** A request with the path sent exactly as written (fetch would resolve dot segments first). */
  function raw(method: string, path: string, headers: http.OutgoingHttpHeaders = {}): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: server.http.address.port, method, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: (res.headers['content-encoding'] === 'gzip' && body.length > 0 ? zlib.gunzipSync(body) : body).toString() });
        });
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('lists the dashboards', async () => {
    const r = await raw('GET', '/api/v1/dashboards');
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text)).toEqual({ status: 'success', data: LISTED });
  });

  it('answers one definition in the success envelope', async () => {
    const r = await raw('GET', '/api/v1/dashboards/insights');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json');
    expect(JSON.parse(r.text)).toEqual({ status: 'success', data: JSON.parse(JSON.stringify(INSIGHTS)) });
  });

  it('answers the Grafana JSON itself, as an attachment', async () => {
    const r = await raw('GET', '/api/v1/dashboards/insights/grafana');
    expect(r.status).toBe(200);
    expect(r.headers['content-disposition']).toBe('attachment; filename="infersight-insights.grafana.json"');
    expect(r.headers.vary).toBe('Origin');
    expect(JSON.parse(r.text)).toEqual(toGrafana(INSIGHTS));
    const head = await raw('HEAD', '/api/v1/dashboards/insights/grafana');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
  });

  it('answers the rule pack exported beside the dashboards: the YAML itself, as an attachment, gzipped on request', async () => {
    const r = await raw('GET', '/api/v1/rules/pack');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/yaml');
    expect(r.headers['content-disposition']).toBe('attachment; filename="llm-pack.rules.yml"');
    expect(r.text).toBe(rulePackYaml());
    expect(r.text).toMatch(/^groups:$/m);
    const gz = await raw('GET', '/api/v1/rules/pack', { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.text).toBe(r.text);
    const head = await raw('HEAD', '/api/v1/rules/pack');
    expect([head.status, head.text]).toEqual([200, '']);
  });

  const notFound = (id: string) => ({ status: 'error', errorType: 'not_found', error: `dashboard ${JSON.stringify(id)} not found` });

  it.each<[string, string, string, number, unknown]>([
    // [name, method, path, status, body]
    ['unknown id', 'GET', '/api/v1/dashboards/nope', 404, notFound('nope')],
    ['unknown id, Grafana', 'GET', '/api/v1/dashboards/nope/grafana', 404, notFound('nope')],
    ['ids are case-sensitive', 'GET', '/api/v1/dashboards/INSIGHTS', 404, notFound('INSIGHTS')],
    ['an encoded slash stays inside the id', 'GET', '/api/v1/dashboards/insights%2Fgrafana', 404, notFound('insights/grafana')],
    ['encoded traversal', 'GET', '/api/v1/dashboards/..%2F..%2Fpackage.json', 404, notFound('../../package.json')],
    ['encoded traversal, Grafana', 'GET', '/api/v1/dashboards/..%2Finsights/grafana', 404, notFound('../insights')],
    ['a NUL byte', 'GET', '/api/v1/dashboards/insights%00', 404, { status: 'error', errorType: 'not_found', error: 'dashboard "insights\\x00" not found' }],
    ['an undecodable id', 'GET', '/api/v1/dashboards/%E0%A4%A', 404, notFound('%E0%A4%A')],
    ['dot segments resolve before routing', 'GET', '/api/v1/dashboards/insights/../../nope', 404, { status: 'error', errorType: 'not_found', error: '/api/v1/nope not found' }],
    ['an empty id', 'GET', '/api/v1/dashboards/', 404, { status: 'error', errorType: 'not_found', error: '/api/v1/dashboards/ not found' }],
    ['a path below the Grafana export', 'GET', '/api/v1/dashboards/insights/grafana/x', 404, { status: 'error', errorType: 'not_found', error: '/api/v1/dashboards/insights/grafana/x not found' }],
    ['POST to the list', 'POST', '/api/v1/dashboards', 405, { status: 'error', errorType: 'bad_data', error: 'method POST not allowed for /api/v1/dashboards' }],
    ['DELETE a dashboard', 'DELETE', '/api/v1/dashboards/insights', 405, { status: 'error', errorType: 'bad_data', error: 'method DELETE not allowed for /api/v1/dashboards/insights' }],
    ['PUT the Grafana export', 'PUT', '/api/v1/dashboards/insights/grafana', 405, { status: 'error', errorType: 'bad_data', error: 'method PUT not allowed for /api/v1/dashboards/insights/grafana' }],
    ['POST the rule pack', 'POST', '/api/v1/rules/pack', 405, { status: 'error', errorType: 'bad_data', error: 'method POST not allowed for /api/v1/rules/pack' }],
    ['a path below the rule pack', 'GET', '/api/v1/rules/pack/x', 404, { status: 'error', errorType: 'not_found', error: '/api/v1/rules/pack/x not found' }],
    ['parameters, even undecodable ones, are not read', 'GET', '/api/v1/dashboards?x=%zz', 200, { status: 'success', data: LISTED }],
  ])('%s', async (_name, method, path, status, body) => {
    const r = await raw(method, path);
    expect(r.status).toBe(status);
    expect(JSON.parse(r.text)).toEqual(body);
    expect((await raw('GET', '/api/v1/dashboards/insights')).status).toBe(200);
  });

  it.each(['/api/v1/dashboards/insights/grafana', '/api/v1/rules/pack'])('answers CORS preflights: %s', async (path) => {
    const r = await raw('OPTIONS', path);
    expect(r.status).toBe(204);
  });
});
