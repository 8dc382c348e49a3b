import { afterEach, describe, expect, it, vi } from 'vitest';
import { authFetch, authorizationFor, setAuthorization } from './auth.js';

afterEach(() => vi.unstubAllGlobals());

describe('authorizationFor', () => {
  it.each([
    ['alice', 'pw', 'Basic YWxpY2U6cHc='],
    ['jürgen', 'ä', 'Basic asO8cmdlbjrDpA=='],
    ['', 'tok', 'Bearer tok'],
  ])('%s', (user, secret, want) => {
    expect(authorizationFor(user, secret)).toBe(want);
  });
});

describe('authFetch', () => {
  it('sends the stored credentials, and forgets them on a 401', async () => {
    const store = new Map<string, string>();
    vi.stubGlobal('sessionStorage', { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => store.set(k, v), removeItem: (k: string) => store.delete(k) });
    const seen: (string | null)[] = [];
    let status = 200;
    vi.stubGlobal('fetch', (_u: unknown, init: RequestInit) => {
      seen.push(new Headers(init.headers).get('Authorization'));
      return Promise.resolve(new Response('', { status }));
    });
    await authFetch('/api/v1/labels');
    setAuthorization('Bearer tok');
    await authFetch('/api/v1/labels');
    status = 401;
    expect((await authFetch('/api/v1/labels')).status).toBe(401);
    await authFetch('/api/v1/labels');
    expect(seen).toEqual([null, 'Bearer tok', 'Bearer tok', null]);
  });
});
