import type { RunningGateway } from '../gateway/index.js';
import { formatHostPort, type BodyReadSettings } from '../http/index.js';
import { formatDuration, type Clock, type Logger, type UnixMs } from '../model/index.js';
import { NormalizingAppendable } from '../normalize/index.js';
import { DEFAULT_RESULT_CACHE_BYTES, Engine, EngineQueryClient, ResultCache, type EngineOptions } from '../promql/index.js';
import type { QueryClient } from '../query/index.js';
import { catalogMetadata } from '../semconv/index.js';
import type { SimApiHandlers } from '../sim/index.js';
import type { Appendable } from '../storage/index.js';
import { Db, DEFAULT_RETENTION_MS, type DbOptions } from '../tsdb/index.js';
import { TEXT_CONTENT_TYPE, formatTextExposition } from '../wire/index.js';
import { DEFAULT_API_LIMITS, registerApiRoutes, tsdbStatus, type ApiLimits, type RulesSource } from './api/index.js';
import { registerFederateRoutes } from './federate.js';
import { deferredAppendable, startServerGateway, type ServerGatewayOptions } from './gateway.js';
import { registerSimRoutes } from './sim-routes.js';
import { listen, sendText, type HttpListener, type Routes } from './http.js';
import { ingestReceivers, registerIngestRoutes, startOtlpListener, type IngestOptions } from './ingest-routes.js';
import { costMetricFamilies, wireCost, type CostWiringOptions } from './cost-wiring.js';
import type { HistoryDeriver } from './demo-history.js';
import { wireDiagnosis, type DiagnoseWiringOptions } from './diagnose-wiring.js';
import { wireQualityIngest, type QualityIngestOptions } from './quality-ingest-wiring.js';
import { wireQuality, type QualityWiring, type QualityWiringOptions } from './quality-wiring.js';
import { wireRules, type RulesWiring, type RulesWiringOptions } from './rules-wiring.js';
import { wireScraping, type ScrapeWiringOptions } from './scrape-routes.js';
import { EventLoopDelayMetrics, processMetricFamilies, resultCacheMetricFamilies, rulesMetricFamilies, tsdbMetricFamilies } from './self-metrics.js';
import { staticUiHandler, type StaticUiOptions } from './static-ui.js';
import { buildInfo, runtimeInfo } from './status-info.js';
import { wireWebSecurity, type WebOptions } from './web-security.js';

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
  /** PromQL engine settings (lookback, timeout, sample limit, concurrency, feature flags); Prometheus 3's defaults. */
  engine?: Omit<EngineOptions, 'now'>;
  /**
   * Byte budget of the range-result cache in front of the engine (`--query.cache-size`,
   * src/promql/result-cache); 0 turns it off. Default `DEFAULT_RESULT_CACHE_BYTES` (128 MiB).
   */
  resultCacheBytes?: number;
  /** Limits of the query API (query length, form body size). */
  api?: Partial<ApiLimits>;
  /**
   * Time limits of reading request bodies on every route (src/http/body.ts; default 30 s idle,
   * 60 s in all, then 408) and their timers (tests inject virtual ones).
   */
  bodyRead?: BodyReadSettings;
  /** The command-line flags as given, for `/api/v1/status/flags`. */
  flags?: Readonly<Record<string, string>>;
  /** Scraping (`--config.file`, Prometheus scrape_configs): src/server/scrape-routes.ts. */
  scrape?: Pick<ScrapeWiringOptions, 'configFile' | 'manager'>;
  /** Write endpoints (remote write, OTLP): limits, translation, the OTLP listener (none unless set). */
  ingest?: IngestOptions;
  /**
   * Normalization of ingested series into the unified catalog (src/normalize): on by default;
   * `keepRaw` also stores the engine-native series.
   */
  normalize?: { enabled?: boolean; keepRaw?: boolean };
  /** The simulator's control API, mounted under `/api/v1/sim/` (`infersight demo`). */
  sim?: SimApiHandlers;
  /** The OpenAI-compatible gateway on its own listener, writing into the store (src/server/gateway.ts). */
  gateway?: ServerGatewayOptions;
  /** The built web UI served at `/` (src/server/static-ui.ts); `false` serves none. */
  ui?: StaticUiOptions | false;
  /**
   * Samples to write before the server is ready (the demo's history replay,
   * src/server/demo-history.ts): run once the store is open and before scraping starts, with the
   * ingest target (normalization included) and the query client; `/-/ready` answers 503 with
   * `description` until it settles. The signal aborts it when the server closes. A failure is
   * logged and the server goes on with what was written.
   */
  backfill?: ServerBackfill;
  /** Authentication, TLS, CORS, lifecycle and admin API switches (src/server/web-security.ts, docs/security.md). */
  web?: WebOptions;
  /**
   * Rules and alerting (`rule_files`, `alerting:` and `global` of the `scrape.configFile`,
   * src/server/rules-wiring.ts): the external URL alerts link back to, and test seams.
   */
  rules?: Pick<RulesWiringOptions, 'timers' | 'notifier' | 'ruleFileFs'> & { readonly externalURL?: string };
  /**
   * Diagnosis (src/server/diagnose-wiring.ts): the diagnoser behind `/api/v1/diagnosis` and the
   * online insight runner behind `/api/v1/insights` and the `llm_diagnosis_*` series, replayed over
   * the backfill's span like the rules.
   */
  diagnose?: DiagnoseWiringOptions;
  /**
   * Score ingest (`POST /api/v1/quality/scores`, src/server/quality-ingest-wiring.ts): on by
   * default; `false` turns the route off (503). The quality namespace guard is on regardless.
   */
  qualityScores?: QualityIngestOptions | false;
  /**
   * Answer quality (src/server/quality-wiring.ts): src/quality's factories, and settings that turn
   * it on without a `quality:` section (the demo). The gateway's samples feed the pipeline; drift
   * replays over the backfill's span after the rules.
   */
  quality?: QualityWiringOptions;
  /**
   * Cost (src/server/cost-wiring.ts): the cost module, the catalogs of the `cost:` section of the
   * `scrape.configFile`, the evaluator behind `/api/v1/cost/*` and the `llm_cost_*` series, replayed
   * over a backfill in step with it (`run`'s derivers), else after it over the span the head accepts.
   */
  cost?: CostWiringOptions;
}

