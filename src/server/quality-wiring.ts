/**
 * Answer quality in a running server (issue 18): the `quality:` section of `--config.file`
 * (quality-config.ts), the sample store opened once the metrics store is, the evaluation pipeline
 * the gateway's `SampleSink` feeds (stage 1 on every pair handed over, the judge on a share), the
 * drift runner ticking live and replaying over the demo's history after the rules, retention on a
 * timer, reloads (SIGHUP, `POST /-/reload`: a broken file keeps the last good settings), and what
 * the `/api/v1/quality/*` read routes answer (src/server/api/quality.ts).
 *
 * src/quality's parts come in through factories (`ServeOptions.quality`), so that this file knows
 * only their ports: the store contract of src/quality/types.ts, and the pipeline's and drift
 * runner's few methods below. Everything the pipeline and the runner write leaves through the
 * `SeriesSink` bound here to the store (`appendableSink`).
 */
import fs from 'node:fs/promises';
import { ConfigError } from '../config/index.js';
import type { GatewaySample, SampleSink } from '../gateway/index.js';
import { mulberry32, systemTimers, type Clock, type DurationMs, type Logger, type SeriesSink, type Timers, type UnixMs } from '../model/index.js';
import {
  DEFAULT_RUBRICS,
  DriftRunner,
  QualityPipeline,
  compileRedaction,
  createOpenAIJudge,
  openSampleStore,
  parseRubricsFile,
  pgliteDataDir,
  type DriftEvent,
  type Judge,
  type PipelineMetrics,
  type QualityPipelineOptions,
  type Rubric,
  type SampleStore,
} from '../quality/index.js';
import type { QueryClient, QualityStatusData } from '../query/index.js';
import type { Appendable } from '../storage/index.js';
import type { QualitySource } from './api/index.js';
import { DEFAULT_QUALITY_CONFIG, parseQualityConfig, type QualityConfig } from './quality-config.js';
import { appendableSink } from './series-sink.js';

/** How the sample store is opened (src/quality's `openSampleStore` takes this). */
export type SampleStoreOpenOptions = { readonly kind: 'pglite'; readonly dir: string | null } | { readonly kind: 'postgres'; readonly connectionString: string };

/** What the pipeline factory is given: src/quality's `QualityPipeline` options, over the whole sample store. */
export type QualityPipelinePorts = QualityPipelineOptions & { readonly store: SampleStore };

/** What the wiring needs of the one writer of the quality series (src/quality's `QualityMetrics`). */
export interface QualityMetricsPort extends PipelineMetrics {
  recordSampled(s: { readonly model: string; readonly component: string; readonly tMs: UnixMs }): void;
  flush(): Promise<void>;
}

/** The pipeline as the server uses it: `accept` never blocks (a bounded queue, drops counted). */
export interface QualityPipelinePort {
  accept(sample: GatewaySample): void;
  /** Resolves once everything accepted is evaluated and stored. */
  drain(): Promise<void>;
  close(): void | Promise<void>;
  /** Its counters (queue length, drops, judge budget left), shown as they are by `/api/v1/quality/status`. */
  stats(): object;
}

/** What the drift runner factory is given (src/quality's `DriftRunner` options). */
export interface DriftRunnerPorts {
  readonly client: QueryClient;
  readonly sink: SeriesSink;
  readonly clock: Clock;
  readonly timers: Timers;
  readonly intervalMs?: DurationMs;
}

/** The drift runner as the server uses it. */
export interface DriftRunnerPort {
  replay(fromMs: UnixMs, toMs: UnixMs, signal?: AbortSignal): Promise<unknown>;
  start(): void;
  stop(): void | Promise<void>;
  events(startMs: UnixMs, endMs: UnixMs): readonly DriftEvent[];
}

/** src/quality's parts, which `wireQuality` uses unless an option replaces one. */
export const QUALITY_PARTS = {
  openStore: (o: SampleStoreOpenOptions): Promise<SampleStore> => openSampleStore(o),
  createPipeline: (ports: QualityPipelinePorts): QualityPipelinePort => new QualityPipeline(ports),
  createDriftRunner: (ports: DriftRunnerPorts): DriftRunnerPort => new DriftRunner(ports),
  createJudge: (o: { readonly baseURL: string; readonly apiKey?: string; readonly model: string; readonly timeoutMs?: number }): Judge => createOpenAIJudge(o),
  compileRedaction: (rules: readonly { readonly pattern: string; readonly replacement: string }[]): ((text: string) => string) => compileRedaction(rules),
  rubrics: { defaults: DEFAULT_RUBRICS, parse: (text: string, path: string): Rubric[] => parseRubricsFile(text, path) },
} as const;

