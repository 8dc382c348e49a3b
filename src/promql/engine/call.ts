import { Labels } from '../../model/index.js';
import type { Call, Expr, VectorSelector } from '../parser/ast.js';
import { QueryError } from '../errors.js';
import {
  FUNCTION_IMPLS,
  SORT_IN_RANGE_QUERY_WARNING,
  absentLabels,
  type InstantFunction,
  type RangeFunction,
} from '../functions/index.js';
import type { Matrix, Series, Vector } from '../value.js';
import type { EvalResult, Evaluator } from './evaluator.js';
import { FunctionContextImpl } from './function-context.js';
import { evalFusedHistogramQuantile, fusedHistogramPlan } from './fused-histogram.js';
import { evalInfo } from './info.js';
import { assertNoDuplicateSeries } from './labels.js';
import { advanceWindow, evalRangeArgument, rangeRef, WindowSlider } from './range-argument.js';
import { countPoints, gatherStep, SeriesCollector } from './points.js';
import { refTime, scanSeries } from './selectors.js';

const ANCHORED_OK = ['changes', 'delta', 'increase', 'rate', 'resets'];
const SMOOTHED_OK = ['delta', 'increase', 'rate'];

/** Evaluates a function call at every step. */
export async function evalCall(ev: Evaluator, call: Call): Promise<EvalResult> {
  const name = call.func.name;
  if (name === 'info') return { kind: 'matrix', m: await evalInfo(ev, call) };
  if (ev.ctx.init.fusedPaths && fusedHistogramPlan(call)) return { kind: 'matrix', m: await evalFusedHistogramQuantile(ev, call) };
  if (name === 'timestamp') {
    const vs = unwrap(call.args[0]);
    if (vs.type === 'VectorSelector') return { kind: 'matrix', m: await evalTimestampOfSelector(ev, vs) };
  }
  const matrixIndex = call.args.findIndex((a) => {
    const u = unwrap(a);
    return u.type === 'MatrixSelector' || u.type === 'SubqueryExpr';
  });
  const impl = FUNCTION_IMPLS.get(name);
  if (matrixIndex >= 0) {
    checkExtendedRange(call, matrixIndex);
    if (name === 'absent_over_time') return { kind: 'matrix', m: await evalAbsentOverTime(ev, call, matrixIndex) };
    if (impl?.kind !== 'range') throw new QueryError('internal', `function ${name} has no range implementation`);
    return { kind: 'matrix', m: await evalRangeFunction(ev, call, matrixIndex, impl.call, impl.dropsName) };
  }
  if (impl?.kind !== 'instant') throw new QueryError('internal', `function ${name} is not implemented`);
  if (name.startsWith('sort') && ev.steps > 1) ev.ctx.init.annotations.warn(SORT_IN_RANGE_QUERY_WARNING);
  return { kind: 'matrix', m: await evalInstantFunction(ev, call, impl.call) };
}

/** Strips parentheses and step-invariant wrappers. */
export function unwrap(e: Expr): Expr {
  while (e.type === 'ParenExpr' || e.type === 'StepInvariantExpr') e = e.expr;
  return e;
}

function checkExtendedRange(call: Call, matrixIndex: number): void {
  const arg = unwrap(call.args[matrixIndex]);
  if (arg.type !== 'MatrixSelector') return;
  const name = call.func.name;
  const vs = arg.vectorSelector;
  if (vs.smoothed && !SMOOTHED_OK.includes(name)) {
    throw new QueryError('execution', `smoothed modifier can only be used with: ${SMOOTHED_OK.join(', ')} - not with ${name}`);
  }
  if (vs.anchored && !ANCHORED_OK.includes(name)) {
    throw new QueryError('execution', `anchored modifier can only be used with: ${ANCHORED_OK.join(', ')} - not with ${name}`);
  }
}

/** Functions over instant vectors and scalars: gather each argument's vector per step and call. */
async function evalInstantFunction(ev: Evaluator, call: Call, fn: InstantFunction): Promise<Matrix> {
  const args: EvalResult[] = [];
  for (const a of call.args) args.push(await ev.eval(a));
  const fctx = new FunctionContextImpl(ev, call.args);
  const cursors = args.map((a) => (a.kind === 'matrix' ? new Int32Array(a.m.length) : new Int32Array(0)));
  const vectors: Vector[] = args.map(() => []);
  const out = new SeriesCollector();
  const scalarResult = call.func.returnType === 'scalar';
  const width = args.reduce((n, a) => n + (a.kind === 'matrix' ? a.m.length : 0), 1);
  for (let i = 0; i < ev.steps; i++) {
    if (ev.ctx.check(width)) await ev.ctx.pause();
    const ts = ev.stepTime(i);
    for (let j = 0; j < args.length; j++) {
      const a = args[j];
      vectors[j] = a.kind === 'matrix' ? gatherStep(a.m, cursors[j], ts) : [];
    }
    fctx.tMs = ts;
    const res = fn(vectors, fctx);
    for (let k = 0; k < res.length; k++) ev.ctx.point();
    if (scalarResult) {
      out.add(Labels.EMPTY, false, ts, res.length > 0 ? res[0].f : NaN);
      continue;
    }
    for (const s of res) out.add(s.metric, s.dropName, ts, s.f);
  }
  for (const a of args) if (a.kind === 'matrix') ev.ctx.releaseSamples(countPoints(a.m));
  const m = out.result();
  if (!ev.ctx.init.delayedNameRemoval) {
    for (const s of m) if (s.dropName) ev.markDropName(s);
  }
  ev.ctx.addSamples(countPoints(m), call.func.name);
  return m;
}

