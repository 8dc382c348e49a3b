/**
 * Range-query step calculation, like Grafana's maxDataPoints: the smallest "nice" step that keeps
 * a series at or under `maxPoints` points, never below the scrape resolution; start and end are
 * aligned to the step so that refreshes reuse the same grid.
 */

/**
 * The scrape interval the dashboards assume (Prometheus' and Grafana's default, 15 s): the
 * dashboard's smallest step, as Grafana's data-source "scrape interval" is its panels' min
 * interval. A finer step only re-evaluates the same samples (with 15 s scrapes, a 2 s step costs
 * 7.5 times the work of a 15 s one for no new information).
 */
export const DEFAULT_SCRAPE_INTERVAL_MS = 15_000;

/** The cap on points per series of a range query (Grafana's default maxDataPoints is about this). */
export const MAX_POINTS = 1100;

/** Steps a range query may use, in ms, ascending. */
export const NICE_STEPS_MS: readonly number[] = [
  1000, 2000, 5000, 10_000, 15_000, 20_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_200_000, 1_800_000, 3_600_000, 7_200_000,
  10_800_000, 21_600_000, 43_200_000, 86_400_000,
];

/** Options of `stepForRange`. */
export interface StepOptions {
  /** At most this many points per series (default `MAX_POINTS`). */
  readonly maxPoints?: number;
  /** Never a smaller step than this (default 1 s; use the scrape interval when known). */
  readonly minStepMs?: number;
}

/** The step for a range of `rangeMs`: `(rangeMs / step) + 1 <= maxPoints`. */
export function stepForRange(rangeMs: number, opts: StepOptions = {}): number {
  const maxPoints = Math.max(2, opts.maxPoints ?? MAX_POINTS);
  const minStep = Math.max(1, opts.minStepMs ?? 1000);
  const raw = Math.max(minStep, rangeMs / (maxPoints - 1));
  const nice = NICE_STEPS_MS.find((s) => s >= raw);
  if (nice !== undefined) return nice;
  // Past a day per step: whole days.
  return Math.ceil(raw / 86_400_000) * 86_400_000;
}

/** A range query's window and step. */
export interface QueryWindow {
  readonly startMs: number;
  readonly endMs: number;
  readonly stepMs: number;
}

/**
 * The aligned window for `[startMs, endMs]`: the step from `stepForRange`, the start rounded up
 * and the end rounded down to multiples of the step, so the grid stays the same between
 * refreshes and the point count stays within `maxPoints`.
 */
export function queryWindow(startMs: number, endMs: number, opts: StepOptions = {}): QueryWindow {
  const stepMs = stepForRange(Math.max(0, endMs - startMs), opts);
  const alignedEnd = Math.floor(endMs / stepMs) * stepMs;
  let alignedStart = Math.ceil(startMs / stepMs) * stepMs;
  if (alignedStart > alignedEnd) alignedStart = alignedEnd;
  return { startMs: alignedStart, endMs: alignedEnd, stepMs };
}

/** The number of points a range query over `w` returns per series (when every step has a value). */
export function pointCount(w: QueryWindow): number {
  return Math.floor((w.endMs - w.startMs) / w.stepMs) + 1;
}
