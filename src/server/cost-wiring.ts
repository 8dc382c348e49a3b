/**
 * Cost in a running server: the price and benchmark catalogs (the defaults, or the files the
 * `cost:` section of `--config.file` names, cost-config.ts), the `CostEvaluator` over the server's
 * query client writing its series into the store (the evaluator declares the `SeriesSink`; this
 * binds it with `appendableSink`), its live ticks, its replay over the demo's history in step with
 * the history writer (docs/design/cost-history.md), reloading with the rules (a broken catalog
 * keeps the last good one, as a broken rule file does), the data of `/api/v1/cost/*` and the
 * `infersight_cost_*` self-metrics.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../config/index.js';
import { createCostEvaluator, defaultBenchmarkCatalog, defaultPriceCatalog, parseBenchmarkCatalog, parsePriceCatalog, type BenchmarkCatalog, type CostEvaluator, type CostSummary, type PriceCatalog } from '../cost/index.js';
import { Labels, systemTimers, type Clock, type DurationMs, type Logger, type SeriesSink, type Timers, type UnixMs } from '../model/index.js';
import type { QueryClient } from '../query/index.js';
import type { Appendable } from '../storage/index.js';
import type { MetricFamily } from '../wire/index.js';
import { parseCostConfig, type CostConfig } from './cost-config.js';
import type { HistoryDeriver } from './demo-history.js';
import { appendableSink } from './series-sink.js';

/** The benchmark catalog in force (src/cost's). */
export type CostBenchmarkCatalog = BenchmarkCatalog;

/** What the evaluator is built with: the arguments of src/cost's `createCostEvaluator`. */
export interface CostEvaluatorPorts {
  readonly client: QueryClient;
  readonly sink: SeriesSink;
  /** Getters, so that a reload swaps the catalogs under a running evaluator. */
  readonly prices: () => PriceCatalog;
  readonly benchmarks: () => CostBenchmarkCatalog;
  readonly intervalMs?: DurationMs;
  readonly idle?: { readonly utilizationBelow?: number; readonly windowMs?: DurationMs };
  /** The scrape interval: a replica counts only while its target is still scraped (src/cost). */
  readonly scrapeIntervalMs?: DurationMs;
  /** Virtual seconds per wall second of the scraped rates (the simulation's `--speed`; 1 otherwise). */
  readonly rateScale?: () => number;
}

/**
 * The cost module's entry points the server uses (src/cost: `createCostEvaluator`,
 * `parsePriceCatalog`, `parseBenchmarkCatalog` and the shipped defaults). The parsers throw
 * `ConfigError` with `path:line:column: message`.
 */
export interface CostModule {
  createEvaluator(ports: CostEvaluatorPorts): CostEvaluator;
  parsePrices(text: string, path: string): PriceCatalog;
  parseBenchmarks(text: string, path: string): CostBenchmarkCatalog;
  /** The catalogs in force when the configuration names no file. */
  defaultPrices(): PriceCatalog;
  defaultBenchmarks(): CostBenchmarkCatalog;
}

/** src/cost itself: what `wireCost` uses unless told otherwise. */
export const COST_MODULE: CostModule = {
  createEvaluator: (ports) => createCostEvaluator(ports),
  parsePrices: (text, path) => parsePriceCatalog(text, path),
  parseBenchmarks: (text, path) => parseBenchmarkCatalog(text, path),
  defaultPrices: () => defaultPriceCatalog(),
  defaultBenchmarks: () => defaultBenchmarkCatalog(),
};

/** Options of `wireCost` (`ServeOptions.cost`). */
export interface CostWiringOptions {
  /** The cost module (default `COST_MODULE`, src/cost); null: cost is off (the routes answer `unavailable`, no series are written). */
  readonly module?: CostModule | null;
  /** The scrape interval the fleet is scraped at (the evaluator's freshness check; src/cost's default when absent). */
  readonly scrapeIntervalMs?: DurationMs;
  /** Virtual seconds per wall second of the scraped rates (the demo's `--speed`). */
  readonly rateScale?: () => number;
  /** Live ticks' timers (tests pass virtual ones). */
  readonly timers?: Timers;
  /** Reads a catalog file (tests inject one). */
  readonly readFile?: (file: string) => Promise<string>;
}

