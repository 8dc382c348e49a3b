import { Labels, METRIC_NAME_LABEL } from '../../model/index.js';
import type { Expr } from '../parser/ast.js';
import { QueryError } from '../errors.js';
import type { Sample } from '../value.js';

/** Strips parentheses and step-invariant wrappers, which never change what an argument is. */
export function unwrapArg(e: Expr): Expr {
  while (e.type === 'ParenExpr' || e.type === 'StepInvariantExpr') e = e.expr;
  return e;
}

/** The value of string argument `e` (`label_replace`'s regex, `sort_by_label`'s names, ...). */
export function stringArg(e: Expr | undefined): string {
  const u = e === undefined ? undefined : unwrapArg(e);
  if (u?.type !== 'StringLiteral') throw new QueryError('internal', 'expected a string literal argument');
  return u.value;
}

/**
 * The labels `absent` and `absent_over_time` give their output sample, as Prometheus'
 * `createLabelsForAbsentFunction`: the equality matchers of the argument's selector (vector or
 * range), except `__name__` and except names matched more than once or by another operator.
 * Any other argument yields the empty label set.
 */
export function absentLabels(arg: Expr): Labels {
  const u = unwrapArg(arg);
  const vs = u.type === 'VectorSelector' ? u : u.type === 'MatrixSelector' ? u.vectorSelector : undefined;
  if (vs === undefined) return Labels.EMPTY;
  // Mirrors the Go builder: a name seen once with `=` is set, anything else about it deletes it.
  const set = new Map<string, string>();
  const has = new Set<string>();
  for (const m of vs.matchers) {
    if (m.name === METRIC_NAME_LABEL) continue;
    if (m.type === '=' && !has.has(m.name)) {
      set.set(m.name, m.value);
      has.add(m.name);
    } else {
      set.delete(m.name);
    }
  }
  const flat: string[] = [];
  for (const [n, v] of set) flat.push(n, v);
  return Labels.fromPairs(flat);
}

/**
 * Reports whether `name` is a valid label name under Prometheus 3's UTF-8 rules: non-empty and
 * well-formed (no lone surrogate, which is how an invalid UTF-8 byte can reach us).
 */
export function isValidLabelName(name: string): boolean {
  if (name.length === 0) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = name.charCodeAt(i + 1);
      if (!(d >= 0xdc00 && d <= 0xdfff)) return false;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      return false;
    }
  }
  return true;
}

/** A new output sample at the evaluation time `tMs`. */
export function sample(metric: Labels, tMs: number, f: number, dropName: boolean): Sample {
  return { metric, t: tMs, f, dropName };
}

/** One sample with the empty label set: how functions return a scalar. */
export function scalarResult(tMs: number, f: number): Sample[] {
  return [{ metric: Labels.EMPTY, t: tMs, f, dropName: false }];
}

/** The scalar argument `i` (a one-sample vector), or NaN when it is missing. */
export function scalarArg(vectors: readonly (readonly Sample[])[], i: number): number {
  const v = vectors[i] as readonly Sample[] | undefined;
  return v !== undefined && v.length > 0 ? v[0].f : NaN;
}