/** Options of `wireQuality` (`ServeOptions.quality`): src/quality's parts (default `QUALITY_PARTS`), the demo's settings, test seams. */
export interface QualityWiringOptions {
  /** Opens the sample store; without it no pair is kept and the read routes answer `unavailable`. */
  readonly openStore?: (o: SampleStoreOpenOptions) => Promise<SampleStore>;
  readonly createPipeline?: (ports: QualityPipelinePorts) => QualityPipelinePort;
  readonly createDriftRunner?: (ports: DriftRunnerPorts) => DriftRunnerPort;
  readonly createJudge?: (o: { readonly baseURL: string; readonly apiKey?: string; readonly model: string; readonly timeoutMs?: number }) => Judge;
  /** Compiles `redact:` rules into one function; required when rules are configured (nothing is stored unredacted). */
  readonly compileRedaction?: (rules: readonly { readonly pattern: string; readonly replacement: string }[]) => (text: string) => string;
  /** The default rubrics and the rubrics file reader. */
  readonly rubrics?: { readonly defaults: readonly Rubric[]; parse(text: string, path: string): Rubric[] };
  /**
   * Turns quality on without a `quality:` section, with these settings over
   * `DEFAULT_QUALITY_CONFIG` (the demo); a section in the file wins.
   */
  readonly defaults?: Partial<QualityConfig>;
  /** The drift runner's tick (its own default when absent; the demo passes the scrape interval). */
  readonly intervalMs?: DurationMs;
  /** How often the evaluation counters and histograms are written (default 15 s). */
  readonly flushIntervalMs?: DurationMs;
  /** How often retention runs (default 10 minutes). */
  readonly retentionIntervalMs?: DurationMs;
  readonly timers?: Timers;
  /** The sub-sampling's randomness (default seeded, so a run is repeatable). */
  readonly random?: () => number;
}

/** The quality part of a running server. */
export interface QualityWiring {
  /** Whether quality is configured (a `quality:` section or `defaults`) and a store can be opened; fixed until a restart. */
  readonly enabled: boolean;
  /** The gateway's sample port: hands a `sampling` share of the samples to the pipeline (none before `open`). */
  readonly sampleSink: SampleSink;
  /** Opens the sample store and the pipeline writing into `appendable`; a failure is logged and leaves quality unavailable. */
  open(appendable: Appendable): Promise<void>;
  /** Replays drift detection over `[fromMs, toMs]` (the backfilled span), as if it had run live. */
  replay(appendable: Appendable, client: QueryClient, fromMs: UnixMs, toMs: UnixMs, signal?: AbortSignal): Promise<void>;
  /** Starts the live drift ticks and the retention timer. */
  start(appendable: Appendable, client: QueryClient): void;
  /** Re-reads the section (and the rubrics and API key files); rejects, keeping the last good settings, when one is invalid. */
  reload(): Promise<void>;
  /** What the read routes answer from; null while no store is open. */
  source(): QualitySource | null;
  close(): Promise<void>;
}

/** The settings of one load, with the files they name read. */
interface Loaded {
  readonly config: QualityConfig;
  readonly rubrics: readonly Rubric[];
  readonly apiKey: string | undefined;
}

const DEFAULT_RETENTION_INTERVAL_MS = 10 * 60_000;
/** How often the batched evaluation series are written (Prometheus' usual scrape interval). */
const DEFAULT_FLUSH_INTERVAL_MS = 15_000;

/** A message for the log from anything thrown. */
const errText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * Reads the `quality:` section of `configFile` (an invalid one throws a `ConfigError` naming the
 * file, line and column, which stops the start) and returns the wiring; nothing opens before `open`.
 * `dataDir` holds the embedded store (`<data>/quality`) unless the section names a directory.
 */
