/**
 * `startGateway`: the gateway's own listener and its parts — pools built from the
 * configuration, the keep-alive agent, active health checks, the metrics flusher and the sample
 * sink — and the routes: `POST /v1/chat/completions`, `POST /v1/completions`, `GET /v1/models`,
 * `GET /metrics` (its own series as text exposition), `GET /-/healthy`. Every request first
 * passes the request guard (src/http): credentials and scopes when configured (completions need
 * `write`, the rest `read`), and completions only as same-site `application/json` POSTs, so that no
 * web page can fire inference requests through a form or a `no-cors` fetch.
 */
import http from 'node:http';
import { RequestGuard, createWebServer, formatHostPort, listenOn, type Refusal, type RoutePolicy } from '../http/index.js';
import { noopLogger, systemClock, type Clock, type Logger } from '../model/index.js';
import type { Appendable } from '../storage/index.js';
import { TEXT_CONTENT_TYPE, formatTextExposition } from '../wire/index.js';
import type { GatewayConfig } from './config.js';
import { sendOpenAiError, type OpenAiErrorCode } from './errors.js';
import { HealthChecker, httpProbe, type HealthProbe } from './health.js';
import { ScopeInstruments, describeGatewayMetrics } from './instruments.js';
import { MetricsFlusher } from './flush.js';
import { MetricsRegistry } from './metrics.js';
import { ModelPool, retireScope } from './pool.js';
import { handleCompletion, type ProxyContext } from './proxy.js';
import { JsonlFileSink, Sampler, type SampleSink } from './sampling.js';
import { systemTimers, type Timers } from './timers.js';

/** Options of `startGateway`. */
export interface GatewayOptions {
  readonly config: GatewayConfig;
  /** Where the metrics go (the embedded store, a remote_write appender, a fan-out). */
  readonly appendable: Appendable;
  /** `host:port` to listen on; overrides `config.listen` (`127.0.0.1:0`: a free port). */
  readonly listen?: string;
  readonly logger?: Logger;
  /** Wall clock (flush timestamps, ejection and rate-limit time). */
  readonly now?: Clock;
  /** Monotonic milliseconds for latencies (default `performance.now`). */
  readonly monotonic?: () => number;
  readonly timers?: Timers;
  /** The health-check port (default: GET over the gateway's agent). */
  readonly probe?: HealthProbe;
  /** The sample sink; default: a JSON-lines file sink when `sampling.file` is set, else none. */
  readonly sampleSink?: SampleSink | null;
  /**
   * Authentication, TLS and browser safety (src/http, docs/security.md); the server passes its
   * own. Default: no credentials, plain HTTP, and still no cross-site or non-JSON completions.
   */
  readonly guard?: RequestGuard;
}

const COMPLETIONS: RoutePolicy = { scope: 'write', contentTypes: ['application/json'] };
const READ: RoutePolicy = { scope: 'read' };

/** The OpenAI error code for a guard's refusal. */
function refusalCode(r: Refusal): OpenAiErrorCode {
  if (r.status === 401) return 'invalid_api_key';
  if (r.status === 415) return 'unsupported_media_type';
  if (r.status === 429) return 'rate_limit_exceeded';
  return 'insufficient_scope';
}

/** A running gateway. */
export interface RunningGateway {
  /** `host:port` the listener is bound to, and its base URL. */
  readonly address: string;
  readonly url: string;
  readonly registry: MetricsRegistry;
  /** The pool serving `model` (a name or an alias). */
  pool(model: string): ModelPool | undefined;
  /** Applies a new configuration's models, limits and policies (the listener stays). */
  reconfigure(config: GatewayConfig): void;
  /** Writes the metrics now. */
  flush(): Promise<void>;
  /** Runs one round of health checks now. */
  checkHealth(): Promise<void>;
  /** Stops listening (open streams are cut), stops the checks, writes the metrics a last time. */
  close(): Promise<void>;
}

