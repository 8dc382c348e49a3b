import type { DurationMs, UnixMs } from '../model/index.js';
import type { InstantQueryData, MetadataData, Metric, RangeQueryData } from './wire.js';

/** Options every `QueryClient` call takes. */
export interface RequestOptions {
  /** Aborts the call; it then rejects with `errorType` `canceled`. */
  readonly signal?: AbortSignal;
}

/** Options of `instant` and `range`. */
export interface QueryOptions extends RequestOptions {
  /** Server-side time budget (Prometheus' `timeout` parameter); past it the call rejects with `timeout`. */
  readonly timeoutMs?: DurationMs;
  /**
   * How far back an instant selector looks for a sample (the `lookback_delta` parameter of
   * Prometheus 2.43+); the backend's default (5 m) when absent. Backends that do not know the
   * parameter ignore it.
   */
  readonly lookbackDeltaMs?: DurationMs;
  /** Ask for the query's statistics (`stats=all`); they come back in `data.stats` where the backend has them. */
  readonly stats?: boolean;
  /**
   * Compute the answer in full instead of from a results cache (`nocache=1`, the parameter
   * VictoriaMetrics and Infersight read). Backends without a cache ignore it.
   */
  readonly noCache?: boolean;
}

/** Options of `series`, `labelNames` and `labelValues`: which series to look at. */
export interface SeriesOptions extends RequestOptions {
  /** Only series with samples at or after this time; no lower bound when absent. */
  readonly startMs?: UnixMs;
  /** Only series with samples at or before this time; no upper bound when absent. */
  readonly endMs?: UnixMs;
  /** At most this many entries (Prometheus 2.51+ `limit`; 0 or absent: no limit). Backends that do not know it return everything. */
  readonly limit?: number;
}

/** Options of `labelNames` and `labelValues`. */
export interface LabelOptions extends SeriesOptions {
  /** Series selectors (`match[]`); only labels of series matching at least one of them count. */
  readonly match?: readonly string[];
}

/** Options of `metadata`. */
export interface MetadataOptions extends RequestOptions {
  /** Only this metric's metadata. */
  readonly metric?: string;
  /** At most this many metrics. */
  readonly limit?: number;
}

/** A successful answer: the API's `data`, plus the warnings and infos that came with it (empty arrays when none). */
export interface QueryResponse<T> {
  readonly data: T;
  readonly warnings: readonly string[];
  readonly infos: readonly string[];
}

/**
 * The read side of Infersight above storage: PromQL and series metadata in Prometheus' HTTP API
 * shapes. Rules, diagnosis, the views and the HTTP API itself take one; the embedded engine
 * (`EngineQueryClient` in src/promql) and any Prometheus-compatible server (`HttpQueryClient`)
 * provide one. `runQueryClientSuite` (src/query/testing) pins the contract.
 *
 * Contract:
 * - Results are the API's `data` verbatim (src/query/wire.ts): values are strings in Go's float
 *   formatting (`formatSampleValue` for samples; `formatScalarValue`, plain notation, for scalar
 *   results, as Prometheus 2.x), timestamps are Unix seconds with millisecond precision.
 *   Label sets are plain records; `metric` of a computed sample lacks `__name__` where PromQL
 *   drops it.
 * - `instant(query, timeMs)` evaluates at one time and returns any of the four result types.
 *   `range(query, startMs, endMs, stepMs)` evaluates at `startMs`, `startMs + stepMs`, ... up to
 *   `endMs` and always returns a matrix whose series are sorted by labels; a string-valued query
 *   fails with `bad_data`. Callers validate `stepMs > 0` and `endMs >= startMs`; a backend answers
 *   `bad_data` otherwise.
 * - `series(match)` returns the label sets of the series that match at least one selector and have
 *   samples in `[startMs, endMs]`, each once; `labelNames` / `labelValues(name)` return sorted,
 *   de-duplicated strings from such series (all series when `match` is absent). A selector that
 *   does not parse, or one whose matchers all match the empty string, fails with `bad_data`;
 *   `series` needs at least one selector.
 * - `metadata` returns metric name → metadata entries; `{}` where the backend keeps none.
 * - Failures reject with `QueryClientError`, whose `errorType` is Prometheus' (`bad_data` for a
 *   query that does not parse, `execution` for one that fails while running, `timeout`,
 *   `canceled` when `signal` aborts, `unavailable` when the backend cannot answer now). Messages
 *   follow Prometheus' API wording (`invalid parameter "query": 1:5: parse error: ...`).
 * - Calls are independent and may run concurrently; a client holds no per-call state. Returned
 *   objects belong to the caller.
 */
export interface QueryClient {
  instant(query: string, timeMs: UnixMs, opts?: QueryOptions): Promise<QueryResponse<InstantQueryData>>;
  range(query: string, startMs: UnixMs, endMs: UnixMs, stepMs: DurationMs, opts?: QueryOptions): Promise<QueryResponse<RangeQueryData>>;
  series(match: readonly string[], opts?: SeriesOptions): Promise<QueryResponse<Metric[]>>;
  labelNames(opts?: LabelOptions): Promise<QueryResponse<string[]>>;
  labelValues(name: string, opts?: LabelOptions): Promise<QueryResponse<string[]>>;
  metadata(opts?: MetadataOptions): Promise<QueryResponse<MetadataData>>;
}
