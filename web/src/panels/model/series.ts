/**
 * Range-query answers → uPlot's aligned columns: one shared x column (Unix seconds on the query's
 * step grid) and one y column per series, `null` where a series has no sample (uPlot draws a
 * gap). NaN and infinities are gaps too: `histogram_quantile` over no traffic is NaN.
 */
import type { Unit } from '../../../../src/dashboards/types.js';
import type { RangeSeries } from '../../../../src/query/index.js';
import { parseSampleValue } from '../../../../src/query/index.js';
import type { BuiltQuery } from './panel-queries.js';
import type { QueryWindow } from './step.js';

/** One drawable series. */
export interface SeriesData {
  /** refId plus label set: stable across refreshes, unique in the panel. */
  readonly key: string;
  readonly refId: string;
  readonly label: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly unit: Unit;
  /** A dashed reference line (benchmark, SLO) rather than data. */
  readonly reference: boolean;
  readonly values: (number | null)[];
}

/** Aligned data of a time-series panel. */
export interface AlignedSeries {
  /** Unix seconds. */
  readonly xs: number[];
  readonly series: SeriesData[];
}

/** A query with its range answer. */
export interface RangeResult {
  readonly query: BuiltQuery;
  readonly series: readonly RangeSeries[];
}

/**
 * A legend from a Grafana-style template (`{{az}} {{engine}}`); without a template the label set
 * as PromQL writes it (`{az="a", engine="vllm"}`), prefixed by the metric name if there is one.
 */
export function formatLegend(template: string, labels: Readonly<Record<string, string>>): string {
  if (template !== '') return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => labels[name] ?? '').trim();
  const name = labels.__name__ ?? '';
  const rest = Object.keys(labels)
    .filter((k) => k !== '__name__')
    .sort()
    .map((k) => `${k}="${labels[k]}"`)
    .join(', ');
  if (rest === '') return name === '' ? '{}' : name;
  return `${name}{${rest}}`;
}

/** The stable key of a series: refId and sorted labels. */
export function seriesKey(refId: string, labels: Readonly<Record<string, string>>): string {
  return `${refId}\u0002${Object.keys(labels)
    .sort()
    .map((k) => `${k}=${labels[k]}`)
    .join('\u0001')}`;
}

/** Aligns range answers on the window's grid. */
export function alignRangeResults(results: readonly RangeResult[], w: QueryWindow): AlignedSeries {
  const n = Math.max(1, Math.floor((w.endMs - w.startMs) / w.stepMs) + 1);
  const xs = Array.from({ length: n }, (_, i) => (w.startMs + i * w.stepMs) / 1000);
  const series: SeriesData[] = [];
  for (const r of results) {
    for (const s of r.series) {
      const values: (number | null)[] = new Array<number | null>(n).fill(null);
      for (const [t, v] of s.values) {
        const i = Math.round((t * 1000 - w.startMs) / w.stepMs);
        if (i < 0 || i >= n) continue;
        const num = parseSampleValue(v);
        values[i] = Number.isFinite(num) ? num : null;
      }
      series.push({
        key: seriesKey(r.query.refId, s.metric),
        refId: r.query.refId,
        label: formatLegend(r.query.legend, s.metric),
        labels: s.metric,
        unit: r.query.unit,
        reference: r.query.reference,
        values,
      });
    }
  }
  return { xs, series };
}

/** Last, mean and max of the non-null values (legend statistics); NaN when there are none. */
export function seriesStats(values: readonly (number | null)[]): { last: number; mean: number; max: number } {
  let last = Number.NaN;
  let sum = 0;
  let count = 0;
  let max = Number.NaN;
  for (const v of values) {
    if (v === null) continue;
    last = v;
    sum += v;
    count++;
    if (!(v <= max)) max = v;
  }
  return { last, mean: count === 0 ? Number.NaN : sum / count, max };
}
