import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useCleanups } from '../model/testing/cleanups.js';
import { MemoryLogger } from '../model/index.js';
import { tempDir } from '../tsdb/testing/temp-dir.js';
import { listen, sendJson, type HttpListener, type Routes } from './http.js';
import { resolveUiPath, staticUiHandler } from './static-ui.js';

const cleanups = useCleanups();

const INDEX = '<!doctype html><html><body><div id="root"></div><script src="/assets/app-1a2b.js"></script></body></html>';
const APP = `console.log(${JSON.stringify('x'.repeat(4000))});`;

/** A fake build directory next to a secret file that must never be served. */
function fakeBuild(withIndex = true): string {
  const t = tempDir('static-ui');
  cleanups.push(t.remove);
  const dir = path.join(t.dir, 'web');
  fs.mkdirSync(path.join(dir, 'assets'), { recursive: true });
  if (withIndex) fs.writeFileSync(path.join(dir, 'index.html'), INDEX);
  fs.writeFileSync(path.join(dir, 'assets', 'app-1a2b.js'), APP);
  fs.writeFileSync(path.join(t.dir, 'secret.txt'), 'do not serve');
  return dir;
}

async function serve(dir: string): Promise<HttpListener> {
  const routes: Routes = new Map();
  routes.set('GET /api/v1/thing', (_req, res) => sendJson(res, 200, { status: 'success' }));
  routes.set('POST /api/v1/write', (_req, res) => sendJson(res, 204, {}));
  const l = await listen('127.0.0.1:0', routes, new MemoryLogger(), { fallback: staticUiHandler({ dir }) });
  cleanups.push(() => l.close());
  return l;
}

/** A raw request: fetch would normalise `..` and encoded bytes away before they reach the server. */
function raw(l: HttpListener, method: string, rawPath: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: l.address.port, method, path: rawPath, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('resolveUiPath', () => {
  it.each([
    ['/', { kind: 'page' }],
    ['/explore', { kind: 'page' }],
    ['/targets/', { kind: 'page' }],
    ['/alerts', { kind: 'page' }],
    ['/rules', { kind: 'page' }],
    ['/diagnosis', { kind: 'page' }],
    ['/quality', { kind: 'page' }],
    ['/nope', { kind: 'bad' }],
    ['/explore/deeper', { kind: 'bad' }],
    ['/assets/app.js', { kind: 'file', rel: 'assets/app.js' }],
    ['/favicon.svg', { kind: 'file', rel: 'favicon.svg' }],
    ['/../secret.txt', { kind: 'bad' }],
    ['/assets/%2e%2e/%2e%2e/secret.txt', { kind: 'bad' }],
    ['/assets%2f..%2fsecret.txt', { kind: 'bad' }],
    ['/index.html%00.js', { kind: 'bad' }],
    ['/%E0%A4%A', { kind: 'bad' }],
    ['/a\\b.js', { kind: 'bad' }],
  ])('%s', (p, want) => {
    expect(resolveUiPath(p)).toMatchObject(want);
  });
});

describe('static UI', () => {
  it('serves index.html for pages, revalidated, and hashed assets cached and gzipped', async () => {
    const l = await serve(fakeBuild());
    for (const p of ['/', '/explore', '/targets?pool=sim', '/?instance=a&instance=b']) {
      const r = await raw(l, 'GET', p);
      expect(r.status, p).toBe(200);
      expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(r.headers['cache-control']).toBe('no-cache');
      expect(r.body.toString()).toBe(INDEX);
    }
    const js = await raw(l, 'GET', '/assets/app-1a2b.js', { 'accept-encoding': 'gzip, br' });
    expect(js.status).toBe(200);
    expect(js.headers['content-encoding']).toBe('gzip');
    expect(js.headers['cache-control']).toContain('immutable');
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(gunzipSync(js.body).toString()).toBe(APP);
    const plain = await raw(l, 'GET', '/assets/app-1a2b.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(APP);
  });

  it('answers 304 for a matching ETag and no body for HEAD', async () => {
    const l = await serve(fakeBuild());
    const first = await raw(l, 'GET', '/assets/app-1a2b.js');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect((await raw(l, 'GET', '/assets/app-1a2b.js', { 'if-none-match': etag })).status).toBe(304);
    const head = await raw(l, 'HEAD', '/');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(Number(head.headers['content-length'])).toBe(INDEX.length);
  });

  it('refuses paths that leave the build and answers 404 for missing files, and keeps serving', async () => {
    const l = await serve(fakeBuild());
    const hostile: [string, number][] = [
      // WHATWG URL parsing resolves literal dot segments inside the root: a missing file.
      ['/../secret.txt', 404],
      ['/assets/../../secret.txt', 404],
      ['/assets/%2e%2e/%2e%2e/secret.txt', 404],
      ['/assets%2f..%2f..%2fsecret.txt', 404],
      ['/index.html%00.png', 404],
      ['/%ff%fe', 404],
      ['/missing.js', 404],
      ['/nope', 404],
      ['/explore/deeper', 404],
      ['/assets/missing-123.css', 404],
    ];
    for (const [p, status] of hostile) {
      const r = await raw(l, 'GET', p);
      expect(r.status, p).toBe(status);
      expect(r.body.toString()).not.toContain('do not serve');
    }
    expect((await raw(l, 'GET', '/')).status).toBe(200);
  });

  it('leaves /api/ and other methods to the routes: 404/405 in the API envelope, not the UI', async () => {
    const l = await serve(fakeBuild());
    const unknownApi = await raw(l, 'GET', '/api/v1/nope');
    expect(unknownApi.status).toBe(404);
    expect(JSON.parse(unknownApi.body.toString())).toMatchObject({ status: 'error', errorType: 'not_found' });
    expect((await raw(l, 'GET', '/api/v1/write')).status).toBe(405);
    expect((await raw(l, 'POST', '/explore')).status).toBe(404);
    expect((await raw(l, 'GET', '/api/v1/thing')).status).toBe(200);
  });

  it('says how to build the UI when there is no build, and serves it once it appears', async () => {
    const dir = fakeBuild(false);
    const l = await serve(dir);
    const r = await raw(l, 'GET', '/');
    expect(r.status).toBe(503);
    expect(r.body.toString()).toContain('npm run build');
    fs.writeFileSync(path.join(dir, 'index.html'), INDEX);
    expect((await raw(l, 'GET', '/')).status).toBe(200);
  });
});
