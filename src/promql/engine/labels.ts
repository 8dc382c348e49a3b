import type { Labels } from '../../model/index.js';
import { QueryError } from '../errors.js';
import type { Matrix } from '../value.js';

/** Labels that go away with the metric name when an operation changes what a value means. */
const NAME_LIKE = ['__name__', '__type__', '__unit__'];

/** The labels without `__name__` (and the `__type__`/`__unit__` metadata labels that travel with it). */
export function dropMetricName(l: Labels): Labels {
  if (!l.has('__name__') && !l.has('__type__') && !l.has('__unit__')) return l;
  return l.without(...NAME_LIKE);
}

/** Prometheus' error when two series of one result have the same labels. */
export function duplicateLabelsetError(): QueryError {
  return new QueryError('execution', 'vector cannot contain metrics with the same labelset');
}

/** Fails when two series of a matrix have equal label sets. */
export function assertNoDuplicateSeries(m: Matrix): void {
  if (m.length < 2) return;
  const seen = new Set<string>();
  for (const s of m) {
    const k = s.metric.key();
    if (seen.has(k)) throw duplicateLabelsetError();
    seen.add(k);
  }
}

/**
 * Applies delayed name removal to a finished result: drops the name of every series marked for
 * it, then merges series that became equal when their points do not overlap in time (Prometheus'
 * `cleanupMetricLabels` followed by the duplicate check). Fails when two series share a timestamp.
 */
export function finishNameRemoval(m: Matrix): Matrix {
  let any = false;
  for (const s of m) {
    if (s.dropName) {
      s.metric = dropMetricName(s.metric);
      s.dropName = false;
      any = true;
    }
  }
  return any ? mergeSameLabels(m) : m;
}

/**
 * Merges series whose label sets are equal, as long as their points do not share a timestamp
 * (then the result would hold two samples with the same labels at one time: an error).
 */
export function mergeSameLabels(m: Matrix): Matrix {
  if (m.length < 2) return m;
  const byKey = new Map<string, number>();
  const out: Matrix = [];
  for (const s of m) {
    const k = s.metric.key();
    const at = byKey.get(k);
    if (at === undefined) {
      byKey.set(k, out.length);
      out.push(s);
      continue;
    }
    out[at] = mergeDisjoint(out[at], s);
  }
  return out;
}

function mergeDisjoint(a: Matrix[number], b: Matrix[number]): Matrix[number] {
  const t: number[] = [];
  const f: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.t.length || j < b.t.length) {
    if (j >= b.t.length || (i < a.t.length && a.t[i] < b.t[j])) {
      t.push(a.t[i]);
      f.push(a.f[i++]);
    } else if (i >= a.t.length || b.t[j] < a.t[i]) {
      t.push(b.t[j]);
      f.push(b.f[j++]);
    } else {
      throw duplicateLabelsetError();
    }
  }
  return { metric: a.metric, t, f, dropName: false };
}

