import { createHash } from 'node:crypto';
import type http from 'node:http';
import { hashSync } from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { RequestGuard, compileCorsOrigin, crossSiteReason, type RoutePolicy } from './guard.js';
import { parseTokens } from './tokens.js';
import { EMPTY_WEB_CONFIG } from './web-config.js';

const req = (headers: Record<string, string>): http.IncomingMessage => ({ headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])) }) as unknown as http.IncomingMessage;
const basic = (u: string, p: string): string => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;
const sha = (t: string): string => createHash('sha256').update(t).digest('hex');

const guard = new RequestGuard({
  webConfig: { ...EMPTY_WEB_CONFIG, basicAuthUsers: new Map([['alice', hashSync('pw', 4)], ['bob', hashSync('pw2', 4)]]) },
  tokens: parseTokens(`tokens:\n  - {name: grafana, sha256: ${sha('tok-read')}, scopes: [read]}\n  - {name: vmagent, sha256: ${sha('tok-write')}, scopes: [write]}\nbasic_auth_scopes:\n  bob: [read]\n`),
  corsOrigin: compileCorsOrigin('https://grafana\\.example'),
});

const READ: RoutePolicy = { scope: 'read' };
const WRITE: RoutePolicy = { scope: 'write', contentTypes: ['application/x-protobuf'] };
const ADMIN: RoutePolicy = { scope: 'admin', contentTypes: [] };
const HOST = { Host: '127.0.0.1:9300' };

describe('RequestGuard', () => {
  it.each<[string, Record<string, string>, RoutePolicy, number | 'ok']>([
    ['no credentials', HOST, READ, 401],
    ['a wrong password', { ...HOST, Authorization: basic('alice', 'nope') }, READ, 401],
    ['an unknown user', { ...HOST, Authorization: basic('carol', 'pw') }, READ, 401],
    ['an unknown token', { ...HOST, Authorization: 'Bearer nope' }, READ, 401],
    ['another scheme', { ...HOST, Authorization: 'Digest x' }, READ, 401],
    ['a user with every scope', { ...HOST, Authorization: basic('alice', 'pw') }, ADMIN, 'ok'],
    ['a user limited to read', { ...HOST, Authorization: basic('bob', 'pw2') }, ADMIN, 403],
    ['a read token reads', { ...HOST, Authorization: 'Bearer tok-read' }, READ, 'ok'],
    ['a read token cannot write', { ...HOST, Authorization: 'Bearer tok-read', 'Content-Type': 'application/x-protobuf' }, WRITE, 403],
    ['a token as a basic password', { ...HOST, Authorization: basic('token', 'tok-write'), 'Content-Type': 'application/x-protobuf' }, WRITE, 'ok'],
    ['a write from the same origin', { ...HOST, Authorization: 'Bearer tok-write', Origin: 'http://127.0.0.1:9300', 'Content-Type': 'application/x-protobuf' }, WRITE, 'ok'],
    ['a write from another port', { ...HOST, Authorization: 'Bearer tok-write', Origin: 'http://127.0.0.1:8000', 'Content-Type': 'application/x-protobuf' }, WRITE, 403],
    ['a write marked cross-site', { ...HOST, Authorization: 'Bearer tok-write', 'Sec-Fetch-Site': 'cross-site', 'Content-Type': 'application/x-protobuf' }, WRITE, 403],
    ['a write from an opaque origin', { ...HOST, Authorization: 'Bearer tok-write', Origin: 'null', 'Content-Type': 'application/x-protobuf' }, WRITE, 403],
    ['a write from a CORS-allowed origin', { ...HOST, Authorization: 'Bearer tok-write', Origin: 'https://grafana.example', 'Sec-Fetch-Site': 'cross-site', 'Content-Type': 'application/x-protobuf' }, WRITE, 'ok'],
    ['a text/plain write', { ...HOST, Authorization: 'Bearer tok-write', 'Content-Type': 'text/plain' }, WRITE, 415],
    ['a typeless write from a program', { ...HOST, Authorization: 'Bearer tok-write' }, WRITE, 'ok'],
    ['a typeless write from a browser page', { ...HOST, Authorization: 'Bearer tok-write', 'Sec-Fetch-Site': 'same-origin' }, WRITE, 415],
    ['a cross-site read is not refused (CORS keeps it unreadable)', { ...HOST, Authorization: 'Bearer tok-read', Origin: 'http://evil.example' }, READ, 'ok'],
  ])('%s', async (_name, headers, policy, want) => {
    const v = await guard.check(req(headers), policy);
    expect(v.ok ? 'ok' : v.refusal.status).toBe(want);
  });

  it.each<[string, Record<string, string>, string[]]>([
    ['a browser fetch gets only Bearer (no password dialog)', { 'Sec-Fetch-Mode': 'cors' }, ['Bearer realm="Infersight"']],
    ['a navigation gets Basic too', { 'Sec-Fetch-Mode': 'navigate' }, ['Basic realm="Infersight", charset="UTF-8"', 'Bearer realm="Infersight"']],
    ['curl gets Basic too', {}, ['Basic realm="Infersight", charset="UTF-8"', 'Bearer realm="Infersight"']],
  ])('challenge: %s', async (_name, headers, want) => {
    const v = await guard.check(req(headers), READ);
    expect(v.ok ? [] : v.refusal.headers['WWW-Authenticate']).toEqual(want);
  });

  it('lets everything through when no credentials are configured, and keeps the browser checks', async () => {
    const open = new RequestGuard();
    expect((await open.check(req({}), ADMIN)).ok).toBe(true);
    const v = await open.check(req({ Host: 'a:1', Origin: 'http://b:2' }), ADMIN);
    expect(v.ok ? 0 : v.refusal.status).toBe(403);
  });

  it('refuses beyond the rate limit with 429', async () => {
    let now = 0;
    const g = new RequestGuard({ webConfig: { ...EMPTY_WEB_CONFIG, rateLimit: { intervalMs: 1000, burst: 2 } }, clock: () => now });
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const v = await g.check(req({}), READ);
      statuses.push(v.ok ? 200 : v.refusal.status);
    }
    now = 1000;
    const v = await g.check(req({}), READ);
    expect([...statuses, v.ok ? 200 : v.refusal.status]).toEqual([200, 200, 429, 200]);
  });

  it.each<[string, string | undefined, string[]]>([
    ['an allowed origin', 'https://grafana.example', ['Origin', 'https://grafana.example']],
    ['another origin', 'https://evil.example', ['Origin', null] as unknown as string[]],
    ['a prefix of an allowed origin is not allowed (anchored)', 'https://grafana.example.evil', ['Origin', null] as unknown as string[]],
  ])('CORS: %s', (_name, origin, [vary, allow]) => {
    const headers = new Map<string, unknown>();
    const res = { setHeader: (k: string, v: unknown) => headers.set(k, v) } as unknown as http.ServerResponse;
    guard.prepare(req(origin === undefined ? {} : { Origin: origin }), res, true);
    expect([headers.get('Vary'), headers.get('Access-Control-Allow-Origin') ?? null]).toEqual([vary, allow]);
  });

  it('reads X-Forwarded-Host as the server behind a reverse proxy', () => {
    expect(crossSiteReason(req({ Host: '127.0.0.1:9300', 'X-Forwarded-Host': 'metrics.example', Origin: 'https://metrics.example' }), null)).toBeNull();
  });
});
