/**
 * The queries of the differential test, generated from templates over the data set's metrics,
 * and the times they run at.
 *
 * Staying off the documented differences between Prometheus 2.42 (the peer) and 3.x (what our
 * engine implements):
 * - Range selectors and the lookback window are closed `[t-r, t]` in 2.42 and left-open
 *   `(t-r, t]` in 3.x. Query times are 3 s past a multiple of 15 s, every range, offset, step and
 *   `@` keeps that residue, subquery steps fall on multiples of 15 s, and no sample has a timestamp
 *   at 0 s or 3 s modulo 15 s (dataset.ts), so no sample ever sits on a window boundary. A nested
 *   subquery's range must not be a multiple of its step (`[10m30s:1m]`, not `[10m:1m]`): its
 *   window starts on the outer subquery's grid, and 2.42 would take one more inner step.
 * - rate/increase extrapolation: 3.x caps the extrapolation towards a counter's zero point after
 *   the "more than 1.1 average intervals" check, 2.42 before it; they differ only when a window
 *   starts well before a series' first sample. Windows reach back at most 35 min from the earliest
 *   query time (35 min after the start of the data), and the series that starts late
 *   (`edge_late_gauge`) only meets functions that do not extrapolate.
 * - Regex `.` matches a newline in 3.x: no label value has a newline.
 * - `atan2` keeps `__name__` in 2.42 (dropped since 2.46) and 3.x accepts any UTF-8 label name
 *   where 2.42 wants `[a-zA-Z_][a-zA-Z0-9_]*`: one query each is a known difference
 *   (known-differences.ts); the other atan2 queries use name-free operands.
 * - `topk`/`bottomk` ties: 2.42 assembles a range evaluation's output from a Go map, so among
 *   aggregated (or otherwise computed) series with equal values it keeps a random one. Ties here
 *   are only among raw selector series, whose order is the storage's.
 * - `holt_winters` is `double_exponential_smoothing` (experimental) in 3.x: such cases carry
 *   their own text for our engine, which then runs with experimental functions enabled.
 * - Functions and aggregations 2.42 lacks (promql-functions.tsv, `in_prometheus_2_42` = no) and
 *   3.x-only syntax (quoted metric names, duration expressions, `anchored`/`smoothed`, fill
 *   modifiers) are not used.
 */
import { aggregations, rangeFunctions, selectors } from './query-templates.js';
import { binaryOps, histograms, labelsAndMath, timeAndSubqueries } from './query-templates-ops.js';

/** One PromQL expression to compare. */
export interface DiffQuery {
  /** The text sent to Prometheus 2.42. */
  readonly query: string;
  /** The text our engine runs, when it differs (a renamed function); runs with experimental functions on. */
  readonly ours?: string;
  /** Not a valid range query (a range vector or string result). */
  readonly instantOnly?: boolean;
}

/** One evaluation: a query at an instant, or over a range. */
export type DiffEval =
  | { readonly q: DiffQuery; readonly mode: 'instant'; readonly tMs: number }
  | { readonly q: DiffQuery; readonly mode: 'range'; readonly startMs: number; readonly endMs: number; readonly stepMs: number };

const S = 1000;
const M = 60 * S;

/** The instants and the range, relative to the data set's base (a multiple of 15 s). */
export function evalPlan(baseMs: number): { instantsMs: number[]; startMs: number; endMs: number; atSec: number } {
  // 35m03s, 62m18s, and 93m03s (after the data ends at ~89m55s: only the lookback still finds samples).
  const instantsMs = [35 * M + 3 * S, 62 * M + 18 * S, 93 * M + 3 * S].map((d) => baseMs + d);
  return { instantsMs, startMs: baseMs + 35 * M + 3 * S, endMs: baseMs + 95 * M + 3 * S, atSec: (baseMs + 60 * M + 3 * S) / 1000 };
}

/** Every evaluation: each query at every instant, and once as a range query with a step that cycles. */
export function evaluations(queries: readonly DiffQuery[], baseMs: number): DiffEval[] {
  const plan = evalPlan(baseMs);
  const steps = [15 * S, 60 * S, 30 * S, 5 * M];
  const out: DiffEval[] = [];
  queries.forEach((q, i) => {
    for (const tMs of plan.instantsMs) out.push({ q, mode: 'instant', tMs });
    if (q.instantOnly !== true) out.push({ q, mode: 'range', startMs: plan.startMs, endMs: plan.endMs, stepMs: steps[i % steps.length] });
  });
  return out;
}

/** Queries that only make sense as instant queries (range vectors and strings); the rest also run as range queries. */
const INSTANT_ONLY = /\[\d+m\](?: offset \S+)?(?: @ \S+)?$|^"|\[\d+m:\d+m\]$/;

/** The renamed function: 2.42's `holt_winters` is 3.x's experimental `double_exponential_smoothing`. */
const RENAMED: DiffQuery[] = [
  { query: 'holt_winters(edge_temperature_celsius[10m], 0.5, 0.5)', ours: 'double_exponential_smoothing(edge_temperature_celsius[10m], 0.5, 0.5)' },
  { query: 'holt_winters(vllm:kv_cache_usage_perc[10m], 0.3, 0.7)', ours: 'double_exponential_smoothing(vllm:kv_cache_usage_perc[10m], 0.3, 0.7)' },
];

/** All queries of the test, for a data set whose base is `baseMs`. */
export function diffQueries(baseMs: number): DiffQuery[] {
  const all = [...selectors(), ...rangeFunctions(), ...aggregations(), ...binaryOps(), ...histograms(), ...labelsAndMath(), ...timeAndSubqueries(evalPlan(baseMs).atSec)];
  const seen = new Set<string>();
  const unique = all.filter((q) => !seen.has(q) && (seen.add(q), true));
  return [...unique.map((query) => ({ query, instantOnly: INSTANT_ONLY.test(query) })), ...RENAMED];
}
