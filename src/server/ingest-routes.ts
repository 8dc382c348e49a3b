import type http from 'node:http';
import type { Clock, Logger } from '../model/index.js';
import {
  CardinalityTracker,
  DEFAULT_INGEST_LIMITS,
  OtlpReceiver,
  RemoteWriteReceiver,
  type IngestLimits,
  type IngestResponse,
  type OtlpReceiverOptions,
} from '../ingest/index.js';
import { bodyProblemStatus, readBody, type BodyReadSettings } from '../http/index.js';
import { StorageError, StorageErrorCode, type Appendable } from '../storage/index.js';
import { listen, sendText, type Handler, type HttpListener, type ListenSecurity, type Routes } from './http.js';

/** Settings of the write endpoints (`infersight serve`'s ingest flags). */
export interface IngestOptions {
  /** Body, series and cardinality limits shared by every receiver. */
  readonly limits?: Partial<IngestLimits>;
  /** OTLP translation settings. */
  readonly otlp?: Pick<OtlpReceiverOptions, 'promoteResourceAttributes' | 'targetInfo' | 'deltaStateTtlMs'>;
  /**
   * Address of the separate OTLP/HTTP listener (`POST /v1/metrics`), `null` for none. `required`
   * false: a busy port is logged and skipped instead of failing the start (the default address
   * of `infersight serve`, so that two servers on one machine still start).
   */
  readonly otlpListen?: { readonly address: string; readonly required: boolean } | null;
  /** Body time limits (default `DEFAULT_BODY_TIMEOUTS`: 30 s idle, 60 s in all; 408 past them). */
  readonly bodyRead?: BodyReadSettings;
}

/** The receivers of one server, over its store. */
export interface IngestReceivers {
  readonly remoteWrite: RemoteWriteReceiver;
  readonly otlp: OtlpReceiver;
  readonly limits: IngestLimits;
  readonly bodyRead: BodyReadSettings;
}

/**
 * Builds the receivers over the store returned by `db()`; while it returns null (WAL replay),
 * writes are answered 503 so that senders retry.
 */
export function ingestReceivers(db: () => Appendable | null, options: IngestOptions, clock: Clock, logger: Logger): IngestReceivers {
  const appendable: Appendable = {
    appender: () => {
      const d = db();
      if (d === null) throw new StorageError(StorageErrorCode.UNAVAILABLE, 'the store is not ready yet: replaying the write-ahead log');
      return d.appender();
    },
  };
  const limits = { ...DEFAULT_INGEST_LIMITS, ...options.limits };
  const tracker = new CardinalityTracker(limits.maxSeriesPerMetric, limits.cardinalityWindowMs, limits.maxSeries);
  return {
    remoteWrite: new RemoteWriteReceiver(appendable, { limits, tracker, clock, logger }),
    otlp: new OtlpReceiver(appendable, { ...options.otlp, limits, tracker, clock, logger }),
    limits,
    bodyRead: options.bodyRead ?? {},
  };
}

function send(res: http.ServerResponse, r: IngestResponse): void {
  if (r.status === 204) {
    res.writeHead(204, r.headers);
    res.end();
    return;
  }
  const body = typeof r.body === 'string' ? Buffer.from(r.body, 'utf8') : r.body;
  res.writeHead(r.status, { ...r.headers, 'Content-Length': body.length });
  res.end(body);
}

function receiverHandler(receive: (req: { body: Uint8Array; headers: http.IncomingHttpHeaders }) => Promise<IngestResponse>, maxBytes: number, read: BodyReadSettings): Handler {
  return async (req, res) => {
    const r = await readBody(req, { ...read, maxBytes });
    if (r.ok) {
      send(res, await receive({ body: r.body, headers: req.headers }));
      return;
    }
    // A client that went away gets no answer; a too large or too slow body is refused as plain
    // text, like the receivers' other errors, and the connection closes with the rest unread.
    if (r.problem.kind === 'aborted') {
      res.destroy();
      return;
    }
    const text = `${r.problem.message}\n`;
    res.writeHead(bodyProblemStatus(r.problem), { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text), Connection: 'close' });
    res.end(text);
  };
}

/** Adds `POST /api/v1/write` (remote write) and `POST /api/v1/otlp/v1/metrics` (OTLP/HTTP) to `routes`. */
export function registerIngestRoutes(routes: Routes, r: IngestReceivers): void {
  routes.set('POST /api/v1/write', receiverHandler((req) => r.remoteWrite.handle(req), r.limits.maxBodyBytes, r.bodyRead));
  routes.set('POST /api/v1/otlp/v1/metrics', receiverHandler((req) => r.otlp.handle(req), r.limits.maxBodyBytes, r.bodyRead));
}

/**
 * Starts the separate OTLP/HTTP listener (`POST /v1/metrics`, the standard port 4318), or
 * returns null when none is configured, or when the address is busy and not `required`.
 * `security`: the server's guard and route policies (TLS and credentials as on the main listener).
 */
export async function startOtlpListener(r: IngestReceivers, options: IngestOptions, logger: Logger, security?: ListenSecurity): Promise<HttpListener | null> {
  const o = options.otlpListen;
  if (o === undefined || o === null) return null;
  const routes: Routes = new Map();
  routes.set('POST /v1/metrics', receiverHandler((req) => r.otlp.handle(req), r.limits.maxBodyBytes, r.bodyRead));
  routes.set('GET /', (_req, res) => sendText(res, 200, 'Infersight OTLP/HTTP receiver: POST /v1/metrics\n'));
  try {
    const l = await listen(o.address, routes, logger, { security });
    logger.info('OTLP receiver listening', { address: `${l.address.address}:${l.address.port}` });
    return l;
  } catch (e) {
    if (o.required || (e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
    logger.warn('OTLP receiver not started: address in use (OTLP stays available on /api/v1/otlp/v1/metrics)', { address: o.address });
    return null;
  }
}
