import { describe, expect, it } from 'vitest';
import { rejection } from '../model/testing/rejection.js';
import { QueryClientError } from './errors.js';
import { HttpRulesClient } from './rules-client.js';

// The answers of a real Prometheus 2.42 (npm run update-goldens -- rules-api); a JSON import,
// since this module runs in browsers and may not read files.
const GOLDEN = '../../web/src/api/testdata/prometheus-rules-api.json';
const golden = ((await import(GOLDEN, { with: { type: 'json' } })) as { default: Record<string, unknown> }).default;

function client(body: unknown, status = 200): { c: HttpRulesClient; urls: string[] } {
  const urls: string[] = [];
  const f = (input: string | URL): Promise<Response> => {
    urls.push(String(input));
    return Promise.resolve(new Response(typeof body === 'string' ? body : JSON.stringify(body), { status }));
  };
  return { c: new HttpRulesClient({ url: 'http://prom:9090/', fetch: f as typeof fetch }), urls };
}

describe('HttpRulesClient', () => {
  it.each([
    ['rules', undefined, 'http://prom:9090/api/v1/rules', golden.rules],
    ['rules', 'alert', 'http://prom:9090/api/v1/rules?type=alert', golden.rulesTypeAlert],
    ['rules', 'record', 'http://prom:9090/api/v1/rules?type=record', golden.rulesTypeRecord],
    ['alerts', undefined, 'http://prom:9090/api/v1/alerts', golden.alerts],
  ] as const)('reads Prometheus 2.42 answers: %s %s', async (call, type, url, body) => {
    const { c, urls } = client(body);
    const r = call === 'rules' ? await c.rules(type === undefined ? {} : { type }) : await c.alerts();
    expect(urls).toEqual([url]);
    expect(r.data).toEqual((body as { data: unknown }).data);
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
