import type { Clock, DurationMs, Logger, UnixMs } from '../../model/index.js';
import type { Appendable } from '../../storage/index.js';
import type { Appender } from '../../storage/index.js';
import { formatFromContentType } from '../../wire/index.js';
import type { ScrapeConfig } from './config.js';
import { authorizationHeader, type ReadTextFile } from '../../config/index.js';
import { ScrapeAppendError, ScrapeBodyAppender, ScrapeCache, appendAllStale, appendReport, type AppendResult, type SampleMutation } from './scrape-append.js';
import { readScrapeBody, type RequestTls, type ScrapeFetch } from './scrape-http.js';
import type { Target } from './target.js';
import type { Timers } from './timers.js';

/** Prometheus 2.42's Accept header: OpenMetrics first, then text 0.0.4, then anything. */
export const SCRAPE_ACCEPT_HEADER =
  'application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1';

/** What every scrape loop of a manager shares. */
export interface ScrapeLoopDeps {
  readonly appendable: Appendable;
  readonly fetch: ScrapeFetch;
  readonly timers: Timers;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Reads password, credentials and TLS files (at every scrape, so rotations apply). */
  readonly readFile: ReadTextFile;
  /** Spreads targets of different servers apart (Prometheus' jitter seed). */
  readonly jitterSeed: bigint;
  readonly userAgent: string;
  /**
   * Gives the event loop a turn between pieces of a body being parsed, so that one big or
   * hostile target cannot starve the others (default: `setImmediate`).
   */
  readonly yieldTurn?: () => Promise<void>;
}

const TIMEOUT = Symbol('scrape timeout');
const STOPPED = Symbol('scrape loop stopped');
const DONE = Symbol('scrape done');

function raceAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Scrapes one target at a fixed phase of its interval and appends each scrape through one
 * appender, committed once (Prometheus' `scrapeLoop`). A failed scrape (HTTP error, timeout,
 * malformed body, a limit) appends nothing of the body: only `up` 0, the other synthetic series
 * and staleness markers for everything the last successful scrape had.
 */
export class ScrapeLoop {
  private cancelTimer: (() => void) | undefined;
  private inflight: AbortController | undefined;
  private running: Promise<void> | undefined;
  private pendingTick = false;
  private stopped = false;
  private nextMs: UnixMs = 0;
  /** Set by the pool while the job is over its `target_limit`: every scrape fails with it. */
  forcedError: string | undefined;
  private readonly mutation: SampleMutation;

  constructor(
    readonly target: Target,
    private readonly cfg: ScrapeConfig,
    private readonly deps: ScrapeLoopDeps,
    readonly cache: ScrapeCache = new ScrapeCache(),
  ) {
    this.mutation = { targetLabels: target.publicLabels(), honorLabels: cfg.honorLabels, honorTimestamps: cfg.honorTimestamps, metricRelabelConfigs: cfg.metricRelabelConfigs };
  }

  /** Schedules the first scrape at the target's offset within its interval. */
  start(): void {
    const now = this.deps.clock();
    this.schedule(now + this.target.offsetMs(this.target.intervalMs, this.deps.jitterSeed, now));
  }

  private schedule(atMs: UnixMs): void {
    this.nextMs = atMs;
    this.cancelTimer = this.deps.timers.setTimeout(() => this.tick(), atMs - this.deps.clock());
  }

  private tick(): void {
    if (this.stopped) return;
    this.schedule(this.nextMs + this.target.intervalMs);
    // Like Go's ticker, one tick that falls into a running scrape waits for it; more are dropped.
    if (this.running !== undefined) this.pendingTick = true;
    else this.run();
  }

  private run(): void {
    this.running = this.scrapeAndReport()
      .catch((e: unknown) => this.deps.logger.error('scrape loop failed', { target: this.target.url(), err: String(e) }))
      .finally(() => {
        this.running = undefined;
        if (this.pendingTick && !this.stopped) {
          this.pendingTick = false;
          this.run();
        }
      });
  }

  /** Resolves when the scrape in flight (if any) has been committed; for tests and shutdown. */
  async settled(): Promise<void> {
    while (this.running !== undefined) await this.running;
  }

  /**
   * Stops scraping. With `staleness`, the series of the last scrape get staleness markers once
   * the next scrape would have been due, after waiting one more interval and a tenth in case the
   * target comes back (Prometheus' end-of-run staleness); without, nothing more is written
   * (shutdown, or a reload that hands the cache to a new loop).
   */
  stop(staleness: boolean): void {
    this.stopped = true;
    this.cancelStaleness();
    this.inflight?.abort(STOPPED);
    if (!staleness || this.target.lastScrapeMs === undefined) return;
    const interval = this.target.intervalMs;
    const staleMs = this.nextMs;
    this.cancelTimer = this.deps.timers.setTimeout(() => {
      this.cancelTimer = undefined;
      const failed = (e: unknown) => this.deps.logger.warn('stale append failed', { target: this.target.url(), err: String(e) });
      try {
        const app = this.deps.appendable.appender();
        appendAllStale(app, staleMs, this.cache);
        appendReport(app, staleMs, this.cache, this.mutation.targetLabels, 'stale');
        app.commit().catch(failed);
      } catch (e) {
        failed(e); // the storage closed meanwhile
      }
    }, staleMs + interval + Math.floor(interval / 10) - this.deps.clock());
  }