/**
 * How far inside the head's appendable window a replay over a backfill starts: live scrapes move
 * that window on while the replay runs, so it must not start at the window's very edge.
 */
const REPLAY_MARGIN_MS = 5 * 60_000;

/** An appendable that takes every sample and keeps none (see the gateway's wiring). */
const DISCARDING_APPENDABLE: Appendable = {
  appender: () => ({ append: (ref) => ref, commit: () => Promise.resolve(), rollback: () => undefined }),
};

/** See `ServeOptions.backfill`. */
export interface ServerBackfill {
  /** What is being written, for `/-/ready` and the log ("replaying the last 3h of the simulated fleet"). */
  readonly description: string;
  /**
   * Writes the samples. `derivers` compute derived data over the span as it is written (cost: the
   * history is longer than the hour the head accepts behind its newest sample, so it cannot wait
   * for the end); a backfill that does not run them leaves that to the replay after it.
   */
  run(ingest: Appendable, query: QueryClient, signal: AbortSignal, derivers: readonly HistoryDeriver[]): Promise<void>;
  /**
   * Where the backfill's span starts: once it is written (and live scraping has started), the
   * rules are evaluated over `[rulesFromMs, now]`, as far back as the head accepts samples, as if
   * they had run live (Prometheus' rule backfill), before they start.
   */
  readonly rulesFromMs?: UnixMs;
}