/** The catalogs in force and the files they came from (null: the defaults). */
export interface CostCatalogs {
  readonly prices: PriceCatalog;
  readonly benchmarks: CostBenchmarkCatalog;
  readonly priceCatalogFile: string | null;
  readonly benchmarkFile: string | null;
}

/** What `/api/v1/cost/*` reads. */
export interface CostSource {
  summary(tMs: UnixMs, signal?: AbortSignal): Promise<CostSummary>;
  catalogs(): CostCatalogs;
}

/** Counters of the evaluator and the catalog loads, for `/metrics`. */
export interface CostStats {
  readonly evaluations: { readonly live: number; readonly replay: number };
  readonly failures: number;
  readonly lastDurationMs: number;
  readonly durationMsTotal: number;
  readonly reloads: { readonly success: number; readonly failure: number };
  readonly lastReloadSuccessMs: UnixMs;
}

/** The cost part of a running server. */
export interface CostWiring {
  /** What the API reads; null while cost is off or the store is not open. */
  source(): CostSource | null;
  /** The deriver that replays cost over the demo's history while it is written (null when cost is off). */
  historyDeriver(): HistoryDeriver | null;
  /** Replays over `[fromMs, toMs]`; resolves with the ticks written. */
  replay(fromMs: UnixMs, toMs: UnixMs, signal?: AbortSignal): Promise<number>;
  /** Starts live ticks, after the replayed span (if any). */
  start(): void;
  /** Re-reads the `cost:` section and the catalogs; rejects, keeping the last good ones, when one is invalid. */
  reload(): Promise<void>;
  stats(): CostStats;
  close(): Promise<void>;
}

/**
 * How far behind the history writer the in-step replay stays: the evaluator's windows at a tick
 * must see complete data, and its samples must stay well inside the hour the head accepts behind
 * its newest sample (docs/design/cost-history.md).
 */
export const COST_HISTORY_LAG_MS = 10 * 60_000;

/** The in-step replay runs once per this much history written. */
export const COST_HISTORY_CHUNK_MS = 20 * 60_000;

async function readCatalog<T>(file: string | undefined, read: (f: string) => Promise<string>, parse: (text: string, path: string) => T, fallback: () => T): Promise<T> {
  if (file === undefined) return fallback();
  let text: string;
  try {
    text = await read(file);
  } catch (e) {
    throw new ConfigError(`${file}: ${(e as Error).message}`);
  }
  return parse(text, file);
}

/**
 * Loads the `cost:` section of `configFile` and the catalogs it names (an invalid one rejects with
 * its `ConfigError`: the server does not start, as with a broken rule file). Nothing is evaluated
 * before `start` or a replay; `store` and `client` are null until the store is open.
 */
