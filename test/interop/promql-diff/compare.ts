/**
 * Turns Prometheus' HTTP answers and our engine's values into one shape and compares them: the
 * same result type (errors: the same `errorType`, any wording), the same label sets, the same
 * timestamps, values equal within a relative 1e-6 (an absolute 1e-12 near zero, where 2.42's
 * un-compensated sums leave rounding noise that 3.x's Kahan sums do not), NaN equal to NaN. Series order counts only where the query asks for it
 * (`sort`/`sort_desc` at the top of an instant query), and then only the order of the values,
 * since both engines order ties arbitrarily. Warnings and infos are not compared.
 */
import type { ApiResponse } from '../../../bench/promql/prometheus-peer.js';
import type { Value } from '../../../src/promql/value.js';

/** One series of a normalized result; a scalar or string result is one series with no labels. */
export interface NormSeries {
  readonly key: string;
  readonly t: number[];
  readonly v: (number | string)[];
}

/** A query outcome in a form both sides share. */
export type Outcome =
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'vector' | 'matrix' | 'scalar' | 'string'; readonly series: NormSeries[] };

/** The key of a label set: `{a="x", b="y"}` with names sorted (also a readable rendering). */
export function labelKey(record: Readonly<Record<string, string>>): string {
  const names = Object.keys(record).sort();
  return `{${names.map((n) => `${n}=${JSON.stringify(record[n])}`).join(', ')}}`;
}

/** A Prometheus API sample value: `"1.5"`, `"NaN"`, `"+Inf"`, `"-Inf"`. */
function apiNumber(s: string): number {
  if (s === '+Inf') return Infinity;
  if (s === '-Inf') return -Infinity;
  return Number(s);
}

type ApiPoint = [number, string];

/** Normalizes a Prometheus API answer (times to ms). */
export function fromApi(res: ApiResponse): Outcome {
  if (res.status !== 'success' || res.data === undefined) return { kind: 'error', message: `${res.errorType ?? '?'}: ${res.error ?? ''}` };
  const ms = (t: number): number => Math.round(t * 1000);
  const { resultType, result } = res.data;
  switch (resultType) {
    case 'scalar':
    case 'string': {
      const [t, v] = result as ApiPoint;
      return { kind: resultType, series: [{ key: '', t: [ms(t)], v: [resultType === 'scalar' ? apiNumber(v) : v] }] };
    }
    case 'vector':
      return {
        kind: 'vector',
        series: (result as { metric: Record<string, string>; value: ApiPoint }[]).map((s) => ({ key: labelKey(s.metric), t: [ms(s.value[0])], v: [apiNumber(s.value[1])] })),
      };
    case 'matrix':
      return {
        kind: 'matrix',
        series: (result as { metric: Record<string, string>; values: ApiPoint[] }[]).map((s) => ({
          key: labelKey(s.metric),
          t: s.values.map((p) => ms(p[0])),
          v: s.values.map((p) => apiNumber(p[1])),
        })),
      };
  }
}

/** Normalizes our engine's value. */
export function fromValue(value: Value): Outcome {
  switch (value.type) {
    case 'scalar':
    case 'string':
      return { kind: value.type, series: [{ key: '', t: [value.t], v: [value.v] }] };
    case 'vector':
      return { kind: 'vector', series: value.v.map((s) => ({ key: labelKey(s.metric.toRecord()), t: [s.t], v: [s.f] })) };
    case 'matrix':
      return { kind: 'matrix', series: value.v.map((s) => ({ key: labelKey(s.metric.toRecord()), t: [...s.t], v: [...s.f] })) };
  }
}

/** Whether two sample values are equal for this test (see the module comment). */
export function sameValue(a: number | string, b: number | string): boolean {
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
  if (a === b) return true;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  const d = Math.abs(a - b);
  return d <= 1e-12 || d <= 1e-6 * Math.max(Math.abs(a), Math.abs(b));
}

