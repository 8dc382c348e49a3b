import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../model/index.js';

/**
 * A route handler: reads the request, writes the response. Thrown errors become 500s. `params`
 * holds the decoded `:name` segments of the route's path.
 */
export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, url: URL, params: Readonly<Record<string, string>>) => void | Promise<void>;

/**
 * A route table keyed by `METHOD path`. A path segment `:name` matches any one segment and hands
 * it to the handler decoded (`GET /api/v1/label/:name/values`); exact paths win over patterns.
 */
export type Routes = Map<string, Handler>;

/** Options of `listen`. */
export interface ListenOptions {
  /** Largest request line plus headers accepted; Node's default is 16 KiB, Go's (Prometheus') 1 MiB. */
  readonly maxHeaderBytes?: number;
  /**
   * Answers GET and HEAD requests outside `/api/` that no route matches (the web UI). Without it
   * they are 404s.
   */
  readonly fallback?: Handler;
}

interface PatternRoute {
  readonly method: string;
  readonly re: RegExp;
  readonly names: string[];
  readonly handler: Handler;
}

function compilePatterns(routes: Routes): PatternRoute[] {
  const out: PatternRoute[] = [];
  for (const [key, handler] of routes) {
    const [method, path] = key.split(' ');
    if (!path.includes('/:')) continue;
    const names: string[] = [];
    const source = path
      .split('/')
      .map((seg) => {
        if (!seg.startsWith(':')) return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(seg.slice(1));
        return '([^/]+)';
      })
      .join('/');
    out.push({ method, re: new RegExp(`^${source}$`), names, handler });
  }
  return out;
}

function matchPattern(patterns: readonly PatternRoute[], method: string, path: string): { handler: Handler | undefined; params: Record<string, string>; known: boolean } {
  let known = false;
  for (const p of patterns) {
    const m = p.re.exec(path);
    if (!m) continue;
    known = true;
    if (p.method !== method && !(method === 'HEAD' && p.method === 'GET')) continue;
    const params: Record<string, string> = {};
    p.names.forEach((n, i) => {
      try {
        params[n] = decodeURIComponent(m[i + 1]);
      } catch {
        params[n] = m[i + 1];
      }
    });
    return { handler: p.handler, params, known };
  }
  return { handler: undefined, params: {}, known };
}

/** The Prometheus API error envelope, also used for Infersight's own APIs. */
export function sendApiError(res: http.ServerResponse, status: number, errorType: string, error: string): void {
  sendJson(res, status, { status: 'error', errorType, error });
}

/** Writes a JSON body with the given status. */
export function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/** Writes a plain-text body with the given status. */
export function sendText(res: http.ServerResponse, status: number, text: string, contentType = 'text/plain; charset=utf-8'): void {
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/** A running HTTP listener. */
export interface HttpListener {
  readonly address: AddressInfo;
  close(): Promise<void>;
}

/** Parses `host:port` (`:9300` means all interfaces). */
export function parseListenAddress(listen: string): { host: string | undefined; port: number } {
  const m = /^(.*):(\d+)$/.exec(listen);
  if (!m) throw new Error(`invalid listen address ${JSON.stringify(listen)}: want host:port`);
  const port = Number(m[2]);
  if (port > 65535) throw new Error(`invalid port in listen address ${JSON.stringify(listen)}`);
  const host = m[1] === '' ? undefined : m[1].replace(/^\[(.*)\]$/, '$1');
  return { host, port };
}

/**
 * Starts an HTTP server dispatching on the route table. Unknown paths answer 404, known paths
 * with another method 405 (both in Prometheus' error envelope under /api/, as text elsewhere).
 * A handler that throws answers 500 and is logged; the process keeps serving.
 */
export async function listen(address: string, routes: Routes, logger: Logger, options: ListenOptions = {}): Promise<HttpListener> {
  const { host, port } = parseListenAddress(address);
  const patterns = compilePatterns(routes);
  const server = http.createServer({ maxHeaderSize: options.maxHeaderBytes }, (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';
    let handler = routes.get(`${method} ${url.pathname}`) ?? (method === 'HEAD' ? routes.get(`GET ${url.pathname}`) : undefined);
    let params: Record<string, string> = {};
    let patternKnown = false;
    if (handler === undefined && patterns.length > 0) ({ handler, params, known: patternKnown } = matchPattern(patterns, method, url.pathname));
    const api = url.pathname.startsWith('/api/');
    if (handler === undefined && !api && !patternKnown && options.fallback !== undefined && (method === 'GET' || method === 'HEAD')) handler = options.fallback;
    if (handler === undefined) {
      const known = patternKnown || [...routes.keys()].some((k) => k.endsWith(` ${url.pathname}`));
      const status = known ? 405 : 404;
      const msg = known ? `method ${req.method ?? ''} not allowed for ${url.pathname}` : `${url.pathname} not found`;
      if (api) sendApiError(res, status, known ? 'bad_data' : 'not_found', msg);
      else sendText(res, status, msg + '\n');
      return;
    }
    Promise.resolve()
      .then(() => handler(req, res, url, params))
      .catch((err: unknown) => {
        logger.error('request failed', { path: url.pathname, err: err instanceof Error ? err.message : String(err) });
        if (!res.headersSent) sendApiError(res, 500, 'internal', 'internal error');
        else res.destroy();
      });
  });
  // A request the HTTP parser refuses (malformed, or headers over the limit) gets a short answer
  // in the API's error envelope instead of Node's empty one; the connection is closed.
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? 431 : 400;
    const body = JSON.stringify({ status: 'error', errorType: 'bad_data', error: tooLarge ? 'request header fields too large' : 'malformed HTTP request' });
    socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ''}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    address: server.address() as AddressInfo,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
