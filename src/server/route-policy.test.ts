import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { hashSync } from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../http/index.js';
import { MemoryLogger } from '../model/index.js';
import type { SimApiHandlers } from '../sim/index.js';
import { tempDir } from '../tsdb/testing/temp-dir.js';
import { FALLBACK_ROUTE, UNMATCHED_ROUTE } from './http.js';
import { ROUTE_POLICIES, serverRoutePolicy } from './route-policy.js';
import { startServer, type RunningServer } from './serve.js';

// Every route of a fully wired server (sim API, OTLP listener, lifecycle with /-/quit, admin API),
// enumerated from its route tables, so that a new route cannot be left out of this test.
const TOKENS: Record<Scope, string> = { read: 'r'.repeat(40), write: 'w'.repeat(40), admin: 'a'.repeat(40) };
const sha = (t: string): string => createHash('sha256').update(t).digest('hex');

const ok: SimApiHandlers['getFaults'] = (_req, res) => {
  res.writeHead(200).end('{}');
  return Promise.resolve();
};
const sim: SimApiHandlers = { getGroundTruth: ok, getFaults: ok, postFault: ok, deleteFault: ok, getTargets: ok };

let server: RunningServer;
let remove: () => void;
const base = (): string => `http://127.0.0.1:${server.http.address.port}`;
const otlpBase = (): string => `http://127.0.0.1:${server.otlpHttp?.address.port ?? 0}`;

beforeAll(async () => {
  const t = tempDir('route-policy');
  remove = t.remove;
  const webConfig = path.join(t.dir, 'web.yml');
  // Cost 4 keeps bcrypt cheap in tests; production hashes use 10 or more.
  fs.writeFileSync(webConfig, `basic_auth_users:\n  alice: ${hashSync('secret', 4)}\n`);
  const tokensFile = path.join(t.dir, 'tokens.yml');
  fs.writeFileSync(tokensFile, `tokens:\n${(Object.keys(TOKENS) as Scope[]).map((s) => `  - {name: only-${s}, sha256: ${sha(TOKENS[s])}, scopes: [${s}]}\n`).join('')}`);
  server = await startServer({
    listen: '127.0.0.1:0',
    storage: { dir: path.join(t.dir, 'data'), fsync: { mode: 'never' } },
    logger: new MemoryLogger(),
    clock: () => 1_700_000_000_000,
    ui: false,
    sim,
    ingest: { otlpListen: { address: '127.0.0.1:0', required: true } },
    web: { configFile: webConfig, tokensFile, enableLifecycle: true, enableAdminApi: true, onQuit: () => undefined },
  });
  await server.ready;
});

afterAll(async () => {
  await server.close();
  remove();
});

/** One request per route key, on the listener that serves it; `:name` segments become `x`. */
function routes(): { key: string; url: string; method: string }[] {
  const of = (keys: readonly string[], b: string) =>
    keys.map((key) => {
      const [method, p] = key.split(' ');
      return { key, method, url: b + p.replace(/:\w+/g, 'x') };
    });
  return [...of(server.http.routeKeys, base()), ...of(server.otlpHttp?.routeKeys ?? [], otlpBase()), { key: FALLBACK_ROUTE, method: 'GET', url: `${base()}/nope` }, { key: UNMATCHED_ROUTE, method: 'GET', url: `${base()}/api/v1/nope` }];
}

async function call(r: { method: string; url: string }, authorization?: string): Promise<number> {
  const res = await fetch(r.url, { method: r.method, headers: authorization === undefined ? {} : { Authorization: authorization } });
  await res.arrayBuffer();
  return res.status;
}

describe('route policies', () => {
  it('lists every route the server registers', () => {
    const keys = [...server.http.routeKeys, ...(server.otlpHttp?.routeKeys ?? [])].filter((k) => !k.startsWith('OPTIONS '));
    expect(keys.filter((k) => !ROUTE_POLICIES.has(k))).toEqual([]);
    expect(keys.length).toBeGreaterThan(40);
  });

  it('fails closed on a route nobody listed', () => {
    expect(serverRoutePolicy('DELETE /api/v1/everything')).toEqual({ scope: 'admin', contentTypes: [] });
  });

  it('answers 401 with a challenge on every route without credentials, and with wrong ones', async () => {
    for (const r of routes()) {
      const policy = serverRoutePolicy(r.key);
      if (policy.scope === null) continue;
      const res = await fetch(r.url, { method: r.method });
      await res.arrayBuffer();
      expect([r.key, res.status]).toEqual([r.key, 401]);
      expect(res.headers.get('www-authenticate')).toContain('Bearer realm="Infersight"');
      expect([r.key, await call(r, 'Bearer not-a-token')]).toEqual([r.key, 401]);
      expect([r.key, await call(r, `Basic ${Buffer.from('alice:wrong').toString('base64')}`)]).toEqual([r.key, 401]);
    }
  });

  it('answers 403 on every route to a token without its scope', async () => {
    for (const r of routes()) {
      const policy = serverRoutePolicy(r.key);
      if (policy.scope === null) continue;
      for (const scope of Object.keys(TOKENS) as Scope[]) {
        if (scope === policy.scope) continue;
        expect([r.key, scope, await call(r, `Bearer ${TOKENS[scope]}`)]).toEqual([r.key, scope, 403]);
      }
    }
  });

  it('lets the right scope through: reads, a token as a basic-auth password, a user with every scope', async () => {
    expect(await call({ method: 'GET', url: `${base()}/api/v1/status/buildinfo` }, `Bearer ${TOKENS.read}`)).toBe(200);
    expect(await call({ method: 'GET', url: `${base()}/api/v1/labels` }, `Basic ${Buffer.from(`token:${TOKENS.read}`).toString('base64')}`)).toBe(200);
    expect(await call({ method: 'POST', url: `${base()}/-/reload` }, `Basic ${Buffer.from('alice:secret').toString('base64')}`)).toBe(200);
    expect(await call({ method: 'POST', url: `${base()}/api/v1/admin/tsdb/clean_tombstones` }, `Bearer ${TOKENS.admin}`)).toBe(204);
  });

  it('answers CORS preflights without credentials (browsers never send them), with no data', async () => {
    const res = await fetch(`${base()}/api/v1/query`, { method: 'OPTIONS' });
    expect([res.status, await res.text()]).toEqual([204, '']);
  });
});
