/**
 * The server's web security wiring (docs/security.md): the web configuration and tokens files
 * behind one `RequestGuard` shared by the main listener, the OTLP listener and the gateway; the
 * lifecycle routes (`/-/reload`, `/-/quit`, off unless `--web.enable-lifecycle`) and Prometheus'
 * admin API routes (off unless `--web.enable-admin-api`); and the reload of both files with the
 * scrape configuration.
 */
import {
  EMPTY_TOKENS,
  EMPTY_WEB_CONFIG,
  RequestGuard,
  compileCorsOrigin,
  loadTokens,
  loadWebConfig,
  type TokensFile,
  type WebConfig,
} from '../http/index.js';
import type { ServerResponse } from 'node:http';
import type { Clock, Logger } from '../model/index.js';
import { sendApiError, sendText, type Handler, type HttpListener, type ListenSecurity, type Routes } from './http.js';
import { serverRoutePolicy } from './route-policy.js';

/** The `web` part of `ServeOptions`, named like Prometheus' `--web.*` flags. */
export interface WebOptions {
  /** `--web.config.file`: TLS, headers, basic-auth users (exporter-toolkit's format). */
  readonly configFile?: string;
  /** `--web.tokens.file`: bearer tokens with scopes (src/http/tokens.ts). */
  readonly tokensFile?: string;
  /** `--web.cors.origin`: a regular expression of the origins CORS answers allow (anchored); none by default. */
  readonly corsOrigin?: string;
  /** `--web.enable-lifecycle`: `POST /-/reload` and `/-/quit` (Prometheus: off by default). */
  readonly enableLifecycle?: boolean;
  /** `--web.enable-admin-api`: `/api/v1/admin/tsdb/*` (Prometheus: off by default). */
  readonly enableAdminApi?: boolean;
  /** What `/-/quit` does (the CLI stops the process as on SIGTERM); without it `/-/quit` is not offered. */
  readonly onQuit?: () => void;
}

/** The web security of one server. */
export interface WebSecurity {
  readonly guard: RequestGuard;
  /** `ListenOptions.security` for the server's listeners. */
  readonly security: ListenSecurity;
  /** Listeners whose certificates a reload renews. */
  track(listener: HttpListener | null): void;
  /** Re-reads the web configuration and tokens files, then `reloadOthers` (the scrape configuration); rejects, keeping the old files, when one is invalid. */
  reload(): Promise<void>;
}

async function loadFiles(o: WebOptions): Promise<{ config: WebConfig; tokens: TokensFile }> {
  const config = o.configFile === undefined ? EMPTY_WEB_CONFIG : await loadWebConfig(o.configFile);
  const tokens = o.tokensFile === undefined ? EMPTY_TOKENS : await loadTokens(o.tokensFile);
  return { config, tokens };
}

/** Prometheus' answers of disabled endpoints (web/web.go, web/api/v1/api.go). */
const LIFECYCLE_DISABLED = 'Lifecycle API is not enabled.\n';
const ADMIN_DISABLED = 'admin APIs disabled';

/**
 * Loads the files (throwing `WebConfigError` on an invalid one, so the server does not start on
 * it) and registers the lifecycle and admin routes. `reloadOthers` is the rest of a reload.
 */
export async function wireWebSecurity(routes: Routes, o: WebOptions, logger: Logger, clock: Clock, reloadOthers: () => Promise<void>): Promise<WebSecurity> {
  const { config, tokens } = await loadFiles(o);
  let corsOrigin: RegExp | null = null;
  if (o.corsOrigin !== undefined && o.corsOrigin !== '') corsOrigin = compileCorsOrigin(o.corsOrigin);
  const guard = new RequestGuard({ webConfig: config, tokens, corsOrigin, clock });
  const listeners: HttpListener[] = [];
  const reload = async (): Promise<void> => {
    const next = await loadFiles(o);
    guard.update(next.config, next.tokens);
    for (const l of listeners) {
      if (!l.reloadTls(next.config.tls)) logger.warn('switching between HTTP and HTTPS needs a restart', { address: `${l.address.address}:${l.address.port}` });
    }
    await reloadOthers();
  };

  const lifecycle = (run: (res: ServerResponse) => Promise<void> | void): Handler => async (_req, res) => {
    if (o.enableLifecycle !== true) { sendText(res, 403, LIFECYCLE_DISABLED); return; }
    await run(res);
  };
  const reloadRoute = lifecycle(async (res) => {
    try {
      await reload();
      sendText(res, 200, '');
    } catch (e) {
      logger.error('reloading the configuration failed', { err: (e as Error).message });
      sendText(res, 500, `failed to reload config: ${(e as Error).message}\n`);
    }
  });
  routes.set('POST /-/reload', reloadRoute);
  routes.set('PUT /-/reload', reloadRoute);
  const quit = o.onQuit;
  if (quit !== undefined) {
    const quitRoute = lifecycle((res) => {
      sendText(res, 200, 'Requesting termination... Goodbye!');
      res.once('finish', quit);
    });
    routes.set('POST /-/quit', quitRoute);
    routes.set('PUT /-/quit', quitRoute);
  }
  // Prometheus' admin API. Infersight stores no tombstones (there is no delete_series yet), so
  // clean_tombstones has nothing to do; snapshot and delete_series are not implemented.
  for (const name of ['snapshot', 'delete_series', 'clean_tombstones']) {
    const handler: Handler = (req, res) => {
      req.resume();
      if (o.enableAdminApi !== true) { sendApiError(res, 503, 'unavailable', ADMIN_DISABLED); return; }
      if (name === 'clean_tombstones') {
        res.writeHead(204);
        res.end();
        return;
      }
      sendApiError(res, 501, 'internal', `admin API ${name} is not implemented by Infersight`);
    };
    routes.set(`POST /api/v1/admin/tsdb/${name}`, handler);
    routes.set(`PUT /api/v1/admin/tsdb/${name}`, handler);
  }

  return {
    guard,
    security: { guard, policy: serverRoutePolicy },
    track: (l) => {
      if (l !== null) listeners.push(l);
    },
    reload,
  };
}