export async function wireQuality(
  options: QualityWiringOptions,
  env: {
    readonly configFile?: string;
    readonly dataDir: string;
    readonly clock: Clock;
    readonly logger: Logger;
    /** The one writer of the quality series (score ingest's), null until the metrics store is open. */
    readonly metrics: () => QualityMetricsPort | null;
  },
): Promise<QualityWiring> {
  const { clock, logger } = env;
  const o = { ...QUALITY_PARTS, ...options };
  const timers = o.timers ?? systemTimers;
  const random = o.random ?? mulberry32(18);
  const load = async (): Promise<Loaded | null> => {
    const fromFile = env.configFile === undefined ? null : parseQualityConfig(await fs.readFile(env.configFile, 'utf8'), env.configFile);
    const config = fromFile ?? (o.defaults === undefined ? null : { ...DEFAULT_QUALITY_CONFIG, ...o.defaults });
    if (config === null) return null;
    let rubrics = o.rubrics?.defaults ?? [];
    if (config.rubricsFile !== null) {
      if (o.rubrics === undefined) throw new ConfigError(`${config.rubricsFile}: this build has no rubrics reader`);
      rubrics = o.rubrics.parse(await fs.readFile(config.rubricsFile, 'utf8'), config.rubricsFile);
    }
    const keyFile = config.judge?.apiKeyFile ?? null;
    const apiKey = keyFile === null ? undefined : (await fs.readFile(keyFile, 'utf8')).trim();
    if (config.redact.length > 0 && o.compileRedaction === undefined) throw new ConfigError('quality.redact: this build cannot compile redaction rules; refusing to store unredacted pairs');
    return { config, rubrics, apiKey };
  };
  let current = await load();
  let store: SampleStore | null = null;
  let pipeline: QualityPipelinePort | null = null;
  let drift: DriftRunnerPort | null = null;
  let sink: SeriesSink | null = null;
  let metrics: QualityMetricsPort | null = null;
  let cancelFlush: (() => void) | null = null;
  let cancelRetention: (() => void) | null = null;
  let retaining: Promise<void> | null = null;
  let closed = false;

  const buildPipeline = (l: Loaded, s: SampleStore, m: PipelineMetrics): QualityPipelinePort | null => {
    if (o.createPipeline === undefined) return null;
    const j = l.config.judge;
    let judge: Judge | null = null;
    if (j !== null && o.createJudge !== undefined) judge = o.createJudge({ baseURL: j.baseURL, model: j.model, timeoutMs: j.timeoutMs, ...(l.apiKey === undefined ? {} : { apiKey: l.apiKey }) });
    else if (j !== null) logger.warn('quality: no judge client in this build; stage 1 only');
    return o.createPipeline({
      store: s,
      metrics: m,
      judge,
      rubrics: l.rubrics,
      judgeShare: j?.share ?? 0,
      maxConcurrency: j?.maxConcurrency ?? 1,
      tokenBudgetPerHour: j?.tokenBudgetPerHour ?? 0,
      redact: l.config.redact.length === 0 || o.compileRedaction === undefined ? (t) => t : o.compileRedaction(l.config.redact),
      clock,
      random,
    });
  };
  const storeOptions = (c: QualityConfig): SampleStoreOpenOptions =>
    c.store.kind === 'postgres' ? { kind: 'postgres', connectionString: c.store.dsn } : { kind: 'pglite', dir: c.store.dsn === '' ? pgliteDataDir(env.dataDir) : c.store.dsn };
  const retire = async (p: QualityPipelinePort | null): Promise<void> => {
    if (p === null) return;
    await p.drain().catch((e: unknown) => logger.warn('quality: draining the pipeline failed', { err: errText(e) }));
    await p.close();
  };
  const retention = (): void => {
    const l = current;
    const s = store;
    if (closed || l === null || s === null) return;
    const { maxAgeMs, maxBytes } = l.config.retention;
    retaining = s
      .enforceRetention(clock(), { maxAgeMs, maxBytes: maxBytes > 0 ? maxBytes : Number.MAX_SAFE_INTEGER })
      .then(
        (n) => (n > 0 ? logger.info('quality: retention deleted sampled pairs', { pairs: n }) : undefined),
        (e: unknown) => logger.warn('quality: retention failed', { err: errText(e) }),
      )
      .finally(() => {
        retaining = null;
        if (!closed) cancelRetention = timers.setTimeout(retention, o.retentionIntervalMs ?? DEFAULT_RETENTION_INTERVAL_MS);
      });
  };
  // The evaluations' counters and histograms are batched in the writer: written every flush interval.
  const flushEvery = (): void => {
    if (closed || metrics === null) return;
    const m = metrics;
    cancelFlush = timers.setTimeout(() => {
      void m
        .flush()
        .catch((e: unknown) => logger.warn('quality: writing the evaluation series failed; they are kept for the next flush', { err: errText(e) }))
        .finally(flushEvery);
    }, o.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS);
  };
  const driftOver = (appendable: Appendable, client: QueryClient): DriftRunnerPort | null => {
    if (current === null || o.createDriftRunner === undefined) return null;
    drift ??= o.createDriftRunner({ client, sink: (sink ??= appendableSink(appendable)), clock, timers, ...(o.intervalMs === undefined ? {} : { intervalMs: o.intervalMs }) });
    return drift;
  };

  return {
    enabled: current !== null && o.openStore !== undefined,
    sampleSink: {
      write: (sample) => {
        const p = pipeline;
        const share = current?.config.sampling ?? 0;
        if (p === null || share <= 0 || (share < 1 && random() >= share)) return;
        // The gateway's port must not throw into the request path: a failing pipeline loses the sample, logged.
        try {
          metrics?.recordSampled({ model: sample.model, component: sample.labels.component ?? '', tMs: sample.tMs });
          p.accept(sample);
        } catch (e) {
          logger.warn('quality: the pipeline refused a sample', { err: errText(e) });
        }
      },
      close: async () => undefined,
    },
    open: async (appendable) => {
      const l = current;
      if (l === null || o.openStore === undefined) return;
      sink ??= appendableSink(appendable);
      metrics = env.metrics();
      if (metrics === null) {
        logger.warn('quality: score ingest is off, so nothing can write the quality series; quality samples are off');
        return;
      }
      try {
        const s = await o.openStore(storeOptions(l.config));
        await s.migrate();
        if (closed) {
          await s.close();
          return;
        }
        store = s;
        pipeline = buildPipeline(l, s, metrics);
        flushEvery();
        logger.info('quality: sample store open', { kind: s.kind, judge: l.config.judge?.model ?? 'none' });
      } catch (e) {
        logger.error('quality: opening the sample store failed; quality samples are off', { err: errText(e) });
      }
    },
    replay: async (appendable, client, fromMs, toMs, signal) => {
      await driftOver(appendable, client)?.replay(fromMs, toMs, signal);
    },
    start: (appendable, client) => {
      driftOver(appendable, client)?.start();
      if (store !== null && cancelRetention === null && retaining === null) retention();
    },
    reload: async () => {
      const next = await load();
      const before = current;
      current = next;
      if (next === null || before === null) {
        if ((next === null) !== (before === null)) logger.warn('quality: turning quality on or off needs a restart');
        current = before;
        return;
      }
      if (storeOptions(next.config).kind !== storeOptions(before.config).kind || next.config.store.dsn !== before.config.store.dsn) logger.warn('quality: changing the sample store needs a restart');
      if (store !== null && metrics !== null) {
        const old = pipeline;
        pipeline = buildPipeline(next, store, metrics);
        await retire(old);
      }
      logger.info('quality: settings reloaded', { judge: next.config.judge?.model ?? 'none', sampling: next.config.sampling });
    },
    source: () => {
      const s = store;
      const l = current;
      if (s === null || l === null) return null;
      return {
        store: s,
        drift: (startMs, endMs) => drift?.events(startMs, endMs) ?? [],
        status: async (): Promise<QualityStatusData> => {
          const st = await s.stats();
          const j = l.config.judge;
          return {
            store: { kind: s.kind, pairs: st.pairs, evaluations: st.evaluations, bytes: st.bytes, oldest: st.oldestMs === null ? null : st.oldestMs / 1000 },
            pipeline: pipeline === null ? null : { ...pipeline.stats() },
            sampling: l.config.sampling,
            judge: j === null ? null : { model: j.model, baseURL: j.baseURL, share: j.share, tokenBudgetPerHour: j.tokenBudgetPerHour },
            retention: { maxAgeSeconds: l.config.retention.maxAgeMs / 1000, maxBytes: l.config.retention.maxBytes },
            drift: drift !== null,
          };
        },
      };
    },
    close: async () => {
      closed = true;
      cancelFlush?.();
      cancelRetention?.();
      await retaining;
      await drift?.stop();
      await retire(pipeline);
      pipeline = null;
      await store?.close();
      store = null;
    },
  };
}
