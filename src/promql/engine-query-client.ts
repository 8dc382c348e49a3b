import { MAX_TIME_MS, MIN_TIME_MS, type DurationMs, type Labels, type Matcher, type UnixMs } from '../model/index.js';
import {
  QueryClientError,
  formatScalarValue,
  samplePair,
  type ErrorType,
  type InstantQueryData,
  type InstantSample,
  type LabelOptions,
  type MetadataData,
  type MetadataOptions,
  type Metric,
  type QueryClient,
  type QueryOptions,
  type QueryResponse,
  type QueryStatsWire,
  type RangeQueryData,
  type RangeSeries,
  type RequestOptions,
  type SeriesOptions,
} from '../query/index.js';
import { isStorageError, mergeSeriesSets, type Queryable, type Querier } from '../storage/index.js';
import type { QueryEngine, QueryOptions as EngineCallOptions, QueryResult, QueryStats } from './engine/types.js';
import { QueryError } from './errors.js';
import { ParseError, parseMetricSelector } from './parser/index.js';
import type { Series, Value } from './value.js';

/** Options of `EngineQueryClient`. */
export interface EngineQueryClientOptions {
  /** The engine that evaluates `instant` and `range`. */
  readonly engine: QueryEngine;
  /** The storage every call reads. */
  readonly queryable: Queryable;
  /** Where `metadata` comes from; `{}` for every metric when absent (the metric catalog is wired in later). */
  readonly metadata?: () => MetadataData;
}

/** Prometheus' API refuses range queries with more points than this per series. */
export const MAX_POINTS_PER_SERIES = 11_000;

/** Infersight's text for a query whose nesting exhausts the stack (Prometheus has no such limit). */
export const NESTED_TOO_DEEPLY = 'the query is nested too deeply';

/** Reports whether `e` is V8's stack overflow (a recursive parse or evaluation of absurd nesting). */
export function isStackOverflow(e: unknown): boolean {
  return e instanceof RangeError && /call stack/i.test(e.message);
}

/** Prometheus' text when `limit` cut a series, labels or label values answer short. */
export const TRUNCATED_WARNING = 'results truncated due to limit';

/**
 * The embedded implementation of `QueryClient`: PromQL through a `QueryEngine`, series and labels
 * straight from a `Querier`, results converted to Prometheus' API shapes (values formatted as
 * Go does, `__name__` dropped where PromQL drops it). Errors carry Prometheus' `errorType` and
 * its API wording, so a caller cannot tell this client from `HttpQueryClient` talking to
 * Prometheus. Stateless apart from its options; calls may run concurrently.
 */
export class EngineQueryClient implements QueryClient {
  constructor(private readonly o: EngineQueryClientOptions) {}

  async instant(query: string, timeMs: UnixMs, opts: QueryOptions = {}): Promise<QueryResponse<InstantQueryData>> {
    checkSignal(opts);
    const r = await this.evaluate(() => this.o.engine.instantQuery(this.o.queryable, query, timeMs, engineOptions(opts)), 'instant');
    return { data: { ...toInstantData(r.value), ...statsOf(r.stats, opts) }, warnings: r.warnings, infos: r.infos };
  }

  async range(query: string, startMs: UnixMs, endMs: UnixMs, stepMs: DurationMs, opts: QueryOptions = {}): Promise<QueryResponse<RangeQueryData>> {
    checkSignal(opts);
    const bad = rangeParamsError(startMs, endMs, stepMs);
    if (bad !== null) throw bad;
    const r = await this.evaluate(() => this.o.engine.rangeQuery(this.o.queryable, query, startMs, endMs, stepMs, engineOptions(opts)), 'range');
    const data = toInstantData(r.value);
    if (data.resultType !== 'matrix') throw new QueryClientError('internal', `range query returned a ${data.resultType}`);
    return { data: { resultType: 'matrix', result: data.result, ...statsOf(r.stats, opts) }, warnings: r.warnings, infos: r.infos };
  }

