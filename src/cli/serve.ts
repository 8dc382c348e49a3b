import { parseArgs } from 'node:util';
import { systemClock } from '../model/index.js';
import { loadGatewayConfigFile } from '../gateway/index.js';
import { compileCorsOrigin, loadTokens, loadWebConfig, parseListenAddress } from '../http/index.js';
import { LogfmtLogger, startServer, type ServerGatewayOptions } from '../server/index.js';
import { loadScrapeConfigFile } from '../ingest/index.js';
import type { EngineOptions } from '../promql/index.js';
import type { FsyncPolicy } from '../tsdb/index.js';
import { INGEST_FLAG_OPTIONS, INGEST_USAGE, ingestLimitsFromFlags } from './ingest-flags.js';
import { untilSignal } from './until-signal.js';
import { UsageError, parseBytes, parseDurationFlag } from './args.js';
import { rethrowListenError } from './listen-error.js';

/** Usage text of `infersight serve`. */
export const SERVE_USAGE = `Usage: infersight serve [flags]

Runs the Infersight server on the embedded time-series database.

Flags:
  --listen HOST:PORT        address to listen on (default 127.0.0.1:9300)
  --config.file PATH        Prometheus-style configuration (global, scrape_configs); reloaded
                            on SIGHUP and POST /-/reload (default: none, nothing is scraped)
  --web.config.file PATH    TLS, response headers and basic-auth users, in Prometheus'
                            format (docs/security.md); reloaded with --config.file
  --web.tokens.file PATH    bearer tokens with scopes read, write, admin (docs/security.md)
  --web.cors.origin REGEX   origins that CORS answers allow (anchored; default: none)
  --web.enable-lifecycle    allow POST /-/reload and /-/quit (default off, as Prometheus)
  --web.enable-admin-api    allow /api/v1/admin/tsdb/* (default off, as Prometheus)
  --data DIR                data directory (default ./data)
  --retention DURATION      delete blocks older than this (default 15d; 0 disables)
  --retention-size SIZE     delete the oldest blocks above this size (e.g. 50GB; default off)
  --wal-fsync MODE          always | interval | never (default interval)
  --out-of-order-window DUR accept samples this far behind the newest one (default 0: off)
  --storage.tsdb.max-series N
                            the most series the store holds; a new series beyond it is
                            refused with a 400 (default 2000000; 0: no limit)
  --wal-fsync-interval DUR  fsync period for --wal-fsync=interval (default 1s)
  --log-level LEVEL         debug | info | warn | error (default info)
  --query.timeout DUR       longest a query may run (default 2m)
  --query.max-samples N     most samples one query may hold in memory (default 50000000)
  --query.max-concurrency N queries evaluated at once; more wait (default 20)
  --query.lookback-delta DUR how far back an instant selector looks (default 5m)
  --query.cache-size SIZE   memory for the range-result cache, which answers a refreshed
                            dashboard from what it computed before (default 128MiB; 0: off;
                            a request skips it with nocache=1 or Cache-Control: no-cache)
  --query.max-response-bytes SIZE  most JSON one query answer may take (default 512MiB);
                            larger ones fail with 422, or are cut off mid-stream
  --normalize.keep-raw      also store engine-native series next to the unified ones
  --normalize.off           store ingested series as they come (no unified names)
  --otlp.listen ADDR|off    OTLP/HTTP receiver (POST /v1/metrics) (default 127.0.0.1:4318;
                            skipped with a warning when that default port is busy)
${INGEST_USAGE}  --gateway.config FILE     run the OpenAI-compatible gateway (docs/gateway.md) on its own
                            listener, writing its metrics into this server's store
  --gateway.listen ADDR     the gateway's listener (default: 'listen' in its file)
  --enable-feature LIST     comma-separated PromQL features, as Prometheus names them:
                            promql-experimental-functions, promql-duration-expr,
                            promql-extended-range-selectors, promql-binop-fill-modifiers,
                            promql-delayed-name-removal (repeatable)
`;

/** Prometheus' feature-flag names and the engine option each turns on. */
const FEATURES: Readonly<Record<string, keyof EngineOptions>> = {
  'promql-experimental-functions': 'enableExperimentalFunctions',
  'promql-duration-expr': 'enableDurationExpressions',
  'promql-extended-range-selectors': 'enableExtendedRangeSelectors',
  'promql-binop-fill-modifiers': 'enableBinopFillModifiers',
  'promql-delayed-name-removal': 'enableDelayedNameRemoval',
};