/** Range-vector functions: slide each series' window over the steps and call once per window. */
async function evalRangeFunction(ev: Evaluator, call: Call, matrixIndex: number, fn: RangeFunction, dropsName: boolean): Promise<Matrix> {
  const scalarArgs: (Matrix | null)[] = [];
  for (let i = 0; i < call.args.length; i++) {
    const a = call.args[i];
    scalarArgs.push(i === matrixIndex || a.type === 'StringLiteral' ? null : await ev.evalMatrix(a));
  }
  const arg = await evalRangeArgument(ev, call.args[matrixIndex]);
  const fctx = new FunctionContextImpl(ev, call.args);
  fctx.anchored = arg.anchored;
  fctx.smoothed = arg.smoothed;
  const slider = new WindowSlider(ev, arg, fctx, fn, scalarArgs);
  const out: Matrix = [];
  await arg.forEachSeries(async (metric, t, f, dropName) => {
    const series: Series = { metric, t: [], f: [], dropName };
    const win = { metric, t, f, lo: 0, hi: 0 };
    const emit = (i: number, v: number): void => {
      series.t.push(ev.stepTime(i));
      series.f.push(v);
    };
    for (let i = slider.slide(win, emit, 0, false); i < ev.steps; i = slider.slide(win, emit, i, true)) await ev.ctx.pause();
    if (series.t.length === 0) return;
    if (dropsName) ev.markDropName(series);
    out.push(series);
  });
  arg.release();
  if (!ev.ctx.init.delayedNameRemoval) assertNoDuplicateSeries(out);
  ev.ctx.addSamples(countPoints(out), call.func.name);
  return out;
}

/** `absent_over_time(v[r])`: 1 at every step where no series has a point in the window. */
async function evalAbsentOverTime(ev: Evaluator, call: Call, matrixIndex: number): Promise<Matrix> {
  const arg = await evalRangeArgument(ev, call.args[matrixIndex]);
  const present = new Uint8Array(ev.steps);
  await arg.forEachSeries(async (_metric, t) => {
    const win = { t, lo: 0, hi: 0 };
    for (let i = 0; i < ev.steps; i++) {
      if (ev.ctx.check()) await ev.ctx.pause();
      const ref = rangeRef(arg, ev.stepTime(i));
      advanceWindow(win, ref - arg.rangeMs, ref);
      if (win.hi > win.lo) present[i] = 1;
    }
  });
  arg.release();
  const metric = absentLabels(call.args[matrixIndex]);
  const series: Series = { metric, t: [], f: [], dropName: false };
  for (let i = 0; i < ev.steps; i++) {
    if (present[i]) continue;
    ev.ctx.point();
    series.t.push(ev.stepTime(i));
    series.f.push(1);
  }
  return series.t.length > 0 ? [series] : [];
}

/** `timestamp(selector)`: the timestamp of the sample each step selects, in seconds. */
async function evalTimestampOfSelector(ev: Evaluator, vs: VectorSelector): Promise<Matrix> {
  const lookback = ev.ctx.init.lookbackDeltaMs;
  const first = refTime(vs, ev.startMs);
  const last = refTime(vs, ev.endMs);
  const out: Matrix = [];
  await scanSeries(ev, vs, Math.min(first, last) - lookback, Math.max(first, last), true, async (s) => {
    const series: Series = { metric: s.metric, t: [], f: [], dropName: false };
    let j = -1;
    for (let i = 0; i < ev.steps; i++) {
      if (ev.ctx.check()) await ev.ctx.pause();
      const ts = ev.stepTime(i);
      const ref = refTime(vs, ts);
      if (j >= 0 && s.t[j] > ref) j = -1;
      while (j + 1 < s.t.length && s.t[j + 1] <= ref) j++;
      if (j < 0 || s.t[j] <= ref - lookback || s.stale?.[j]) continue;
      ev.ctx.point();
      series.t.push(ts);
      series.f.push(s.t[j] / 1000);
    }
    if (series.t.length === 0) return;
    ev.markDropName(series);
    out.push(series);
  });
  if (!ev.ctx.init.delayedNameRemoval) assertNoDuplicateSeries(out);
  ev.ctx.addSamples(countPoints(out), 'timestamp');
  return out;
}
