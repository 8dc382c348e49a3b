import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestGuard, parseTokens } from '../http/index.js';
import { modelEntry, startTestGateway, type TestGateway } from './testing/gateway.js';

// Issue 14: any web page could fire inference requests through the gateway with a text/plain
// no-cors POST. Completions now need JSON, the same site, and (when configured) a write token.
const sha = (t: string): string => createHash('sha256').update(t).digest('hex');
const CHAT = JSON.stringify({ model: 'nope', messages: [{ role: 'user', content: 'hi' }] });

describe('the gateway behind the request guard', () => {
  let open: TestGateway;
  let locked: TestGateway;
  beforeAll(async () => {
    open = await startTestGateway({ models: [modelEntry('m', ['http://127.0.0.1:9'])] });
    const guard = new RequestGuard({ tokens: parseTokens(`tokens:\n  - {name: app, sha256: ${sha('app-key')}, scopes: [write]}\n  - {name: dash, sha256: ${sha('dash-key')}, scopes: [read]}\n`) });
    locked = await startTestGateway({ models: [modelEntry('m', ['http://127.0.0.1:9'])] }, undefined, guard);
  });
  afterAll(async () => {
    await open.gw.close();
    await locked.gw.close();
  });

  it.each<[string, Record<string, string>, number, string]>([
    ['text/plain (a no-cors POST)', { 'content-type': 'text/plain;charset=UTF-8' }, 415, 'unsupported_media_type'],
    ['a form', { 'content-type': 'application/x-www-form-urlencoded' }, 415, 'unsupported_media_type'],
    ['JSON from another origin', { origin: 'http://evil.example' }, 403, 'insufficient_scope'],
    ['JSON marked cross-site', { 'sec-fetch-site': 'cross-site' }, 403, 'insufficient_scope'],
    ['JSON from a program passes on to routing', {}, 404, 'model_not_found'],
  ])('without credentials configured: %s', async (_name, headers, status, code) => {
    const r = await open.post('/v1/chat/completions', CHAT, headers);
    expect([r.status, r.json?.error?.code]).toEqual([status, code]);
  });

  it.each<[string, Record<string, string>, number, string]>([
    ['no key', {}, 401, 'invalid_api_key'],
    ['a wrong key', { authorization: 'Bearer nope' }, 401, 'invalid_api_key'],
    ['a read-only key', { authorization: 'Bearer dash-key' }, 403, 'insufficient_scope'],
    ['a write key', { authorization: 'Bearer app-key' }, 404, 'model_not_found'],
  ])('with tokens: %s', async (_name, headers, status, code) => {
    const r = await locked.post('/v1/chat/completions', CHAT, headers);
    expect([r.status, r.json?.error?.code]).toEqual([status, code]);
  });

  it('needs read for the model list', async () => {
    expect((await fetch(`${locked.gw.url}/v1/models`)).status).toBe(401);
    expect((await fetch(`${locked.gw.url}/v1/models`, { headers: { authorization: 'Bearer dash-key' } })).status).toBe(200);
  });
});