function parseCount(flag: string, text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n <= 0) throw new UsageError(`invalid --${flag} ${JSON.stringify(text)}: want a positive integer`);
  return n;
}

/** The engine settings the `--query.*` and `--enable-feature` flags ask for. */
export function engineOptionsFromFlags(values: {
  'query.timeout'?: string;
  'query.max-samples'?: string;
  'query.max-concurrency'?: string;
  'query.lookback-delta'?: string;
  'enable-feature'?: string[];
}): Omit<EngineOptions, 'now'> {
  const opts: Record<string, number | boolean> = {};
  if (values['query.timeout'] !== undefined) opts.timeoutMs = parseDurationFlag('query.timeout', values['query.timeout']);
  if (values['query.max-samples'] !== undefined) opts.maxSamples = parseCount('query.max-samples', values['query.max-samples']);
  if (values['query.max-concurrency'] !== undefined) opts.maxConcurrent = parseCount('query.max-concurrency', values['query.max-concurrency']);
  if (values['query.lookback-delta'] !== undefined) opts.lookbackDeltaMs = parseDurationFlag('query.lookback-delta', values['query.lookback-delta']);
  for (const list of values['enable-feature'] ?? []) {
    for (const name of list.split(',').map((x) => x.trim()).filter((x) => x !== '')) {
      const key = FEATURES[name] as string | undefined;
      if (key === undefined) throw new UsageError(`unknown --enable-feature ${JSON.stringify(name)}: known are ${Object.keys(FEATURES).join(', ')}`);
      opts[key] = true;
    }
  }
  return opts;
}

type Level = 'debug' | 'info' | 'warn' | 'error';

