import { isStaleNaN, type Labels } from '../../model/index.js';
import type { Matrix, Value, Vector } from '../value.js';
import { isOrdered, type EvalCommand } from './script-types.js';
import type { SequenceValue } from './series-notation.js';

/** The relative tolerance for sample values (test.go's `defaultEpsilon`). */
export const DEFAULT_EPSILON = 1e-6;

/** The smallest normal float64 (Go's `minNormal` in util/almost). */
const MIN_NORMAL = 2.2250738585072014e-308;

/**
 * Prometheus' `almost.Equal`: the stale marker equals only itself; two NaNs are equal; otherwise
 * equal when identical, or when the difference relative to `min(|a|+|b|, MaxFloat64)` is below
 * `epsilon` — except that when either value is 0 (or both are tiny) the difference must be below
 * `epsilon × MIN_NORMAL`, which in practice means exactly equal.
 */
export function almostEqual(a: number, b: number, epsilon = DEFAULT_EPSILON): boolean {
  if (isStaleNaN(a) || isStaleNaN(b)) return isStaleNaN(a) && isStaleNaN(b);
  if (Number.isNaN(a) && Number.isNaN(b)) return true;
  if (a === b) return true;
  const absSum = Math.abs(a) + Math.abs(b);
  const diff = Math.abs(a - b);
  if (a === 0 || b === 0 || absSum < MIN_NORMAL) return diff < epsilon * MIN_NORMAL;
  return diff / Math.min(absSum, Number.MAX_VALUE) < epsilon;
}

/** Checks that a matrix is sorted by labels (`labels.Compare`); returns the problem or null. */
export function checkMatrixSorted(m: Matrix): string | null {
  for (let i = 0; i + 1 < m.length; i++) {
    if (m[i].metric.compare(m[i + 1].metric) > 0) {
      return `matrix results should always be sorted by labels, but matrix is not sorted: series at index ${i + 1} with labels ${m[i + 1].metric.toString()} sorts before series at index ${i} with labels ${m[i].metric.toString()}`;
    }
  }
  return null;
}

/** Formats an expected value for messages. */
export function formatExpected(v: SequenceValue | undefined): string {
  if (v === undefined) return '<none>';
  if (v.kind === 'float') return isStaleNaN(v.value) ? 'stale' : String(v.value);
  return v.kind === 'omitted' ? '_' : 'histogram';
}

function formatSeries(t: readonly number[], f: readonly number[]): string {
  const points = t.map((tMs, i) => `${f[i]} @[${tMs}]`);
  return `${t.length} float point${t.length === 1 ? '' : 's'} [${points.join(' ')}] and 0 histogram points []`;
}

const name = (l: Labels): string => l.toString();

/**
 * Compares a query result with an eval's expectations, as test.go's `compareResult`; returns
 * the first difference as a sentence, or null when they agree. Expected native histograms never
 * match (results hold floats only).
 */
export function compareResult(cmd: EvalCommand, value: Value): string | null {
  switch (value.type) {
    case 'matrix':
      return compareMatrix(cmd, value.v);
    case 'vector':
      return compareVector(cmd, value.v);
    case 'scalar': {
      if (cmd.expectedScalar === null) return `expected vector or matrix result, but got scalar ${value.v}`;
      const exp = cmd.expectedScalar;
      if (exp.kind === 'histogram') return `expected histogram but got scalar ${value.v}`;
      const want = exp.kind === 'float' ? exp.value : 0;
      return almostEqual(want, value.v) ? null : `expected scalar ${formatExpected(exp)} but got ${value.v}`;
    }
    case 'string':
      return cmd.expectedString === value.v ? null : `expected string "${cmd.expectedString}" but got "${value.v}"`;
  }
}

function compareVector(cmd: EvalCommand, vec: Vector): string | null {
  if (cmd.expectedScalar !== null) return `expected scalar result, but got vector of ${vec.length} samples`;
  const seen = new Set<string>();
  for (let pos = 0; pos < vec.length; pos++) {
    const s = vec[pos];
    const key = s.metric.key();
    const exp = cmd.expectedSeries.get(key);
    if (exp === undefined) return `unexpected metric ${name(s.metric)} in result, has value ${s.f}`;
    if (isOrdered(cmd) && exp.pos !== pos + 1) {
      return `expected metric ${name(s.metric)} with ${formatExpected(exp.values[0])} at position ${exp.pos} but was at ${pos + 1}`;
    }
    const exp0 = exp.values[0] as SequenceValue | undefined;
    if (exp0 === undefined) return `expected series ${name(exp.metric)} has no value`;
    if (exp0.kind === 'histogram') return `expected histogram for ${name(s.metric)} but got float value ${s.f}`;
    const want = exp0.kind === 'float' ? exp0.value : 0;
    if (!almostEqual(want, s.f)) return `expected ${formatExpected(exp0)} for ${name(s.metric)} but got ${s.f}`;
    seen.add(key);
  }
  for (const [key, exp] of cmd.expectedSeries) {
    if (!seen.has(key)) return `expected metric ${name(exp.metric)} with [${exp.values.map(formatExpected).join(' ')}] not found`;
  }
  return null;
}

function compareMatrix(cmd: EvalCommand, mat: Matrix): string | null {
  if (isOrdered(cmd)) return 'expected ordered result, but query returned a matrix';
  if (cmd.expectedScalar !== null) return `expected scalar result, but got matrix of ${mat.length} series`;
  const unsorted = checkMatrixSorted(mat);
  if (unsorted !== null) return unsorted;
  const seen = new Set<string>();
  for (const s of mat) {
    const key = s.metric.key();
    const exp = cmd.expectedSeries.get(key);
    if (exp === undefined) return `unexpected metric ${name(s.metric)} in result, has ${formatSeries(s.t, s.f)}`;
    seen.add(key);
    const floats: { tMs: number; value: number }[] = [];
    let histograms = 0;
    for (let i = 0; i < exp.values.length; i++) {
      const e = exp.values[i];
      const tMs = cmd.startMs + i * cmd.stepMs;
      if (tMs > cmd.endMs) {
        return `expected ${exp.values.length} points for ${name(exp.metric)}, but query time range cannot return this many points`;
      }
      if (e.kind === 'histogram') histograms++;
      else if (e.kind === 'float') floats.push({ tMs, value: e.value });
    }
    if (floats.length !== s.t.length || histograms !== 0) {
      return `expected ${floats.length} float points and ${histograms} histogram points for ${name(exp.metric)}, but got ${formatSeries(s.t, s.f)}`;
    }
    for (let i = 0; i < floats.length; i++) {
      if (floats[i].tMs !== s.t[i]) {
        return `expected float value at index ${i} for ${name(exp.metric)} to have timestamp ${floats[i].tMs}, but it had timestamp ${s.t[i]} (result has ${formatSeries(s.t, s.f)})`;
      }
      if (!almostEqual(s.f[i], floats[i].value)) {
        return `expected float value at index ${i} (t=${s.t[i]}) for ${name(exp.metric)} to be ${formatExpected({ kind: 'float', value: floats[i].value })}, but got ${s.f[i]} (result has ${formatSeries(s.t, s.f)})`;
      }
    }
  }
  for (const [key, exp] of cmd.expectedSeries) {
    if (!seen.has(key)) return `expected metric ${name(exp.metric)} not found`;
  }
  return null;
}
