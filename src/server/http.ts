import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BACKSTOP_REQUEST_TIMEOUT_MS, RequestGuard, createWebServer, isClientAbort, listenOn, requestUrl, type Refusal, type ReloadableServer, type RoutePolicy, type TlsServerConfig } from '../http/index.js';
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
  /**
   * Authentication, TLS and browser safety (src/http): the guard every request passes and the
   * policy of each route key (`FALLBACK_ROUTE` for the static UI, `UNMATCHED_ROUTE` for 404/405).
   * Without it: plain HTTP, no credentials, no CORS, no browser checks.
   */
  readonly security?: ListenSecurity;
}

/** The `security` part of `ListenOptions`. */
export interface ListenSecurity {
  readonly guard: RequestGuard;
  readonly policy: (routeKey: string) => RoutePolicy;
}

/** The route key the fallback handler (the static UI) is checked under. */
export const FALLBACK_ROUTE = 'GET (static UI)';

/** The route key of a request no route matches (404/405). */
export const UNMATCHED_ROUTE = '(no route)';

interface PatternRoute {
  readonly method: string;
  readonly re: RegExp;
  readonly names: string[];
  readonly handler: Handler;
  readonly key: string;
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
    out.push({ method, re: new RegExp(`^${source}$`), names, handler, key });
  }
  return out;
}

function matchPattern(patterns: readonly PatternRoute[], method: string, path: string): { handler: Handler | undefined; params: Record<string, string>; known: boolean; key: string } {
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
    return { handler: p.handler, params, known, key: p.key };
  }
  return { handler: undefined, params: {}, known, key: UNMATCHED_ROUTE };
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

/**
 * Writes a guard's refusal as plain text (exporter-toolkit's way). An unread body is never read:
 * the connection closes after the answer, so a refused sender cannot make the server drain it.
 */
export function sendRefusal(req: http.IncomingMessage, res: http.ServerResponse, r: Refusal): void {
  for (const [k, v] of Object.entries(r.headers)) res.setHeader(k, v);
  if (hasBody(req)) res.setHeader('Connection', 'close');
  sendText(res, r.status, r.message + '\n');
}

/** Whether a request announces a body (a length above 0, or chunks). */
export function hasBody(req: http.IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

/** The status of a request the HTTP parser or Node's timeouts ended: 431, 408 or 400. */
export function clientErrorStatus(code: string | undefined): 431 | 408 | 400 {
  return code === 'HPE_HEADER_OVERFLOW' ? 431 : code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
}

/** A running HTTP listener. */
export interface HttpListener {
  readonly address: AddressInfo;
  /** `https` when the web configuration has a certificate. */
  readonly scheme: 'http' | 'https';
  /** Every key of the route table, for tests that go over all routes. */
  readonly routeKeys: readonly string[];
  /** Applies reloaded certificates to new connections; switching between HTTP and HTTPS needs a restart (false). */
  reloadTls(tls: TlsServerConfig | null): boolean;
  close(): Promise<void>;
}

/**
 * Starts an HTTP server dispatching on the route table. Unknown paths answer 404, known paths
 * with another method 405 (both in Prometheus' error envelope under /api/, as text elsewhere).
 * A handler that throws answers 500 and is logged; the process keeps serving.
 */
export async function listen(address: string, routes: Routes, logger: Logger, options: ListenOptions = {}): Promise<HttpListener> {
  const patterns = compilePatterns(routes);
  const guard = options.security?.guard ?? new RequestGuard();
  const policyOf = options.security?.policy ?? ((): RoutePolicy => ({ scope: 'read' }));
  const tlsAtStart = guard.webConfig.tls;
  const dispatch = (req: http.IncomingMessage, res: http.ServerResponse, verdict: Promise<Refusal | null>, run: () => void | Promise<void>, path: string): void => {
    verdict
      .then((refusal) => (refusal === null ? run() : sendRefusal(req, res, refusal)))
      .catch((err: unknown) => {
        // A client that went away is not a fault of the server: no error line for each one.
        if (isClientAbort(err)) logger.debug('client went away', { path, err: (err as Error).message });
        else logger.error('request failed', { path, err: err instanceof Error ? err.message : String(err) });
        if (!res.headersSent) sendApiError(res, 500, 'internal', 'internal error');
        else res.destroy();
      });
  };
  const server: ReloadableServer = createWebServer(tlsAtStart, { maxHeaderSize: options.maxHeaderBytes, requestTimeout: BACKSTOP_REQUEST_TIMEOUT_MS }, (req, res) => {
    const url = requestUrl(req);
    if (url === null) {
      if (hasBody(req)) res.setHeader('Connection', 'close');
      sendApiError(res, 400, 'bad_data', 'malformed request target');
      return;
    }
    const method = req.method ?? 'GET';
    let key = `${method} ${url.pathname}`;
    let handler = routes.get(key);
    if (handler === undefined && method === 'HEAD') {
      key = `GET ${url.pathname}`;
      handler = routes.get(key);
    }
    let params: Record<string, string> = {};
    let patternKnown = false;
    if (handler === undefined) key = UNMATCHED_ROUTE;
    if (handler === undefined && patterns.length > 0) ({ handler, params, known: patternKnown, key } = matchPattern(patterns, method, url.pathname));
    const api = url.pathname.startsWith('/api/');
    if (handler === undefined && !api && !patternKnown && options.fallback !== undefined && (method === 'GET' || method === 'HEAD')) {
      handler = options.fallback;
      key = FALLBACK_ROUTE;
    }
    guard.prepare(req, res, api);
    const verdict = guard.check(req, policyOf(key)).then((v) => (v.ok ? null : v.refusal));
    const found = handler;
    if (found === undefined) {
      dispatch(req, res, verdict, () => {
      const known = patternKnown || [...routes.keys()].some((k) => k.endsWith(` ${url.pathname}`));
      const status = known ? 405 : 404;
      const msg = known ? `method ${req.method ?? ''} not allowed for ${url.pathname}` : `${url.pathname} not found`;
      if (api) sendApiError(res, status, known ? 'bad_data' : 'not_found', msg);
      else sendText(res, status, msg + '\n');
      }, url.pathname);
      return;
    }
    dispatch(req, res, verdict, () => found(req, res, url, params), url.pathname);
  }, (reason) => logger.warn('TLS connection refused', { reason }));
  // A request the HTTP parser refuses (malformed, or headers over the limit) gets a short answer
  // in the API's error envelope instead of Node's empty one; one Node's request timeout ended
  // (headers, or a body no handler read, still arriving) gets 408. The connection is closed.
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    const answered = (socket as { _httpMessage?: { headersSent?: boolean } | null })._httpMessage?.headersSent === true;
    if (!socket.writable || answered) {
      socket.destroy();
      return;
    }
    const status = clientErrorStatus(err.code);
    const message = status === 431 ? 'request header fields too large' : status === 408 ? 'request timeout: the request did not arrive in time' : 'malformed HTTP request';
    const body = JSON.stringify({ status: 'error', errorType: 'bad_data', error: message });
    socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ''}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
  server.keepAliveTimeout = 65_000;
  const bound = await listenOn(server, address);
  return {
    address: bound,
    scheme: tlsAtStart === null ? 'http' : 'https',
    routeKeys: [...routes.keys()],
    reloadTls: (tls) => {
      if ((tls === null) !== (tlsAtStart === null) || server.reloadTls === undefined || tls === null) return tls === null && tlsAtStart === null;
      server.reloadTls(tls);
      return true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
