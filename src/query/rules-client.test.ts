import { describe, expect, it } from 'vitest';
import { rejection } from '../model/testing/rejection.js';
import { QueryClientError } from './errors.js';
import { HttpRulesClient } from './rules-client.js';

function client(body: unknown, status = 200): { c: HttpRulesClient; urls: string[] } {
  const urls: string[] = [];
  const f = (input: string | URL): Promise<Response> => {
    urls.push(String(input));
    return Promise.resolve(new Response(typeof body === 'string' ? body : JSON.stringify(body), { status }));
  };
  return { c: new HttpRulesClient({ url: 'http://prom:9090/', fetch: f as typeof fetch }), urls };
}

// The answers of a real Prometheus 2.42 are read in test/conformance/rules-api-shapes.test.ts.
describe('HttpRulesClient', () => {
  it.each([
    ['rules', undefined, 'http://prom:9090/api/v1/rules', { groups: [] }],
    ['rules', 'alert', 'http://prom:9090/api/v1/rules?type=alert', { groups: [{ name: 'g', file: 'f.yml', rules: [], interval: 60, limit: 0, evaluationTime: 0, lastEvaluation: '' }] }],
    ['alerts', undefined, 'http://prom:9090/api/v1/alerts', { alerts: [{ labels: { alertname: 'A' }, annotations: {}, state: 'firing', activeAt: '2026-01-01T00:00:00Z', value: '1e+00' }] }],
  ] as const)('GETs %s %s', async (call, type, url, data) => {
    const { c, urls } = client({ status: 'success', data });
    const r = call === 'rules' ? await c.rules(type === undefined ? {} : { type }) : await c.alerts();
    expect(urls).toEqual([url]);
    expect(r.data).toEqual(data);
  });

  it.each([
    ['a 404 from a server without the rules API', '404 page not found', 404, 'not_found'],
    ['data of another shape', { status: 'success', data: { groups: [{ name: 'g' }] } }, 200, 'bad_response'],
    ['an API error', { status: 'error', errorType: 'internal', error: 'boom' }, 500, 'internal'],
  ] as const)('rejects %s', async (_name, body, status, errorType) => {
    const { c } = client(body, status);
    expect((await rejection(c.rules(), QueryClientError)).errorType).toBe(errorType);
  });
});