  /** True while stopped and still waiting to write end-of-run staleness markers. */
  get staleMarkersPending(): boolean {
    return this.stopped && this.cancelTimer !== undefined;
  }

  /** Cancels pending end-of-run staleness markers (server shutdown). */
  cancelStaleness(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
  }

  /** Fetches the target and stages its body into `app` as it arrives; returns the counts. */
  private async request(signal: AbortSignal, app: Appender, start: UnixMs): Promise<AppendResult> {
    const cfg = this.cfg;
    const headers: Record<string, string> = {
      Accept: SCRAPE_ACCEPT_HEADER,
      'Accept-Encoding': 'gzip',
      'User-Agent': this.deps.userAgent,
      'X-Prometheus-Scrape-Timeout-Seconds': String(this.target.timeoutMs / 1000),
    };
    const auth = await authorizationHeader(cfg.http, this.deps.readFile);
    if (auth !== undefined) headers.Authorization = auth;
    const t = cfg.http.tls;
    const read = (inline: string, file: string) => (file !== '' ? this.deps.readFile(file) : Promise.resolve(inline === '' ? undefined : inline));
    const tls: RequestTls = {
      ca: await read(t.ca, t.caFile),
      cert: await read(t.cert, t.certFile),
      key: await read(t.key, t.keyFile),
      ...(t.serverName === '' ? {} : { servername: t.serverName }),
      rejectUnauthorized: !t.insecureSkipVerify,
    };
    const url = this.target.url();
    const res = await this.deps.fetch({ url, headers, tls, followRedirects: cfg.http.followRedirects, signal }).catch((e: unknown) => {
      // Go's client words transport errors as `Get "url": reason`.
      throw new Error(`Get "${url}": ${e instanceof Error ? e.message : String(e)}`);
    });
    if (res.status !== 200) throw new Error(`server returned HTTP status ${res.status} ${res.statusText}`.trimEnd());
    const body = new ScrapeBodyAppender(app, formatFromContentType(res.contentType), start, this.cache, this.mutation, cfg);
    try {
      await readScrapeBody(res, { limitBytes: cfg.bodySizeLimitBytes, onText: (text) => body.push(text), signal, yieldTurn: this.deps.yieldTurn });
      signal.throwIfAborted();
      return body.finish();
    } catch (e) {
      if (e instanceof ScrapeAppendError) throw e;
      // A body that fails while read (size limit, invalid UTF-8) still reports the samples read.
      const c = body.counts;
      throw new ScrapeAppendError((e as Error).message, c.total, c.added);
    }
  }

  /** One scrape: fetch, append, report, commit. */
  private async scrapeAndReport(): Promise<void> {
    const { clock, timers } = this.deps;
    const start = clock();
    const ac = new AbortController();
    this.inflight = ac;
    const cancelTimeout = timers.setTimeout(() => ac.abort(TIMEOUT), this.target.timeoutMs);
    let error: string | undefined;
    const { appendable } = this.deps;
    // The body is staged while it is read; a failure rolls it back and starts a clean appender.
    let app = appendable.appender();
    let counts = { total: 0, added: 0, seriesAdded: 0 };
    try {
      if (this.forcedError !== undefined) error = this.forcedError;
      else counts = await raceAbort(this.request(ac.signal, app, start), ac.signal);
    } catch (e) {
      app.rollback();
      if (ac.signal.reason === STOPPED) return;
      app = appendable.appender();
      error = ac.signal.reason === TIMEOUT ? `Get "${this.target.url()}": context deadline exceeded` : e instanceof Error ? e.message : String(e);
      if (e instanceof ScrapeAppendError && ac.signal.reason !== TIMEOUT) counts = { total: e.total, added: e.added, seriesAdded: 0 };
    } finally {
      cancelTimeout();
      this.inflight = undefined;
      // Releases the connection of a response whose body was not read (an HTTP error status).
      if (!ac.signal.aborted) ac.abort(DONE);
    }
    if (this.stopped) {
      app.rollback();
      return;
    }
    if (error !== undefined) appendAllStale(app, start, this.cache);
    const durationMs: DurationMs = clock() - start;
    appendReport(app, start, this.cache, this.mutation.targetLabels, [error === undefined ? 1 : 0, durationMs / 1000, counts.total, counts.added, counts.seriesAdded]);
    try {
      await app.commit();
    } catch (e) {
      error ??= `appending the scrape failed: ${(e as Error).message}`;
    }
    if (error !== undefined) this.deps.logger.debug('scrape failed', { target: this.target.url(), err: error });
    const t = this.target;
    t.health = error === undefined ? 'up' : 'down';
    t.lastError = error ?? '';
    t.lastScrapeMs = start;
    t.lastScrapeDurationMs = durationMs;
    if (error === undefined) t.metadata = this.cache.metadata;
  }
}
