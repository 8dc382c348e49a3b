import { Labels } from '../../model/index.js';
import { QueryError } from '../errors.js';
import type { BinaryExpr, BinaryOp, Expr, VectorMatching } from '../parser/ast.js';
import type { Matrix, Series } from '../value.js';
import { elemBinop, isArithmetic, isComparison } from './binary-ops.js';
import { countPoints } from './points.js';
import type { Evaluator } from './evaluator.js';
import { mergeSameLabels } from './labels.js';
import { evalVectorBinop } from './vector-binop.js';

/** Evaluates a binary expression at every step. */
export async function evalBinary(ev: Evaluator, e: BinaryExpr): Promise<Matrix> {
  if (e.op === '</' || e.op === '>/') {
    throw new QueryError('execution', `the trim operator ${e.op} applies to native histograms, which this engine does not support yet`);
  }
  const lScalar = isScalarExpr(e.lhs);
  const rScalar = isScalarExpr(e.rhs);
  const lhs = await ev.evalMatrix(e.lhs);
  const rhs = await ev.evalMatrix(e.rhs);
  let out: Matrix;
  if (lScalar && rScalar) out = scalarScalar(ev, e.op, lhs, rhs);
  else if (rScalar) out = await vectorScalar(ev, e.op, lhs, rhs, false, e.returnBool);
  else if (lScalar) out = await vectorScalar(ev, e.op, rhs, lhs, true, e.returnBool);
  else out = await evalVectorBinop(ev, e.op, lhs, rhs, e.matching ?? DEFAULT_MATCHING, e.returnBool);
  ev.ctx.releaseSamples(countPoints(lhs) + countPoints(rhs));
  ev.ctx.addSamples(countPoints(out), 'binary expression');
  return out;
}

const DEFAULT_MATCHING: VectorMatching = {
  card: 'one-to-one',
  matchingLabels: [],
  on: false,
  include: [],
  fillValues: { lhs: null, rhs: null },
};

function scalarAt(ev: Evaluator, m: Matrix, ts: number): number {
  if (m.length === 0) return NaN;
  const s = m[0];
  const i = (ts - ev.startMs) / ev.intervalMs;
  if (ev.intervalMs === 0 || s.t[i] !== ts) {
    const j = s.t.indexOf(ts);
    return j < 0 ? NaN : s.f[j];
  }
  return s.f[i];
}

function scalarScalar(ev: Evaluator, op: BinaryOp, lhs: Matrix, rhs: Matrix): Matrix {
  const out: Series = { metric: Labels.EMPTY, t: [], f: [], dropName: false };
  const r = { v: 0, keep: false };
  for (let i = 0; i < ev.steps; i++) {
    const ts = ev.stepTime(i);
    const l = scalarAt(ev, lhs, ts);
    const rv = scalarAt(ev, rhs, ts);
    elemBinop(op, l, rv, r);
    ev.ctx.point();
    // Scalar comparisons require `bool` (the parser checks), so they give 0 or 1.
    out.t.push(ts);
    out.f.push(isComparison(op) ? (r.keep ? 1 : 0) : r.v);
  }
  return [out];
}

/**
 * A vector and a scalar: the operator applies to every sample. `swapped` means the scalar was on
 * the left. A comparison keeps the vector's value whichever side it is on.
 */
async function vectorScalar(ev: Evaluator, op: BinaryOp, vec: Matrix, scalar: Matrix, swapped: boolean, returnBool: boolean): Promise<Matrix> {
  const out: Matrix = [];
  const r = { v: 0, keep: false };
  const dropsName = isArithmetic(op) || returnBool;
  for (const s of vec) {
    if (ev.ctx.check(1 + s.t.length)) await ev.ctx.pause();
    const series: Series = { metric: s.metric, t: [], f: [], dropName: s.dropName };
    for (let k = 0; k < s.t.length; k++) {
      const ts = s.t[k];
      const sv = scalarAt(ev, scalar, ts);
      const l = swapped ? sv : s.f[k];
      const rv = swapped ? s.f[k] : sv;
      elemBinop(op, l, rv, r);
      let v = r.v;
      if (isComparison(op) && swapped) v = rv;
      if (returnBool) {
        v = r.keep ? 1 : 0;
      } else if (!r.keep) {
        continue;
      }
      ev.ctx.point();
      series.t.push(ts);
      series.f.push(v);
    }
    if (series.t.length === 0) continue;
    if (dropsName) ev.markDropName(series);
    out.push(series);
  }
  return ev.ctx.init.delayedNameRemoval || !dropsName ? out : mergeSameLabels(out);
}

/** Reports whether an expression's type is scalar (unwrapping parentheses and step invariance). */
export function isScalarExpr(e: Expr): boolean {
  switch (e.type) {
    case 'NumberLiteral':
      return true;
    case 'ParenExpr':
    case 'StepInvariantExpr':
    case 'UnaryExpr':
      return isScalarExpr(e.expr);
    case 'BinaryExpr':
      return isScalarExpr(e.lhs) && isScalarExpr(e.rhs);
    case 'Call':
      return e.func.returnType === 'scalar';
    default:
      return false;
  }
}