/** Starts the gateway. */
export async function startGateway(o: GatewayOptions): Promise<RunningGateway> {
  const logger = o.logger ?? noopLogger;
  const now = o.now ?? systemClock;
  const timers = o.timers ?? systemTimers;
  let config = o.config;
  const reg = new MetricsRegistry();
  describeGatewayMetrics(reg);
  const agent = new http.Agent({ keepAlive: true, maxSockets: config.upstream.maxSockets, scheduling: 'lifo', noDelay: true });
  const pools = new Map<string, ModelPool>();
  const byName = new Map<string, ModelPool>();
  const applyModels = (c: GatewayConfig): void => {
    const seen = new Set<string>();
    for (const m of c.models) {
      seen.add(m.name);
      const p = pools.get(m.name);
      if (p === undefined) pools.set(m.name, new ModelPool(m, reg, now));
      else p.update(m);
    }
    for (const [name, p] of pools) {
      if (seen.has(name)) continue;
      for (const r of p.replicas) r.removed = true;
      retireScope(reg, { job: 'gateway', model: name });
      pools.delete(name);
    }
    byName.clear();
    for (const p of pools.values()) for (const n of [p.config.name, ...p.config.aliases]) byName.set(n, p);
  };
  applyModels(config);
  const sink = o.sampleSink !== undefined ? o.sampleSink : config.sampling.rate > 0 && config.sampling.file !== '' ? new JsonlFileSink(config.sampling.file, logger) : null;
  const ctx: ProxyContext = {
    config: () => config,
    pool: (m) => byName.get(m),
    unscoped: new ScopeInstruments(reg, {}, false),
    agent,
    now,
    monotonic: o.monotonic ?? (() => performance.now()),
    timers,
    logger,
    sampler: new Sampler(config.sampling),
    sink,
    ejected: (r, reason) => {
      r.metrics.ejection(reason).inc();
      logger.warn('gateway: replica ejected', { url: r.config.url, reason, until: new Date(r.ejectedUntilMs).toISOString() });
    },
  };
  const replicas = function* () {
    for (const p of pools.values()) yield* p.replicas;
  };
  const health = new HealthChecker(replicas, config.healthCheck, o.probe ?? httpProbe(agent), timers, logger, (r, healthy) => {
    if (!healthy) r.metrics.ejection('health_check').inc();
  });
  const flusher = new MetricsFlusher(reg, o.appendable, {
    intervalMs: config.flushIntervalMs,
    now,
    timers,
    logger,
    before: (t) => {
      for (const r of replicas()) r.metrics.healthy().set(r.routable(t) ? 1 : 0);
    },
  });
  const models = (res: http.ServerResponse): void => {
    const data = [...byName.keys()].sort().map((id) => ({ id, object: 'model', created: 0, owned_by: 'infersight-gateway' }));
    const body = JSON.stringify({ object: 'list', data });
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  };
  const guard = o.guard ?? new RequestGuard({ clock: now });
  const route = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const path = (req.url ?? '/').split('?')[0];
    const method = req.method ?? 'GET';
    const post = (): boolean => {
      if (method === 'POST') return true;
      res.setHeader('Allow', 'POST');
      sendOpenAiError(res, 'method_not_allowed', `Use POST for ${path}.`);
      return false;
    };
    if (path === '/v1/chat/completions' || path === '/v1/completions') {
      if (post()) void handleCompletion(ctx, req, res, path === '/v1/chat/completions');
      return;
    }
    if (path === '/v1/models' && method === 'GET') {
      models(res);
      return;
    }
    if (path === '/metrics' && method === 'GET') {
      const body = formatTextExposition(reg.families());
      res.writeHead(200, { 'Content-Type': TEXT_CONTENT_TYPE, 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
      return;
    }
    if (path === '/-/healthy') {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('Infersight gateway is Healthy.\n');
      return;
    }
    req.resume();
    sendOpenAiError(res, 'not_found', `Unknown path ${method} ${path}.`);
  };
  const server = createWebServer(guard.webConfig.tls, { noDelay: true, requestTimeout: 0 }, (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const completion = req.method === 'POST' && (path === '/v1/chat/completions' || path === '/v1/completions');
    guard.prepare(req, res, false);
    guard.check(req, completion ? COMPLETIONS : READ).then(
      (v) => {
        if (v.ok) { route(req, res); return; }
        // The body stays unread and the connection closes after the answer.
        for (const [k, h] of Object.entries(v.refusal.headers)) res.setHeader(k, h);
        res.setHeader('Connection', 'close');
        sendOpenAiError(res, refusalCode(v.refusal), v.refusal.message);
      },
      (e: unknown) => {
        logger.error('gateway: request check failed', { err: e instanceof Error ? e.message : String(e) });
        sendOpenAiError(res, 'internal_error', 'internal error');
      },
    );
  }, (reason) => logger.warn('gateway: TLS connection refused', { reason }));
  server.keepAliveTimeout = 65_000;
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
  });
  const address = formatHostPort(await listenOn(server, o.listen ?? config.listen));
  health.start();
  flusher.start();
  logger.info('gateway: listening', { address, models: config.models.length });
  let closing: Promise<void> | null = null;
  return {
    address,
    url: `${guard.webConfig.tls === null ? 'http' : 'https'}://${address}`,
    registry: reg,
    pool: (m) => byName.get(m),
    reconfigure: (c) => {
      if (c.listen !== config.listen && o.listen === undefined) logger.warn('gateway: a new listen address needs a restart', { listen: c.listen });
      config = c;
      applyModels(c);
    },
    flush: () => flusher.flush(),
    checkHealth: () => health.round(),
    close: () =>
      (closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
        await health.stop();
        await flusher.close();
        await sink?.close();
        agent.destroy();
      })()),
  };
}