  async series(match: readonly string[], opts: SeriesOptions = {}): Promise<QueryResponse<Metric[]>> {
    checkSignal(opts);
    if (match.length === 0) throw new QueryClientError('bad_data', 'no match[] parameter provided');
    const sets = this.matcherSets(match, 'invalid parameter "match[]": ');
    return this.read(opts, (q) => {
      const hints = { startMs: opts.startMs, endMs: opts.endMs, labelsOnly: true, func: 'series' };
      const selected = sets.map((ms) => q.select(ms, hints));
      const set = selected.length === 1 ? selected[0] : mergeSeriesSets(selected);
      const out: Metric[] = [];
      const limit = opts.limit ?? 0;
      let truncated = false;
      while (set.next()) {
        if (limit > 0 && out.length === limit) {
          truncated = true;
          break;
        }
        out.push(set.at().labels.toRecord());
      }
      const err = set.err();
      if (err !== null) throw err;
      const warnings = new Set(set.warnings());
      if (truncated) warnings.add(TRUNCATED_WARNING);
      return { data: out, warnings: [...warnings], infos: [] };
    });
  }

  async labelNames(opts: LabelOptions = {}): Promise<QueryResponse<string[]>> {
    checkSignal(opts);
    const sets = this.matcherSets(opts.match ?? [], '');
    return this.read(opts, (q) => limited(sets.length === 0 ? q.labelNames() : union(sets.map((ms) => q.labelNames(ms))), opts.limit));
  }

  async labelValues(name: string, opts: LabelOptions = {}): Promise<QueryResponse<string[]>> {
    checkSignal(opts);
    // Prometheus 2.x's rule (model.LabelNameRE); 3.x also admits UTF-8 names in their escaped form.
    if (!/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(name)) throw new QueryClientError('bad_data', `invalid label name: ${JSON.stringify(name)}`);
    const sets = this.matcherSets(opts.match ?? [], '');
    return this.read(opts, (q) => limited(sets.length === 0 ? q.labelValues(name) : union(sets.map((ms) => q.labelValues(name, ms))), opts.limit));
  }

  async metadata(opts: MetadataOptions = {}): Promise<QueryResponse<MetadataData>> {
    checkSignal(opts);
    const all = this.o.metadata?.() ?? {};
    const out: MetadataData = {};
    for (const [name, entries] of Object.entries(all)) {
      if (opts.metric !== undefined && opts.metric !== name) continue;
      if (opts.limit !== undefined && opts.limit >= 0 && Object.keys(out).length >= opts.limit) break;
      out[name] = entries.map((e) => ({ ...e }));
    }
    return { data: out, warnings: [], infos: [] };
  }

  /** Parses `match[]` selectors into matcher lists, refusing those that match every series. */
  private matcherSets(match: readonly string[], prefix: string): Matcher[][] {
    const sets = match.map((m) => {
      try {
        return parseMetricSelector(m);
      } catch (e) {
        if (e instanceof ParseError || e instanceof QueryError) throw new QueryClientError('bad_data', prefix + e.message);
        if (isStackOverflow(e)) throw new QueryClientError('bad_data', prefix + NESTED_TOO_DEEPLY);
        throw e;
      }
    });
    for (const ms of sets) {
      if (ms.every((m) => m.matchesEmpty())) throw new QueryClientError('bad_data', `${prefix}match[] must contain at least one non-empty matcher`);
    }
    return sets;
  }

  private async read<T>(opts: SeriesOptions, fn: (q: Querier) => QueryResponse<T>): Promise<QueryResponse<T>> {
    let q: Querier;
    try {
      q = this.o.queryable.querier(opts.startMs ?? MIN_TIME_MS, opts.endMs ?? MAX_TIME_MS);
    } catch (e) {
      throw toClientError(e, 'execution');
    }
    try {
      return fn(q);
    } catch (e) {
      throw toClientError(e, 'execution');
    } finally {
      q.close();
    }
  }

  private async evaluate(run: () => Promise<QueryResult>, kind: 'instant' | 'range'): Promise<QueryResult> {
    try {
      return await run();
    } catch (e) {
      // Prometheus' API prefixes errors of building an instant query (parse and validation) with the parameter.
      const prefix = kind === 'instant' ? 'invalid parameter "query": ' : '';
      if (e instanceof QueryError && e.errorType === 'bad_data') throw new QueryClientError('bad_data', prefix + e.message);
      if (isStackOverflow(e)) throw new QueryClientError('bad_data', `${prefix}${NESTED_TOO_DEEPLY}`);
      throw toClientError(e, 'internal');
    }
  }
}

/**
 * The first of Prometheus' range-parameter errors that applies (in the order its API checks
 * them), as a `bad_data` error with the API's text; null when the parameters are fine.
 */
