import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../model/index.js';

/** A route handler: reads the request, writes the response. Thrown errors become 500s. */
export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => void | Promise<void>;

/** A route table keyed by `METHOD path`. */
export type Routes = Map<string, Handler>;

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
export async function listen(address: string, routes: Routes, logger: Logger): Promise<HttpListener> {
  const { host, port } = parseListenAddress(address);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const handler = routes.get(`${req.method ?? 'GET'} ${url.pathname}`) ?? (req.method === 'HEAD' ? routes.get(`GET ${url.pathname}`) : undefined);
    const api = url.pathname.startsWith('/api/');
    if (handler === undefined) {
      const known = [...routes.keys()].some((k) => k.endsWith(` ${url.pathname}`));
      const status = known ? 405 : 404;
      const msg = known ? `method ${req.method ?? ''} not allowed for ${url.pathname}` : `${url.pathname} not found`;
      if (api) sendApiError(res, status, known ? 'bad_data' : 'not_found', msg);
      else sendText(res, status, msg + '\n');
      return;
    }
    Promise.resolve()
      .then(() => handler(req, res, url))
      .catch((err: unknown) => {
        logger.error('request failed', { path: url.pathname, err: err instanceof Error ? err.message : String(err) });
        if (!res.headersSent) sendApiError(res, 500, 'internal', 'internal error');
        else res.destroy();
      });
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