export async function wireCost(
  o: CostWiringOptions & { readonly configFile?: string; readonly clock: Clock; readonly logger: Logger },
  store: () => Appendable | null,
  client: () => QueryClient | null,
): Promise<CostWiring> {
  const m = o.module === undefined ? COST_MODULE : o.module;
  const read = o.readFile ?? ((f: string) => fs.readFile(f, 'utf8'));
  const load = async (module: CostModule): Promise<{ config: CostConfig; catalogs: CostCatalogs }> => {
    const config = o.configFile === undefined ? {} : parseCostConfig(await fs.readFile(o.configFile, 'utf8'), path.dirname(path.resolve(o.configFile)));
    const prices = await readCatalog(config.priceCatalogFile, read, (t, p) => module.parsePrices(t, p), () => module.defaultPrices());
    const benchmarks = await readCatalog(config.benchmarkFile, read, (t, p) => module.parseBenchmarks(t, p), () => module.defaultBenchmarks());
    return { config, catalogs: { prices, benchmarks, priceCatalogFile: config.priceCatalogFile ?? null, benchmarkFile: config.benchmarkFile ?? null } };
  };
  let current = m === null ? null : await load(m);
  let evaluator: CostEvaluator | null = null;
  const counts = { live: 0, replay: 0, failures: 0, lastDurationMs: 0, durationMsTotal: 0, reloadOk: 0, reloadFailed: 0, lastReloadMs: current === null ? 0 : o.clock() };
  // Built once the store is open; the catalogs are read through getters, so a reload needs no new evaluator.
  const evaluatorNow = (): CostEvaluator | null => {
    if (m === null || current === null) return null;
    if (evaluator !== null) return evaluator;
    const s = store();
    const c = client();
    if (s === null || c === null) return null;
    const cfg = current.config;
    return (evaluator = m.createEvaluator({
      client: c,
      sink: appendableSink(s),
      prices: () => (current as NonNullable<typeof current>).catalogs.prices,
      benchmarks: () => (current as NonNullable<typeof current>).catalogs.benchmarks,
      ...(cfg.evaluationIntervalMs === undefined ? {} : { intervalMs: cfg.evaluationIntervalMs }),
      idle: { utilizationBelow: cfg.idleUtilizationBelow, windowMs: cfg.idleWindowMs },
      ...(o.scrapeIntervalMs === undefined ? {} : { scrapeIntervalMs: o.scrapeIntervalMs }),
      ...(o.rateScale === undefined ? {} : { rateScale: o.rateScale }),
    }));
  };
  const timed = async <T>(fn: () => Promise<T>): Promise<T> => {
    const t0 = o.clock();
    try {
      return await fn();
    } catch (e) {
      counts.failures++;
      throw e;
    } finally {
      counts.lastDurationMs = o.clock() - t0;
      counts.durationMsTotal += counts.lastDurationMs;
    }
  };
  const replay = async (fromMs: UnixMs, toMs: UnixMs, signal?: AbortSignal): Promise<number> => {
    const e = evaluatorNow();
    if (e === null || toMs < fromMs) return 0;
    const n = await timed(() => e.replay(fromMs, toMs, signal));
    counts.replay += n;
    return n;
  };

  // Live ticks: one at a time, the next scheduled when one ends (a slow tick delays, never piles up).
  let cancel: (() => void) | null = null;
  let inFlight: Promise<void> = Promise.resolve();
  let closed = false;
  const schedule = (e: CostEvaluator): void => {
    if (closed) return;
    cancel = (o.timers ?? systemTimers).setTimeout(() => {
      inFlight = timed(() => e.evaluate(o.clock()))
        .then(() => {
          counts.live++;
        })
        .catch((err: unknown) => o.logger.warn('cost evaluation failed', { err: err instanceof Error ? err.message : String(err) }))
        .finally(() => schedule(e));
    }, e.intervalMs);
  };

  return {
    source: () => {
      const e = evaluatorNow();
      const c = current;
      return e === null || c === null ? null : { summary: (tMs, signal) => e.summary(tMs, signal), catalogs: () => c.catalogs };
    },
    historyDeriver: () => (m === null ? null : costHistoryDeriver(replay, () => evaluatorNow()?.intervalMs ?? null, o.logger)),
    replay,
    start: () => {
      const e = evaluatorNow();
      if (e !== null && cancel === null) schedule(e);
    },
    reload: async () => {
      if (m === null) return;
      try {
        current = await load(m);
      } catch (e) {
        counts.reloadFailed++;
        throw e;
      }
      counts.reloadOk++;
      counts.lastReloadMs = o.clock();
      o.logger.info('completed loading of cost catalogs', { instanceTypes: String(current.catalogs.prices.instances.size), benchmarks: String(current.catalogs.benchmarks.entries.length) });
    },
    stats: () => ({
      evaluations: { live: counts.live, replay: counts.replay },
      failures: counts.failures,
      lastDurationMs: counts.lastDurationMs,
      durationMsTotal: counts.durationMsTotal,
      reloads: { success: counts.reloadOk, failure: counts.reloadFailed },
      lastReloadSuccessMs: counts.lastReloadMs,
    }),
    close: async () => {
      closed = true;
      cancel?.();
      await inFlight;
    },
  };
}

