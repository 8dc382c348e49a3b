import type { Labels } from '../../model/index.js';
import type { Expr } from '../parser/ast.js';
import type { Sample, Vector } from '../value.js';
import { sample, stringArg } from './args.js';
import type { InstantFunction } from './types.js';

/**
 * `sort`, `sort_desc`, `sort_by_label` and `sort_by_label_desc`. Outputs are copies of the input
 * samples (metric name and `dropName` unchanged) at the evaluation time.
 */

interface Indexed {
  readonly s: Sample;
  readonly i: number;
}

/**
 * Sorts by value, NaN last. Ties keep their input order and NaNs end up in reverse input order,
 * which is what Go's `sort.Sort` (insertion sort for up to 12 elements) produces for
 * `sort.Reverse(vectorBy(Reverse)ValueHeap)`; for longer vectors Go's order of ties is unspecified.
 */
function sortByValue(v: Vector, tMs: number, descending: boolean): Vector {
  const items: Indexed[] = v.map((s, i) => ({ s, i }));
  items.sort((a, b) => {
    const x = a.s.f;
    const y = b.s.f;
    const xn = Number.isNaN(x);
    const yn = Number.isNaN(y);
    if (xn || yn) return xn && yn ? b.i - a.i : xn ? 1 : -1;
    if (x !== y) return (x < y) !== descending ? -1 : 1;
    return a.i - b.i;
  });
  return items.map(({ s }) => sample(s.metric, tMs, s.f, s.dropName));
}

/** `sort(v)`: ascending by value, NaN last. */
export const sort: InstantFunction = (vectors, ctx) => sortByValue(vectors[0], ctx.tMs, false);

/** `sort_desc(v)`: descending by value, NaN last. */
export const sortDesc: InstantFunction = (vectors, ctx) => sortByValue(vectors[0], ctx.tMs, true);

const CHUNK = /\d+|\D+/g;
const MAX_INT64 = '9223372036854775807';

function chunkify(s: string): string[] {
  return s.match(CHUNK) ?? [];
}

/** Go's `strconv.Atoi` on a chunk: all ASCII digits and within int64. */
function atoiOk(chunk: string): boolean {
  if (!/^[0-9]+$/.test(chunk)) return false;
  const digits = chunk.replace(/^0+(?=.)/, '');
  return digits.length < MAX_INT64.length || (digits.length === MAX_INT64.length && digits <= MAX_INT64);
}

/** Compares two digit strings that both pass `atoiOk` as integers. */
function compareInts(a: string, b: string): number {
  const x = a.replace(/^0+(?=.)/, '');
  const y = b.replace(/^0+(?=.)/, '');
  if (x.length !== y.length) return x.length - y.length;
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * `natsort.Compare` (github.com/facette/natsort at the version Prometheus uses): whether `a`
 * sorts before `b`, comparing runs of digits as integers and other runs as strings. Where Go
 * would index past the chunks of an empty `b` and panic, a non-empty `a` sorts first.
 */
export function naturalLess(a: string, b: string): boolean {
  const ca = chunkify(a);
  const cb = chunkify(b);
  for (let i = 0; i < ca.length; i++) {
    if (i >= cb.length) return true; // Go: index out of range
    const x = ca[i];
    const y = cb[i];
    if (atoiOk(x) && atoiOk(y)) {
      const c = compareInts(x, y);
      if (c === 0) {
        if (i === ca.length - 1) return true;
        if (i === cb.length - 1) return false;
        continue;
      }
      return c < 0;
    }
    if (x === y) {
      if (i === ca.length - 1) return true;
      if (i === cb.length - 1) return false;
      continue;
    }
    return x < y;
  }
  return false;
}

function byLabels(v: Vector, names: readonly string[], tMs: number, descending: boolean): Vector {
  const dir = descending ? -1 : 1;
  const cmp = (a: Labels, b: Labels): number => {
    for (const n of names) {
      const x = a.get(n);
      const y = b.get(n);
      if (x === y) continue;
      return naturalLess(x, y) ? -dir : dir;
    }
    // All named labels equal: the full label sets decide, for a stable order.
    return dir * a.compare(b);
  };
  const sorted = [...v].sort((a, b) => cmp(a.metric, b.metric));
  return sorted.map((s) => sample(s.metric, tMs, s.f, s.dropName));
}

function labelNames(args: readonly Expr[]): string[] {
  const names: string[] = [];
  for (let i = 1; i < args.length; i++) names.push(stringArg(args[i]));
  return names;
}

/** `sort_by_label(v, label...)`: ascending natural order of the labels' values, then all labels. */
export const sortByLabel: InstantFunction = (vectors, ctx) => byLabels(vectors[0], labelNames(ctx.args), ctx.tMs, false);

/** `sort_by_label_desc(v, label...)`: the reverse of `sort_by_label`. */
export const sortByLabelDesc: InstantFunction = (vectors, ctx) => byLabels(vectors[0], labelNames(ctx.args), ctx.tMs, true);
