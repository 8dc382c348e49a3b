/**
 * Tables from instant queries: one row per series of the first query, one column per query,
 * joined on labels (`Panel.joinOn`, default `instance`). A series of a later query whose join
 * labels match no row is dropped; when several series of one query share the join labels, the
 * first one (in the API's order) fills the cell.
 */
import type { InstantSample } from '../../../../src/query/index.js';
import { parseSampleValue } from '../../../../src/query/index.js';

/** One query's answer, for joining. */
export interface QueryResult {
  readonly refId: string;
  readonly samples: readonly InstantSample[];
}

/** A joined row. */
export interface TableRow {
  /** The join labels' values joined by a separator: stable and unique per row. */
  readonly key: string;
  /** The labels of the first query's series. */
  readonly labels: Readonly<Record<string, string>>;
  /** refId → value (undefined where that query has no series for the row). */
  readonly values: Readonly<Record<string, number | undefined>>;
}

/** The join key of a label set. */
export function joinKey(labels: Readonly<Record<string, string>>, joinOn: readonly string[]): string {
  return joinOn.map((l) => labels[l] ?? '').join('\u0001');
}

/** Joins `results` on `joinOn`: rows from the first result, cells from all. */
export function joinTable(results: readonly QueryResult[], joinOn: readonly string[] = ['instance']): TableRow[] {
  if (results.length === 0) return [];
  const lookups = results.map((r) => {
    const m = new Map<string, number>();
    for (const s of r.samples) {
      const k = joinKey(s.metric, joinOn);
      if (!m.has(k)) m.set(k, parseSampleValue(s.value[1]));
    }
    return m;
  });
  const rows: TableRow[] = [];
  const seen = new Set<string>();
  for (const s of results[0].samples) {
    const key = joinKey(s.metric, joinOn);
    if (seen.has(key)) continue;
    seen.add(key);
    const values: Record<string, number | undefined> = {};
    results.forEach((r, i) => {
      values[r.refId] = lookups[i].get(key);
    });
    rows.push({ key, labels: s.metric, values });
  }
  return rows;
}

/** Sorts rows by a column (missing values last in either direction) or by a label; stable. */
export function sortRows(rows: readonly TableRow[], by: { readonly refId?: string; readonly label?: string }, dir: 'asc' | 'desc'): TableRow[] {
  const sign = dir === 'asc' ? 1 : -1;
  const out = rows.map((r, i) => ({ r, i }));
  out.sort((a, b) => {
    let c = 0;
    if (by.refId !== undefined) {
      const x = a.r.values[by.refId];
      const y = b.r.values[by.refId];
      const xm = x === undefined || Number.isNaN(x);
      const ym = y === undefined || Number.isNaN(y);
      if (xm || ym) return xm === ym ? a.i - b.i : xm ? 1 : -1;
      c = sign * (x - y);
    } else if (by.label !== undefined) {
      c = sign * naturalCompare(a.r.labels[by.label] ?? '', b.r.labels[by.label] ?? '');
    }
    return c !== 0 ? c : a.i - b.i;
  });
  return out.map((x) => x.r);
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Compares strings with embedded numbers in numeric order: `i2` < `i10`. */
export function naturalCompare(a: string, b: string): number {
  return collator.compare(a, b);
}