/** Runs `infersight serve` until SIGTERM/SIGINT; resolves with the exit status. */
export async function serveCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      listen: { type: 'string', default: '127.0.0.1:9300' },
      data: { type: 'string', default: './data' },
      retention: { type: 'string', default: '15d' },
      'retention-size': { type: 'string' },
      'wal-fsync': { type: 'string', default: 'interval' },
      'wal-fsync-interval': { type: 'string', default: '1s' },
      'out-of-order-window': { type: 'string', default: '0' },
      'storage.tsdb.max-series': { type: 'string' },
      'log-level': { type: 'string', default: 'info' },
      'query.timeout': { type: 'string' },
      'query.max-samples': { type: 'string' },
      'query.max-concurrency': { type: 'string' },
      'query.lookback-delta': { type: 'string' },
      'query.max-response-bytes': { type: 'string' },
      'query.cache-size': { type: 'string' },
      'enable-feature': { type: 'string', multiple: true },
      'otlp.listen': { type: 'string' },
      'normalize.keep-raw': { type: 'boolean' },
      'normalize.off': { type: 'boolean' },
      'config.file': { type: 'string' },
      'gateway.config': { type: 'string' },
      'gateway.listen': { type: 'string' },
      'web.config.file': { type: 'string' },
      'web.tokens.file': { type: 'string' },
      'web.cors.origin': { type: 'string' },
      'web.enable-lifecycle': { type: 'boolean' },
      'web.enable-admin-api': { type: 'boolean' },
      ...INGEST_FLAG_OPTIONS,
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help === true) {
    process.stdout.write(SERVE_USAGE);
    return 0;
  }
  const level = values['log-level'];
  if (!['debug', 'info', 'warn', 'error'].includes(level)) throw new UsageError(`invalid --log-level ${JSON.stringify(level)}`);
  const mode = values['wal-fsync'];
  let fsync: FsyncPolicy;
  if (mode === 'always' || mode === 'never') fsync = { mode };
  else if (mode === 'interval') fsync = { mode, intervalMs: parseDurationFlag('wal-fsync-interval', values['wal-fsync-interval']) };
  else throw new UsageError(`invalid --wal-fsync ${JSON.stringify(mode)}: want always, interval or never`);
  const retention = values.retention === '0' ? 0 : parseDurationFlag('retention', values.retention);
  const oooWindow = values['out-of-order-window'] === '0' ? 0 : parseDurationFlag('out-of-order-window', values['out-of-order-window']);
  const retentionBytes = values['retention-size'] === undefined ? 0 : parseBytes(values['retention-size']);
  const maxSeriesFlag = values['storage.tsdb.max-series'];
  const maxSeries = maxSeriesFlag === undefined ? undefined : maxSeriesFlag === '0' ? 0 : parseCount('storage.tsdb.max-series', maxSeriesFlag);

  const engine = engineOptionsFromFlags(values);
  const ingestLimits = ingestLimitsFromFlags(values);
  const maxResponse = values['query.max-response-bytes'];
  const api = maxResponse === undefined ? undefined : { maxResponseBytes: parseBytes(maxResponse) };
  const cacheSize = values['query.cache-size'];
  const resultCacheBytes = cacheSize === undefined ? undefined : cacheSize === '0' ? 0 : parseBytes(cacheSize);
  try {
    parseListenAddress(values.listen);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  // OTLP listener: on by default; a busy default port only warns, an explicit address must bind.
  const otlpFlag = values['otlp.listen'];
  if (otlpFlag !== undefined && otlpFlag !== 'off') {
    try {
      parseListenAddress(otlpFlag);
    } catch (e) {
      throw new UsageError(`--otlp.listen: ${(e as Error).message}`);
    }
  }
  const otlpListen = otlpFlag === 'off' ? null : { address: otlpFlag ?? '127.0.0.1:4318', required: otlpFlag !== undefined };
  const cors = values['web.cors.origin'];
  if (cors !== undefined) {
    try {
      compileCorsOrigin(cors);
    } catch (e) {
      throw new UsageError(`invalid --web.cors.origin: ${(e as Error).message}`);
    }
  }

  const logger = new LogfmtLogger((line) => process.stderr.write(line), level as Level);
  // Scraping (--config.file): a broken file stops the start, as in Prometheus.
  const configFile = values['config.file'];
  if (configFile !== undefined) {
    try {
      await loadScrapeConfigFile(configFile);
    } catch (e) {
      logger.error('error loading config', { file: configFile, err: (e as Error).message });
      return 1;
    }
  }
  // --web.config.file and --web.tokens.file: a broken file stops the start too (Prometheus does).
  const webConfigFile = values['web.config.file'];
  const tokensFile = values['web.tokens.file'];
  try {
    if (webConfigFile !== undefined) await loadWebConfig(webConfigFile);
    if (tokensFile !== undefined) await loadTokens(tokensFile);
  } catch (e) {
    logger.error('error loading web configuration', { err: (e as Error).message });
    return 1;
  }
  // The gateway (--gateway.config): a broken file stops the start too.
  const gatewayFile = values['gateway.config'];
  if (values['gateway.listen'] !== undefined && gatewayFile === undefined) throw new UsageError('--gateway.listen needs --gateway.config');
  let gateway: ServerGatewayOptions | undefined;
  if (gatewayFile !== undefined) {
    try {
      gateway = { config: await loadGatewayConfigFile(gatewayFile), listen: values['gateway.listen'] };
    } catch (e) {
      logger.error('error loading gateway config', { file: gatewayFile, err: (e as Error).message });
      return 1;
    }
  }
  // The addresses a listener may fail on, by the flag (or file setting) that chose them; the OTLP
  // default only warns when busy, so it is named only when given.
  const listenFlags = {
    '--listen': values.listen,
    '--otlp.listen': otlpListen?.required === true ? otlpListen.address : undefined,
    [values['gateway.listen'] !== undefined ? '--gateway.listen' : `'listen' in ${gatewayFile ?? ''}`]: gateway === undefined ? undefined : (gateway.listen ?? gateway.config.listen),
  };
  const server = await startServer({
    listen: values.listen,
    storage: { dir: values.data, retentionMs: retention, retentionBytes, fsync, outOfOrderWindowMs: oooWindow, maxSeries },
    engine,
    resultCacheBytes,
    api,
    ingest: { otlpListen, limits: ingestLimits },
    normalize: { enabled: values['normalize.off'] !== true, keepRaw: values['normalize.keep-raw'] === true },
    scrape: { configFile },
    gateway,
    web: {
      configFile: webConfigFile,
      tokensFile,
      corsOrigin: cors,
      enableLifecycle: values['web.enable-lifecycle'] === true,
      enableAdminApi: values['web.enable-admin-api'] === true,
      // /-/quit stops the process the way SIGTERM does (untilSignal).
      onQuit: () => process.kill(process.pid, 'SIGTERM'),
    },
    logger,
    clock: systemClock,
  }).catch(rethrowListenError(listenFlags));
  await server.ready;
  const a = server.http.address;
  logger.info('ready', { address: `${a.address}:${a.port}`, scheme: server.http.scheme, data: values.data, ...(server.gateway === null ? {} : { gateway: server.gateway.address }) });
  process.on('SIGHUP', () => {
    server.reloadConfig().catch((e: unknown) => logger.error('reloading the configuration failed', { err: (e as Error).message }));
  });
  return untilSignal(() => server.close(), logger);
}
