import { describe, expect, it } from 'vitest';
import { QueryClientError } from './errors.js';
import { HttpQueryClient } from './http-client.js';
import { rejection } from '../model/testing/rejection.js';

interface Seen {
  method: string;
  url: URL;
  body: string;
  headers: Record<string, string>;
}

/** A fetch that records requests and answers from a list (one answer per call, last one repeats). */
function fakeFetch(...answers: (() => Response)[]): { fetch: typeof fetch; seen: Seen[] } {
  const seen: Seen[] = [];
  const f = async (input: string | URL, init?: RequestInit): Promise<Response> => {
    if (init?.signal?.aborted === true) throw new DOMException('aborted', 'AbortError');
    seen.push({
      method: init?.method ?? 'GET',
      url: new URL(String(input)),
      body: typeof init?.body === 'string' ? init.body : '',
      headers: { ...(init?.headers as Record<string, string> | undefined) },
    });
    return answers[Math.min(seen.length - 1, answers.length - 1)]();
  };
  return { fetch: f as typeof fetch, seen };
}

const json = (status: number, body: unknown) => () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const vector = json(200, { status: 'success', data: { resultType: 'vector', result: [{ metric: { job: 'a' }, value: [1700000000.5, '1'] }] }, warnings: ['w'], infos: ['i'] });

/** The error `p` rejects with. */
const failure = (p: Promise<unknown>): Promise<QueryClientError> => rejection(p, QueryClientError);

describe('HttpQueryClient', () => {
  it('POSTs form bodies by default, with times and durations as Unix seconds', async () => {
    const { fetch, seen } = fakeFetch(vector);
    const c = new HttpQueryClient({ url: 'http://prom:9090/prefix/', fetch, headers: { 'X-Scope-OrgID': 't1' } });
    const r = await c.instant('up == 1', 1_700_000_000_500, { timeoutMs: 1500, lookbackDeltaMs: 60_000, stats: true });
    expect(r).toEqual({ data: { resultType: 'vector', result: [{ metric: { job: 'a' }, value: [1700000000.5, '1'] }] }, warnings: ['w'], infos: ['i'] });
    expect(seen[0].method).toBe('POST');
    expect(seen[0].url.href).toBe('http://prom:9090/prefix/api/v1/query');
    expect(seen[0].headers['Content-Type']).toBe('application/x-www-form-urlencoded');
    expect(seen[0].headers['X-Scope-OrgID']).toBe('t1');
    expect(Object.fromEntries(new URLSearchParams(seen[0].body))).toEqual({
      query: 'up == 1',
      time: '1700000000.500',
      timeout: '1.500',
      lookback_delta: '60',
      stats: 'all',
    });
  });

  it('falls back to GET when POST is not allowed', async () => {
    const matrix = json(200, { status: 'success', data: { resultType: 'matrix', result: [] } });
    const { fetch, seen } = fakeFetch(() => new Response('Method Not Allowed', { status: 405 }), matrix);
    const r = await new HttpQueryClient({ url: 'http://x', fetch }).range('up', 0, 60_000, 15_000);
    expect(r.data).toEqual({ resultType: 'matrix', result: [] });
    expect(seen.map((s) => s.method)).toEqual(['POST', 'GET']);
    expect(Object.fromEntries(seen[1].url.searchParams)).toEqual({ query: 'up', start: '0', end: '60', step: '15' });
  });

  it('sends match[], start, end and limit; label values always by GET with the name escaped', async () => {
    const { fetch, seen } = fakeFetch(json(200, { status: 'success', data: [] }));
    const c = new HttpQueryClient({ url: 'http://x', fetch, method: 'GET' });
    await c.series(['up', '{job="a"}'], { startMs: 1000, endMs: 2000, limit: 5 });
    await c.labelNames();
    await c.labelValues('we/ird name', { match: ['up'] });
    expect(seen[0].url.searchParams.getAll('match[]')).toEqual(['up', '{job="a"}']);
    expect(Object.fromEntries(seen[0].url.searchParams)).toMatchObject({ start: '1', end: '2', limit: '5' });
    expect(seen[1].url.search).toBe('');
    expect(seen[2].url.pathname).toBe('/api/v1/label/we%2Fird%20name/values');
    expect(seen[2].method).toBe('GET');
  });

  it.each([
    ['a Prometheus error envelope', json(400, { status: 'error', errorType: 'bad_data', error: 'parse error' }), 'bad_data', 'parse error', 400],
    ['VictoriaMetrics writing the status into errorType', json(422, { status: 'error', errorType: '422', error: 'cannot parse' }), 'execution', 'cannot parse', 422],
    ['an HTML page from a proxy', () => new Response('<html>Bad Gateway</html>', { status: 502 }), 'unavailable', '/api/v1/query: HTTP 502: <html>Bad Gateway</html>', 502],
    ['a 200 that is not JSON', () => new Response('hello', { status: 200 }), 'bad_response', '/api/v1/query: HTTP 200: hello', 200],
    ['a success without the expected data', json(200, { status: 'success', data: { resultType: 'nope' } }), 'bad_response', 'unexpected data in the response of /api/v1/query', 200],
    ['a timeout', json(503, { status: 'error', errorType: 'timeout', error: 'query timed out' }), 'timeout', 'query timed out', 503],
  ])('maps %s to a QueryClientError', async (_what, answer, errorType, message, status) => {
    const { fetch } = fakeFetch(answer);
    const e = await failure(new HttpQueryClient({ url: 'http://x', fetch }).instant('up', 0));
    expect(e.errorType).toBe(errorType);
    expect(e.message).toContain(message);
    expect(e.httpStatus).toBe(status);
  });

  it('reports an unreachable server as unavailable and an aborted call as canceled', async () => {
    const down = (async () => {
      throw new TypeError('fetch failed');
    }) as unknown as typeof fetch;
    expect((await failure(new HttpQueryClient({ url: 'http://x', fetch: down }).labelNames())).errorType).toBe('unavailable');
    const ac = new AbortController();
    ac.abort();
    const { fetch } = fakeFetch(vector);
    expect((await failure(new HttpQueryClient({ url: 'http://x', fetch }).instant('up', 0, { signal: ac.signal }))).errorType).toBe('canceled');
  });

  it('reads metadata with metric and limit', async () => {
    const { fetch, seen } = fakeFetch(json(200, { status: 'success', data: { up: [{ type: 'gauge', help: 'h', unit: '' }] } }));
    const r = await new HttpQueryClient({ url: 'http://x', fetch }).metadata({ metric: 'up', limit: 1 });
    expect(r.data).toEqual({ up: [{ type: 'gauge', help: 'h', unit: '' }] });
    expect(seen[0].url.search).toBe('?metric=up&limit=1');
  });
});