const MAX_LINES = 6;

/**
 * Compares Prometheus' outcome (`want`) with ours (`got`); returns the differences as readable
 * lines (at most a handful), empty when equal. Two errors are equal when their `errorType` is.
 */
export function compareOutcomes(want: Outcome, got: Outcome, ordered: boolean): string[] {
  if (want.kind === 'error' || got.kind === 'error') {
    if (want.kind === 'error' && got.kind === 'error') {
      const type = (o: { message: string }): string => o.message.slice(0, o.message.indexOf(':'));
      return type(want) === type(got) ? [] : [`error types differ`, `prometheus: ${describe(want)}`, `ours:       ${describe(got)}`];
    }
    return [`prometheus: ${describe(want)}`, `ours:       ${describe(got)}`];
  }
  if (want.kind !== got.kind) return [`result type: prometheus ${want.kind}, ours ${got.kind}`, `prometheus: ${describe(want)}`, `ours:       ${describe(got)}`];
  const out: string[] = [];
  const ours = new Map(got.series.map((s) => [s.key, s]));
  const theirs = new Map(want.series.map((s) => [s.key, s]));
  if (ours.size !== got.series.length) out.push(`ours has duplicate label sets (${got.series.length} series, ${ours.size} distinct)`);
  for (const s of want.series) if (!ours.has(s.key)) out.push(`missing in ours: ${s.key} ${points(s)}`);
  for (const s of got.series) if (!theirs.has(s.key)) out.push(`extra in ours:  ${s.key} ${points(s)}`);
  for (const w of want.series) {
    const g = ours.get(w.key);
    if (g === undefined) continue;
    const why = seriesDiff(w, g);
    if (why !== null) out.push(`${w.key || 'value'}: ${why}`);
  }
  if (ordered && out.length === 0) {
    const wv = want.series.map((s) => s.v[0]);
    const gv = got.series.map((s) => s.v[0]);
    if (wv.some((v, i) => !sameValue(v, gv[i]))) out.push(`order: prometheus [${wv.join(', ')}], ours [${gv.join(', ')}]`);
  }
  return out.length > MAX_LINES ? [...out.slice(0, MAX_LINES), `... ${out.length - MAX_LINES} more`] : out;
}

/** Why two series differ, or null. */
function seriesDiff(w: NormSeries, g: NormSeries): string | null {
  const wt = new Map(w.t.map((t, i) => [t, w.v[i]]));
  const gt = new Map(g.t.map((t, i) => [t, g.v[i]]));
  const onlyW = w.t.filter((t) => !gt.has(t));
  const onlyG = g.t.filter((t) => !wt.has(t));
  const parts: string[] = [];
  if (onlyW.length > 0) parts.push(`${onlyW.length} timestamps only in prometheus (first ${onlyW[0]})`);
  if (onlyG.length > 0) parts.push(`${onlyG.length} timestamps only in ours (first ${onlyG[0]})`);
  const bad = w.t.filter((t) => gt.has(t) && !sameValue(wt.get(t)!, gt.get(t)!));
  if (bad.length > 0) parts.push(`${bad.length} values differ, first at ${bad[0]}: prometheus ${String(wt.get(bad[0]))}, ours ${String(gt.get(bad[0]))}`);
  return parts.length === 0 ? null : parts.join('; ');
}

function points(s: NormSeries): string {
  const head = s.t.slice(0, 3).map((t, i) => `${String(s.v[i])}@${t}`);
  return `[${head.join(' ')}${s.t.length > 3 ? ` …${s.t.length} points` : ''}]`;
}

function describe(o: Outcome): string {
  if (o.kind === 'error') return `error ${o.message}`;
  const first = o.series.slice(0, 3).map((s) => `${s.key} ${points(s)}`);
  return `${o.kind} with ${o.series.length} series: ${first.join('; ')}${o.series.length > 3 ? ' …' : ''}`;
}