/**
 * The in-step replay over the demo's history: as the history is written (`advance`, called with
 * the span written so far), it replays the ticks up to `COST_HISTORY_LAG_MS` behind it, a
 * chunk of at least `COST_HISTORY_CHUNK_MS` at a time; `derive` (the history is in) replays the
 * rest. Ticks stay on one grid of the evaluator's interval, so chunks never write a tick twice.
 */
export function costHistoryDeriver(replay: (fromMs: UnixMs, toMs: UnixMs) => Promise<number>, intervalMs: () => DurationMs | null, logger: Logger): HistoryDeriver {
  let nextMs: UnixMs | null = null;
  let ticks = 0;
  const upTo = async (startMs: UnixMs, toMs: UnixMs, minChunkMs: DurationMs): Promise<void> => {
    const step = intervalMs();
    if (step === null) return;
    nextMs ??= Math.ceil(startMs / step) * step;
    const last = Math.floor(toMs / step) * step;
    if (last < nextMs + minChunkMs - step) return;
    const from = nextMs;
    nextMs = last + step;
    // A failed chunk is logged and left out (a gap in the cost series), never fails the history.
    try {
      ticks += await replay(from, last);
    } catch (e) {
      logger.warn('cost: replaying a chunk of the history failed; going on', { from: new Date(from).toISOString(), to: new Date(last).toISOString(), err: e instanceof Error ? e.message : String(e) });
    }
  };
  return {
    name: 'cost',
    advance: (span) => upTo(span.startMs, span.endMs - COST_HISTORY_LAG_MS, COST_HISTORY_CHUNK_MS),
    derive: async (span) => {
      await upTo(span.startMs, span.endMs, 0);
      logger.info('cost replayed over the history', { ticks: String(ticks) });
    },
  };
}

/** The `infersight_cost_*` families of `/metrics`. */
export function costMetricFamilies(s: CostStats): MetricFamily[] {
  return [
    {
      name: 'infersight_cost_evaluations_total',
      help: 'Cost evaluator ticks written, live and replayed over a history.',
      type: 'counter',
      samples: [
        { labels: Labels.from({ mode: 'live' }), value: s.evaluations.live },
        { labels: Labels.from({ mode: 'replay' }), value: s.evaluations.replay },
      ],
    },
    { name: 'infersight_cost_evaluation_failures_total', help: 'Cost evaluations and replays that failed.', type: 'counter', samples: [{ value: s.failures }] },
    { name: 'infersight_cost_evaluation_duration_seconds_total', help: 'Time spent in cost evaluations and replays.', type: 'counter', samples: [{ value: s.durationMsTotal / 1000 }] },
    { name: 'infersight_cost_last_evaluation_duration_seconds', help: 'How long the last cost evaluation or replay took.', type: 'gauge', samples: [{ value: s.lastDurationMs / 1000 }] },
    {
      name: 'infersight_cost_catalog_reloads_total',
      help: 'Reloads of the price and benchmark catalogs, by result.',
      type: 'counter',
      samples: [
        { labels: Labels.from({ result: 'success' }), value: s.reloads.success },
        { labels: Labels.from({ result: 'failure' }), value: s.reloads.failure },
      ],
    },
    { name: 'infersight_cost_catalog_last_reload_success_timestamp_seconds', help: 'When the catalogs in force were loaded.', type: 'gauge', samples: [{ value: s.lastReloadSuccessMs / 1000 }] },
  ];
}