export function rangeParamsError(startMs: UnixMs, endMs: UnixMs, stepMs: DurationMs): QueryClientError | null {
  if (endMs < startMs) return new QueryClientError('bad_data', 'invalid parameter "end": end timestamp must not be before start time');
  if (!(stepMs > 0)) {
    return new QueryClientError('bad_data', 'invalid parameter "step": zero or negative query resolution step widths are not accepted. Try a positive integer');
  }
  if (Math.floor((endMs - startMs) / stepMs) > MAX_POINTS_PER_SERIES) {
    return new QueryClientError('bad_data', 'exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the query resolution (?step=XX)');
  }
  return null;
}

function checkSignal(opts: RequestOptions): void {
  if (opts.signal?.aborted === true) throw new QueryClientError('canceled', 'query was canceled');
}

/**
 * The engine's options for a call. `stats=all` skips a result cache as `noCache` does, so that the
 * statistics count the whole query's work, exactly as without a cache.
 */
function engineOptions(o: QueryOptions): EngineCallOptions {
  return { timeoutMs: o.timeoutMs, lookbackDeltaMs: o.lookbackDeltaMs, signal: o.signal, noCache: o.noCache === true || o.stats === true };
}

function statsOf(s: QueryStats, o: QueryOptions): { stats?: QueryStatsWire } {
  if (o.stats !== true) return {};
  const t = s.evalTotalTimeSec;
  return {
    stats: {
      timings: { evalTotalTime: t, resultSortTime: 0, queryPreparationTime: 0, innerEvalTime: t, execQueueTime: 0, execTotalTime: t },
      samples: { totalQueryableSamples: s.totalQueryableSamples, peakSamples: s.peakSamples },
    },
  };
}

function metricOf(labels: Labels, dropName: boolean): Metric {
  return (dropName ? labels.without('__name__') : labels).toRecord();
}

/** The engine's columns behind the range series `toInstantData` returns (see `rangeSeriesColumns`). */
const COLUMNS = new WeakMap<RangeSeries, Series>();

/**
 * A range series whose `values` pairs are built when first read (then kept): an answer of
 * millions of points then needs no `[number, string]` pair per point unless someone asks for
 * them; the API streams its JSON straight from the columns (`rangeSeriesColumns`).
 */
function rangeSeries(s: Series): RangeSeries {
  let values: [number, string][] | null = null;
  const out = { metric: metricOf(s.metric, s.dropName) } as RangeSeries;
  Object.defineProperty(out, 'values', {
    enumerable: true,
    get: () => (values ??= pairsOf(s)),
  });
  COLUMNS.set(out, s);
  return out;
}

function pairsOf(s: Series): [number, string][] {
  const values = new Array<[number, string]>(s.t.length);
  for (let i = 0; i < s.t.length; i++) values[i] = samplePair(s.t[i], s.f[i]);
  return values;
}

/**
 * The timestamps (ms) and values behind a range series this client returned, or null for any
 * other series: lets a serializer format `values` one pair at a time without building them all.
 */
export function rangeSeriesColumns(s: RangeSeries): { readonly t: ArrayLike<number>; readonly f: ArrayLike<number> } | null {
  return COLUMNS.get(s) ?? null;
}

/** Converts an engine value into the API's `data` shape. */
export function toInstantData(v: Value): InstantQueryData {
  switch (v.type) {
    case 'scalar':
      return { resultType: 'scalar', result: [v.t / 1000, formatScalarValue(v.v)] };
    case 'string':
      return { resultType: 'string', result: [v.t / 1000, v.v] };
    case 'vector':
      return { resultType: 'vector', result: v.v.map((s): InstantSample => ({ metric: metricOf(s.metric, s.dropName), value: samplePair(s.t, s.f) })) };
    case 'matrix':
      return { resultType: 'matrix', result: v.v.map(rangeSeries) };
  }
}

function union(lists: string[][]): string[] {
  return [...new Set(lists.flat())].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function limited(values: string[], limit: number | undefined): QueryResponse<string[]> {
  if (limit !== undefined && limit > 0 && values.length > limit) return { data: values.slice(0, limit), warnings: [TRUNCATED_WARNING], infos: [] };
  return { data: values, warnings: [], infos: [] };
}

function toClientError(e: unknown, fallback: ErrorType): QueryClientError {
  if (e instanceof QueryClientError) return e;
  if (e instanceof QueryError) return new QueryClientError(e.errorType, e.message);
  // A storage code's errorType is its registry entry's (docs/errors.md); every storage code has one.
  if (isStorageError(e)) return new QueryClientError(e.spec.errorType ?? 'internal', e.message);
  return new QueryClientError(fallback, e instanceof Error ? e.message : String(e));
}
