import type { Queryable } from '../../storage/index.js';
import type { Expr } from '../parser/ast.js';
import type { Value } from '../value.js';

/** Per-query settings that override the engine's defaults. */
export interface QueryOptions {
  /** How far back an instant selector looks for a sample (default: the engine's, 5 m). */
  readonly lookbackDeltaMs?: number;
  /** Wall-clock budget; the query fails with `timeout` past it (default: the engine's). */
  readonly timeoutMs?: number;
  /** Aborts the query with `canceled` (the HTTP client went away). */
  readonly signal?: AbortSignal;
  /**
   * Skip any result cache in front of the engine (`nocache=1`, `Cache-Control: no-cache`): the
   * answer is computed in full; a cache may still keep it. The engine itself ignores it.
   */
  readonly noCache?: boolean;
}

/** Counters a query reports with `stats=all`. */
export interface QueryStats {
  /**
   * Samples read from storage, each stored sample once per selector that reads it. (Prometheus'
   * `totalQueryableSamples` counts a sample once per step whose window holds it, so its number is
   * larger for range functions over overlapping windows.)
   */
  readonly totalQueryableSamples: number;
  /** Most samples held in memory at once (Prometheus' `peakSamples`). */
  readonly peakSamples: number;
  /** Wall time of the phases, in seconds, as Prometheus' `timings`. */
  readonly evalTotalTimeSec: number;
}

/** What a successful query returns. */
export interface QueryResult {
  readonly value: Value;
  readonly warnings: readonly string[];
  readonly infos: readonly string[];
  readonly stats: QueryStats;
}

/**
 * The PromQL engine's public face. Queries are parsed (when given as text), checked, evaluated
 * against the `Queryable` and returned; failures reject with `QueryError` (a parse error has
 * `errorType` `bad_data`). Both methods honour the concurrency limit, the timeout and the sample
 * limit. Times are Unix milliseconds.
 */
export interface QueryEngine {
  instantQuery(queryable: Queryable, query: string | Expr, tMs: number, opts?: QueryOptions): Promise<QueryResult>;
  rangeQuery(
    queryable: Queryable,
    query: string | Expr,
    startMs: number,
    endMs: number,
    stepMs: number,
    opts?: QueryOptions,
  ): Promise<QueryResult>;
}
