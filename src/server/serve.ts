import type { Clock, Logger } from '../model/index.js';
import { Db, type DbOptions } from '../tsdb/index.js';
import { TEXT_CONTENT_TYPE, formatTextExposition } from '../wire/index.js';
import { listen, sendText, type HttpListener, type Routes } from './http.js';
import { processMetricFamilies, tsdbMetricFamilies } from './self-metrics.js';

/** Options of `startServer`. */
export interface ServeOptions {
  /** `host:port` to listen on. */
  listen: string;
  /** Storage options (data directory, retention, fsync policy). */
  storage: Omit<DbOptions, 'logger' | 'clock'>;
  logger: Logger;
  clock: Clock;
  /** Opens the store; defaults to `Db.open` (tests inject one they control). */
  openStore?: (options: DbOptions) => Promise<Db>;
}

/** A running Infersight server. */
export interface RunningServer {
  readonly http: HttpListener;
  /** The embedded store; null until the WAL replay has finished. */
  db(): Db | null;
  /** Resolves once the store is open (or rejects when opening failed). */
  readonly ready: Promise<void>;
  /** Stops accepting requests, then flushes and closes the store. */
  close(): Promise<void>;
}

/**
 * Wires the embedded store and the HTTP routes. The listener starts first so that `/-/healthy`
 * answers and `/-/ready` says 503 while the WAL is replayed (the replay yields to the event loop
 * between segments).
 */
export async function startServer(o: ServeOptions): Promise<RunningServer> {
  let db: Db | null = null;
  const started = o.clock();
  const routes: Routes = new Map();
  routes.set('GET /-/healthy', (_req, res) => sendText(res, 200, 'Infersight is Healthy.\n'));
  routes.set('GET /-/ready', (_req, res) =>
    db === null ? sendText(res, 503, 'Service Unavailable: replaying the write-ahead log.\n') : sendText(res, 200, 'Infersight is Ready.\n'),
  );
  routes.set('GET /metrics', (_req, res) => {
    const families = processMetricFamilies(started);
    if (db !== null) families.push(...tsdbMetricFamilies(db.stats()));
    sendText(res, 200, formatTextExposition(families), TEXT_CONTENT_TYPE);
  });
  const http = await listen(o.listen, routes, o.logger);
  o.logger.info('listening', { address: `${http.address.address}:${http.address.port}` });
  const ready = (o.openStore ?? Db.open)({ ...o.storage, logger: o.logger, clock: o.clock }).then(
    (opened) => {
      db = opened;
    },
    async (e: unknown) => {
      // Without a store there is nothing to serve: stop listening so the process can exit.
      o.logger.error('opening the store failed', { err: e instanceof Error ? e.message : String(e) });
      await http.close();
      throw e;
    },
  );
  let closing: Promise<void> | null = null;
  return {
    http,
    db: () => db,
    ready,
    close: () =>
      (closing ??= (async () => {
        await http.close();
        await ready.catch(() => undefined);
        if (db !== null) await db.close();
      })()),
  };
}
