/**
 * Classic-histogram buckets over time → a heatmap matrix: per time step, the count in each bucket
 * (the difference of successive cumulative `le` buckets). Series that differ in labels besides
 * `le` (engines with different bucket layouts, docs/design/histogram-layouts.md) are differenced
 * separately, so mixing layouts never produces negative counts; each source's bucket is then
 * spread over the rows of the union of all bounds that it covers, in proportion to their width
 * (the linear interpolation `histogram_quantile` assumes), so a wide bucket of one layout is not
 * drawn as if all its requests sat in a narrow row of another.
 */
import type { RangeSeries } from '../../../../src/query/index.js';
import { parseSampleValue } from '../../../../src/query/index.js';
import type { QueryWindow } from './step.js';

/** A heatmap: `counts[t * uppers.length + b]` is the count in bucket b at step t. */
export interface HeatmapData {
  /** Unix seconds of each column. */
  readonly xs: number[];
  /** Upper bounds of the buckets, ascending (the last may be +Inf). */
  readonly uppers: number[];
  readonly counts: Float64Array;
  /** The largest count (colour scale). */
  readonly max: number;
}

/** Parses an `le` label (`+Inf`, `1.0`, `1e+06`). */
export function parseLe(le: string): number {
  return le === '+Inf' ? Number.POSITIVE_INFINITY : Number(le);
}

/** Builds the heatmap of `series` (each with an `le` label) on the window's grid. */
export function bucketsToHeatmap(series: readonly RangeSeries[], w: QueryWindow): HeatmapData {
  const n = Math.max(1, Math.floor((w.endMs - w.startMs) / w.stepMs) + 1);
  const xs = Array.from({ length: n }, (_, i) => (w.startMs + i * w.stepMs) / 1000);
  const withLe = series.filter((s) => s.metric.le !== undefined && !Number.isNaN(parseLe(s.metric.le)));
  const uppers = [...new Set(withLe.map((s) => parseLe(s.metric.le)))].sort((a, b) => a - b);
  const upperIndex = new Map(uppers.map((u, i) => [u, i]));
  const counts = new Float64Array(n * uppers.length);

  // Group by the labels other than `le`.
  const groups = new Map<string, RangeSeries[]>();
  for (const s of withLe) {
    const key = Object.keys(s.metric)
      .filter((k) => k !== 'le' && k !== '__name__')
      .sort()
      .map((k) => `${k}=${s.metric[k]}`)
      .join(',');
    let g = groups.get(key);
    if (g === undefined) groups.set(key, (g = []));
    g.push(s);
  }

  const cum = new Float64Array(n);
  for (const group of groups.values()) {
    group.sort((a, b) => parseLe(a.metric.le) - parseLe(b.metric.le));
    cum.fill(0);
    for (let g = 0; g < group.length; g++) {
      const s = group[g];
      const hi = parseLe(s.metric.le);
      const rows = spread(g === 0 ? Math.min(0, hi) : parseLe(group[g - 1].metric.le), hi, uppers, upperIndex);
      const cur = new Float64Array(n).fill(Number.NaN);
      for (const [t, v] of s.values) {
        const i = Math.round((t * 1000 - w.startMs) / w.stepMs);
        if (i >= 0 && i < n) cur[i] = parseSampleValue(v);
      }
      for (let i = 0; i < n; i++) {
        const c = cur[i];
        if (Number.isNaN(c)) continue;
        const d = c - cum[i];
        if (d > 0) for (const [row, share] of rows) counts[i * uppers.length + row] += d * share;
        if (c > cum[i]) cum[i] = c;
      }
    }
  }
  let max = 0;
  for (const c of counts) if (c > max) max = c;
  return { xs, uppers, counts, max };
}

/**
 * The rows of `uppers` that the bucket (lo, hi] covers, each with its share of the bucket's width.
 * A bucket without a finite width (the first one at or below 0, the `+Inf` one) goes whole to the
 * row of its upper bound.
 */
function spread(lo: number, hi: number, uppers: readonly number[], upperIndex: ReadonlyMap<number, number>): [number, number][] {
  const top = upperIndex.get(hi)!;
  if (!Number.isFinite(hi) || !(hi > lo)) return [[top, 1]];
  const out: [number, number][] = [];
  for (let row = top; row >= 0 && uppers[row] > lo; row--) {
    const from = Math.max(lo, row === 0 ? lo : uppers[row - 1]);
    out.push([row, (uppers[row] - from) / (hi - lo)]);
  }
  return out;
}