/** A running Infersight server. */
export interface RunningServer {
  readonly http: HttpListener;
  /** The separate OTLP/HTTP listener, when one was started (`ingest.otlpListen`). */
  readonly otlpHttp: HttpListener | null;
  /** The gateway, when `gateway` was given. */
  readonly gateway: RunningGateway | null;
  /** The embedded store; null until the WAL replay has finished. */
  db(): Db | null;
  /** The query client over the embedded engine and store; null until the store is open. */
  queryClient(): QueryClient | null;
  /** The rules and alerts being evaluated (`/api/v1/rules` shows the same). */
  readonly rules: RulesWiring;
  /** Re-reads the web configuration, tokens, scrape configuration and rule files (SIGHUP); rejects, keeping the old ones, when one is invalid. */
  reloadConfig(): Promise<void>;
  /** Resolves once the server is ready: the store open and the backfill, if any, written (rejects when opening failed). */
  readonly ready: Promise<void>;
  /** Stops accepting requests, then flushes and closes the store. */
  close(): Promise<void>;
}

/** The settings that shaped this server, named like `infersight serve`'s flags, when the caller passed none. */
function derivedFlags(o: ServeOptions): Record<string, string> {
  const e = o.engine ?? {};
  return {
    listen: o.listen,
    data: o.storage.dir,
    retention: formatDuration(o.storage.retentionMs ?? DEFAULT_RETENTION_MS),
    'retention-size': String(o.storage.retentionBytes ?? 0),
    'out-of-order-window': formatDuration(o.storage.outOfOrderWindowMs ?? 0),
    'storage.tsdb.max-series': String(o.storage.maxSeries ?? DEFAULT_MAX_HEAD_SERIES),
    'query.lookback-delta': formatDuration(e.lookbackDeltaMs ?? 300_000),
    'query.timeout': formatDuration(e.timeoutMs ?? 120_000),
    'query.max-samples': String(e.maxSamples ?? 50_000_000),
    'query.max-concurrency': String(e.maxConcurrent ?? 20),
    'query.cache-size': String(o.resultCacheBytes ?? DEFAULT_RESULT_CACHE_BYTES),
  };
}

/** The head series limit when none is given (`--storage.tsdb.max-series`): 2 M series, about 4 times the receivers' 500 k (docs/ingest.md). */
export const DEFAULT_MAX_HEAD_SERIES = 2_000_000;

/**
 * Wires the embedded store, the PromQL engine and the HTTP routes. The listener starts first so
 * that `/-/healthy` answers and `/-/ready` says 503 while the WAL is replayed (the replay yields
 * to the event loop between segments); the query API answers 503 `unavailable` meanwhile. A
 * backfill (`o.backfill`) then writes before scraping starts; `/-/ready` stays 503 until it is
 * done, while queries already see what it has written.
 */
