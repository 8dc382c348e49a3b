/**
 * Serves the built web UI (`web/`, built by Vite into `dist/web/`) at `/`. The UI is a
 * single-page app: a GET for one of its pages (`/`, `/explore`, `/alerts`, `/rules`, `/targets?…`, `/diagnosis`) answers
 * `index.html` and the app routes on the client; files with an extension answer from the build;
 * anything else is a 404.
 *
 * Files are read once and kept in memory with a gzip copy (the build is a few hundred KiB).
 * Vite names assets by content hash, so `/assets/*` may be cached for a year; `index.html` is
 * revalidated on every load. Paths are resolved inside the build directory only: `..`, encoded
 * slashes, NUL bytes and malformed escapes answer 404, never a file outside it.
 */
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Handler } from './http.js';
import { sendText } from './http.js';

/**
 * Where `npm run build` puts the UI. The same relative path works from `src/server/*.ts` (tests,
 * tsx) and from `dist/server/*.js` (the built CLI): both are two levels below the package root.
 */
export const DEFAULT_UI_DIR = fileURLToPath(new URL('../../dist/web/', import.meta.url));

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
};

/** Types worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.txt', '.map']);

interface CachedFile {
  readonly body: Buffer;
  readonly gzip: Buffer | null;
  readonly type: string;
  readonly etag: string;
}

/**
 * The app's client-side routes (web/src/app/App.tsx) besides `/`. Only these answer `index.html`,
 * so that a mistyped path is a 404 as in Prometheus, not an empty page.
 */
const UI_PAGES: ReadonlySet<string> = new Set(['cost', 'explore', 'alerts', 'rules', 'targets', 'diagnosis', 'quality']);

/** What the UI handler was asked for, after checking the path. */
type Resolved = { kind: 'file'; rel: string } | { kind: 'page' } | { kind: 'bad'; message: string };

/**
 * Maps a URL path onto a file of the build. Page paths (no extension) are the app's routes;
 * anything that could leave the directory is refused. Exported for tests.
 */
export function resolveUiPath(pathname: string): Resolved {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return { kind: 'bad', message: 'malformed URL path' };
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return { kind: 'bad', message: 'invalid character in path' };
  const segments = decoded.split('/').filter((s) => s !== '');
  if (segments.some((s) => s === '..' || s === '.')) return { kind: 'bad', message: 'path may not contain . or .. segments' };
  // An encoded slash inside a segment would change the meaning of the path after decoding.
  if (pathname.split('/').some((s) => /%2f/i.test(s))) return { kind: 'bad', message: 'encoded slash in path' };
  if (segments.length === 0) return { kind: 'page' };
  const rel = segments.join('/');
  if (extname(rel) !== '') return { kind: 'file', rel };
  return UI_PAGES.has(rel) ? { kind: 'page' } : { kind: 'bad', message: 'no such page' };
}

/** Options of `staticUiHandler`. */
export interface StaticUiOptions {
  /** The build directory (default `DEFAULT_UI_DIR`). */
  readonly dir?: string;
}

/**
 * The handler that serves the UI; mount it as the listener's fallback for GET and HEAD. When the
 * UI was not built, pages answer a 503 text saying how to build it (the API keeps working).
 */
export function staticUiHandler(o: StaticUiOptions = {}): Handler {
  const root = normalize(o.dir ?? DEFAULT_UI_DIR);
  const cache = new Map<string, Promise<CachedFile | null>>();

  const load = (rel: string): Promise<CachedFile | null> => {
    let hit = cache.get(rel);
    if (hit === undefined) {
      hit = readBuilt(root, rel);
      cache.set(rel, hit);
      // A file that is missing now may appear after a rebuild: do not remember misses.
      void hit.then((f) => {
        if (f === null) cache.delete(rel);
      });
    }
    return hit;
  };

  return async (req, res, url) => {
    const r = resolveUiPath(url.pathname);
    if (r.kind === 'bad') {
      sendText(res, 404, `${url.pathname} not found: ${r.message}\n`);
      return;
    }
    const rel = r.kind === 'page' ? 'index.html' : r.rel;
    const file = await load(rel);
    if (file === null) {
      if (r.kind === 'page') sendText(res, 503, 'The web UI is not built: run `npm run build` (the API under /api/v1/ works without it).\n');
      else sendText(res, 404, `${url.pathname} not found\n`);
      return;
    }
    send(req, res, file, rel.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
  };
}

async function readBuilt(root: string, rel: string): Promise<CachedFile | null> {
  const path = join(root, rel);
  // resolveUiPath already refused `..`; this keeps the guarantee local to the file system call.
  if (!path.startsWith(root.endsWith(sep) ? root : root + sep)) return null;
  try {
    if (!(await stat(path)).isFile()) return null;
    const body = await readFile(path);
    const ext = extname(rel).toLowerCase();
    const gzip = COMPRESSIBLE.has(ext) && body.length > 1024 ? gzipSync(body) : null;
    const etag = `"${body.length.toString(16)}-${simpleHash(body)}"`;
    return { body, gzip, type: CONTENT_TYPES[ext] ?? 'application/octet-stream', etag };
  } catch {
    return null;
  }
}

/** FNV-1a over the bytes: an ETag only needs to change when the file does. */
function simpleHash(b: Buffer): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < b.length; i++) h = Math.imul(h ^ b[i], 0x01000193);
  return (h >>> 0).toString(16);
}

function send(req: IncomingMessage, res: ServerResponse, f: CachedFile, cacheControl: string): void {
  const headers: Record<string, string | number> = {
    'Content-Type': f.type,
    'Cache-Control': cacheControl,
    ETag: f.etag,
    Vary: 'Accept-Encoding',
    'X-Content-Type-Options': 'nosniff',
  };
  if (req.headers['if-none-match'] === f.etag) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  const body = f.gzip !== null && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '') ? f.gzip : f.body;
  if (body !== f.body) headers['Content-Encoding'] = 'gzip';
  headers['Content-Length'] = body.length;
  res.writeHead(200, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
}