export async function startServer(o: ServeOptions): Promise<RunningServer> {
  let db: Db | null = null;
  let client: QueryClient | null = null;
  let resultCache: ResultCache | null = null;
  const started = o.clock();
  const engine = new Engine({ ...o.engine, now: o.clock });
  const retention = { ms: o.storage.retentionMs ?? DEFAULT_RETENTION_MS, bytes: o.storage.retentionBytes ?? 0 };
  const routes: Routes = new Map();
  let rulesSource: RulesSource | null = null;
  routes.set('GET /-/healthy', (_req, res) => sendText(res, 200, 'Infersight is Healthy.\n'));
  let backfilling = o.backfill !== undefined;
  // Until the backfill's samples are written (`backfilling` lasts until the replays after it are done too).
  let writingBackfill = o.backfill !== undefined;
  routes.set('GET /-/ready', (_req, res) =>
    db === null
      ? sendText(res, 503, 'Service Unavailable: replaying the write-ahead log.\n')
      : backfilling
        ? sendText(res, 503, `Service Unavailable: ${o.backfill?.description ?? 'writing history'}.\n`)
        : sendText(res, 200, 'Infersight is Ready.\n'),
  );
  const loopDelay = new EventLoopDelayMetrics();
  routes.set('GET /metrics', (_req, res) => {
    const families = [...processMetricFamilies(started), ...loopDelay.families()];
    if (db !== null) families.push(...tsdbMetricFamilies(db.stats()));
    if (resultCache !== null) families.push(...resultCacheMetricFamilies(resultCache.stats()));
    if (rulesSource !== null) families.push(...rulesMetricFamilies(rulesSource.snapshot(), rules.notifierStats()));
    families.push(...scores.families());
    families.push(...costMetricFamilies(cost.stats()));
    sendText(res, 200, formatTextExposition(families), TEXT_CONTENT_TYPE);
  });
  // Range queries go through the result cache, which the store's change feed keeps exact.
  const queryClient = (): QueryClient | null => {
    if (db === null) return null;
    if (client !== null) return client;
    const cacheBytes = o.resultCacheBytes ?? DEFAULT_RESULT_CACHE_BYTES;
    resultCache = cacheBytes > 0 ? new ResultCache({ engine, queryable: db, changes: db.changes, maxBytes: cacheBytes }) : null;
    return (client = new EngineQueryClient({ engine: resultCache ?? engine, queryable: db, metadata: catalogMetadata }));
  };
  const diagnosis = wireDiagnosis(o.diagnose ?? {}, queryClient, o.clock, o.logger);
  const scores = wireQualityIngest(o.qualityScores, o.clock, o.logger);
  let quality: QualityWiring | null = null;
  registerApiRoutes(routes, {
    client: queryClient,
    parserOptions: engine.parserOptions,
    defaultTimeoutMs: o.engine?.timeoutMs ?? 120_000,
    limits: { ...DEFAULT_API_LIMITS, ...o.api },
    status: {
      buildInfo: buildInfo(),
      runtimeInfo: () => runtimeInfo(started, retention, db?.stats().wal.corruptionsRepaired ?? 0),
      flags: o.flags ?? derivedFlags(o),
      tsdb: () => (db === null ? null : tsdbStatus(db)),
    },
    clock: o.clock,
    logger: o.logger,
    bodyRead: o.bodyRead,
    rules: () => rulesSource,
    diagnosis: () => diagnosis.source(),
    qualityScores: () => scores.ingest(),
    quality: () => quality?.source() ?? null,
    cost: () => cost.source(),
  });
  // Prometheus' federation endpoint over the store: src/server/federate.ts.
  registerFederateRoutes(routes, {
    queryable: () => db,
    clock: o.clock,
    lookbackDeltaMs: o.engine?.lookbackDeltaMs ?? 300_000,
    limits: { ...DEFAULT_API_LIMITS, ...o.api },
    logger: o.logger,
    bodyRead: o.bodyRead,
  });
  // Where ingest writes once the store is open: through the normalizer (engine-native names
  // become the catalog's) unless normalization is off, behind the quality namespace guard: push
  // receivers refuse a request with a forbidden quality series, scrapes and the backfill drop it.
  let ingestTarget: Appendable | null = null;
  let pushTarget: Appendable | null = null;
  if (o.sim) registerSimRoutes(routes, o.sim);
  // Ingest receivers (remote write, OTLP): src/server/ingest-routes.ts.
  const receivers = ingestReceivers(() => pushTarget, { bodyRead: o.bodyRead, ...o.ingest }, o.clock, o.logger);
  registerIngestRoutes(routes, receivers);
  // Scraping: loads --config.file (an invalid file stops the start) and adds its routes.
  const scraping = await wireScraping(routes, { ...o.scrape, logger: o.logger, clock: o.clock, listenPort: () => http.address.port });
  // Rules and alerting from the same file (an invalid rule file stops the start too).
  const rules = await wireRules({
    configFile: o.scrape?.configFile,
    parserOptions: engine.parserOptions,
    logger: o.logger,
    clock: o.clock,
    ...o.rules,
    externalURL: () => o.rules?.externalURL ?? `http://${formatHostPort(http.address)}`,
  });
  rulesSource = rules.source();
  // The quality section of the same file (an invalid one stops the start too).
  const q = await wireQuality(o.quality ?? {}, { configFile: o.scrape?.configFile, dataDir: o.storage.dir, clock: o.clock, logger: o.logger, metrics: () => scores.metrics() });
  quality = q;
  // Cost's catalogs from the same file (a broken catalog stops the start too).
  const cost = await wireCost({ ...o.cost, configFile: o.scrape?.configFile, clock: o.clock, logger: o.logger }, () => db, queryClient);
  // --web.* (an invalid file stops the start): one guard for every listener, lifecycle and admin routes.
  const web = await wireWebSecurity(routes, o.web ?? {}, o.logger, o.clock, async () => {
    await scraping.reload();
    await rules.reload();
    await q.reload();
    await cost.reload();
  });
  // Go's (and so Prometheus') header limit, so that a long GET query reaches the API's own size check.
  const fallback = o.ui === false ? undefined : staticUiHandler(o.ui);
  const http = await listen(o.listen, routes, o.logger, { maxHeaderBytes: 1024 * 1024, fallback, security: web.security });
  const otlpHttp = await startOtlpListener(receivers, o.ingest ?? {}, o.logger, web.security).catch(async (e: unknown) => {
    await http.close();
    throw e;
  });
  // The gateway writes its catalog-named series straight into the store (no normalization needed),
  // stamped with the wall clock: while a backfill writes the past, one such sample would move the
  // head's window (an hour behind its newest sample) past the history still to come and past the
  // cost replayed in step with it, so until the backfill is in its flushes are discarded (its
  // counters are cumulative: the first flush after carries them). Its quality samples wait too: the
  // pipeline's series are stamped with the wall clock as well.
  const gateway =
    o.gateway === undefined
      ? null
      : await startServerGateway({ ...(q.enabled ? { sampleSink: { write: (x) => (writingBackfill ? undefined : q.sampleSink.write(x)), close: () => q.sampleSink.close() } } : {}), ...o.gateway }, scores.guardGateway(deferredAppendable(() => (writingBackfill ? DISCARDING_APPENDABLE : db))), o.logger, o.clock, web.guard).catch(async (e: unknown) => {
          await http.close();
          await otlpHttp?.close();
          throw e;
        });
  web.track(http);
  web.track(otlpHttp);
  o.logger.info('listening', { address: `${http.address.address}:${http.address.port}`, scheme: http.scheme });
  const opened = (o.openStore ?? Db.open)({ ...o.storage, maxSeries: o.storage.maxSeries ?? DEFAULT_MAX_HEAD_SERIES, logger: o.logger, clock: o.clock }).then(
    (opened) => {
      db = opened;
      const normalized = o.normalize?.enabled === false ? opened : new NormalizingAppendable(opened, { keepRaw: o.normalize?.keepRaw ?? false });
      ingestTarget = scores.guard(normalized, 'drop');
      pushTarget = scores.guard(normalized, 'refuse');
      // The quality path writes the catalog's names straight into the store.
      const client = queryClient();
      if (client !== null) return scores.open(opened, client);
    },
    async (e: unknown) => {
      // Without a store there is nothing to serve: stop listening so the process can exit.
      o.logger.error('opening the store failed', { err: e instanceof Error ? e.message : String(e) });
      await http.close();
      await otlpHttp?.close();
      await gateway?.close();
      throw e;
    },
  );
  const aborting = new AbortController();
  // The backfill first (the demo's history); live scraping starts as soon as it is in.
  // Cost over the history in step with it, when the backfill runs its derivers (the demo's does).
  let costDerived = false;
  const costDeriver = cost.historyDeriver();
  const derivers: HistoryDeriver[] =
    costDeriver === null ? [] : [{ ...costDeriver, derive: (span, ctx) => ((costDerived = true), costDeriver.derive(span, ctx)) }];
  const backfilled = opened.then(async () => {
    const b = o.backfill;
    const client = queryClient();
    if (b === undefined || ingestTarget === null || client === null) return;
    await b.run(ingestTarget, client, aborting.signal, derivers).catch((e: unknown) => {
      if (!aborting.signal.aborted) o.logger.error('writing the backfill failed; serving what was written', { what: b.description, err: e instanceof Error ? e.message : String(e) });
    });
  });
  void backfilled.finally(() => (writingBackfill = false)).catch(() => undefined);
  const ready = backfilled.then(async () => {
    const client = queryClient();
    const store = db;
    if (store === null || client === null || aborting.signal.aborted) return;
    // Rules, then insights, over the backfilled span as if they had run live, then live. Only
    // over what the head still accepts (it refuses samples more than half a block range behind
    // its newest, and live scrapes move that on while the replay runs): a longer history has no
    // recorded series before that, as Prometheus' head would not take them either.
    const from = o.backfill?.rulesFromMs === undefined ? undefined : Math.max(o.backfill.rulesFromMs, store.head.appendableMinValidTimeMs() + REPLAY_MARGIN_MS);
    if (from !== undefined) {
      await rules.replay(store, client, from, o.clock()).then(
        (n) => o.logger.info('rules replayed over the backfill', { evaluations: String(n) }),
        (e: unknown) => o.logger.error('replaying the rules over the backfill failed', { err: e instanceof Error ? e.message : String(e) }),
      );
    }
    await rules.start(store, client).catch((e: unknown) => o.logger.error('starting the rule manager failed', { err: e instanceof Error ? e.message : String(e) }));
    // Drift after the rules, before the insights (the diagnosis' quality-drift cause reads it).
    if (from !== undefined) {
      await q.replay(store, client, from, o.clock(), aborting.signal).catch((e: unknown) => {
        if (!aborting.signal.aborted) o.logger.error('replaying drift detection over the backfill failed', { err: e instanceof Error ? e.message : String(e) });
      });
    }
    // After the rules, whose SLO alerts open insights too.
    if (from !== undefined) {
      await diagnosis.replay(store, client, from, o.clock(), aborting.signal).then(
        (n) => o.logger.info('insights replayed over the backfill', { ticks: String(n) }),
        (e: unknown) => {
          if (!aborting.signal.aborted) o.logger.error('replaying the insights over the backfill failed', { err: e instanceof Error ? e.message : String(e) });
        },
      );
    }
    diagnosis.start(store, client);
    if (from !== undefined && !costDerived) {
      await cost.replay(from, o.clock(), aborting.signal).then(
        (n) => o.logger.info('cost replayed over the backfill', { ticks: String(n) }),
        (e: unknown) => {
          if (!aborting.signal.aborted) o.logger.error('replaying cost over the backfill failed', { err: e instanceof Error ? e.message : String(e) });
        },
      );
    }
    cost.start();
  });
  void ready.finally(() => (backfilling = false)).catch(() => undefined);
  // The sample store opens once the server is ready: creating an embedded database is seconds of
  // CPU in one piece, which the history and the first live scrapes would wait for, and no sample
  // reaches it before (the gateway's samples wait for the backfill). Then drift goes live.
  const qualityOpened = ready.then(async () => {
    const client = queryClient();
    if (db === null || client === null || aborting.signal.aborted) return;
    await q.open(db);
    q.start(db, client);
  }).catch((e: unknown) => o.logger.error('starting quality failed', { err: e instanceof Error ? e.message : String(e) }));
  void backfilled.then(
    () =>
      ingestTarget === null
        ? undefined
        : scraping.start(ingestTarget).catch((e: unknown) => o.logger.error('starting the scrape manager failed', { err: String(e) })),
    () => undefined, // opening the store failed: logged above
  );
  let closing: Promise<void> | null = null;
  return {
    http,
    otlpHttp,
    gateway,
    db: () => db,
    queryClient,
    rules,
    reloadConfig: () => web.reload(),
    ready,
    close: () =>
      (closing ??= (async () => {
        await http.close();
        await otlpHttp?.close();
        aborting.abort(new Error('the server is closing'));
        await ready.catch(() => undefined);
        await gateway?.close();
        await scraping.close();
        await rules.close();
        await diagnosis.close();
        await qualityOpened;
        await q.close();
        await cost.close();
        if (db !== null) await db.close();
        loopDelay.stop();
      })()),
  };
}
