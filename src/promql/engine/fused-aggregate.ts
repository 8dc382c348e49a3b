import type { Labels } from '../../model/index.js';
import type { AggregateExpr, Call, Expr } from '../parser/ast.js';
import { FUNCTION_IMPLS, type RangeFunction } from '../functions/index.js';
import { kahanSumInc } from '../kahan.js';
import type { Matrix, Series } from '../value.js';
import { addToMean, groupLabels } from './aggregate.js';
import type { Evaluator } from './evaluator.js';
import { FunctionContextImpl } from './function-context.js';
import { dropMetricName, duplicateLabelsetError } from './labels.js';
import { evalRangeArgument, WindowSlider } from './range-argument.js';

/**
 * The fused `sum|avg|max|min|count by|without (…) (rate|increase|irate(x[w]))`: one pass over the
 * selected series that folds each window's value straight into its group's per-step accumulators
 * (Float64Arrays), instead of building the per-series rate matrix and aggregating it afterwards.
 *
 * The result is the general path's to the bit, and so are annotations, stats and limit errors:
 * the windows are cut and the values computed by the same code (`WindowSlider` and the function
 * itself), groups are found in the same order (the order series first produce a value), each
 * group's step folds its values in series order as `aggregateSimple` does, and the sample
 * accounting replays the general path's (the rate points are held, then released for the
 * aggregation's), so `maxSamples` fails at the same place with the same message.
 */

/** The aggregations this path folds. */
const FUSED_OPS = new Set(['sum', 'avg', 'max', 'min', 'count']);
/** The range functions it folds (counters; `delta` and the `*_over_time` family could follow). */
const FUSED_FUNCTIONS = new Set(['rate', 'increase', 'irate']);

/** A recognised fusable aggregation: the aggregation, its range-function call and the function. */
export interface FusedAggregatePlan {
  readonly agg: AggregateExpr;
  readonly call: Call;
  readonly fn: RangeFunction;
}

function stripParens(e: Expr): Expr {
  while (e.type === 'ParenExpr') e = e.expr;
  return e;
}

/**
 * The plan for `agg` when it has a fusable shape, else null. The range argument must be a plain
 * selector: subqueries, and the experimental `anchored`/`smoothed` windows, take the general path.
 */
export function fusedAggregatePlan(agg: AggregateExpr): FusedAggregatePlan | null {
  if (!FUSED_OPS.has(agg.op) || agg.param) return null;
  const call = stripParens(agg.expr);
  if (call.type !== 'Call' || !FUSED_FUNCTIONS.has(call.func.name) || call.args.length !== 1) return null;
  const ms = stripParens(call.args[0]);
  if (ms.type !== 'MatrixSelector' || ms.vectorSelector.anchored || ms.vectorSelector.smoothed) return null;
  const impl = FUNCTION_IMPLS.get(call.func.name);
  if (impl?.kind !== 'range' || !impl.dropsName) return null;
  return { agg, call, fn: impl.call };
}

/** One output group's accumulators, one slot per step (`aggregateSimple`'s, per step). */
interface GroupState {
  readonly metric: Labels;
  readonly count: Float64Array;
  readonly value: Float64Array;
  readonly comp: Float64Array;
  readonly mean: Float64Array | null;
  readonly incremental: Uint8Array | null;
}

function newGroup(metric: Labels, op: string, steps: number): GroupState {
  const avg = op === 'avg';
  return {
    metric,
    count: new Float64Array(steps),
    value: new Float64Array(op === 'count' ? 0 : steps),
    comp: new Float64Array(op === 'sum' || avg ? steps : 0),
    mean: avg ? new Float64Array(steps) : null,
    incremental: avg ? new Uint8Array(steps) : null,
  };
}

const acc = { sum: 0, c: 0 };

/** Folds value `f` into group `g` at step `i`, as one input sample of `aggregateSimple`. */
function fold(op: string, g: GroupState, i: number, f: number): void {
  if (g.count[i] === 0) {
    g.count[i] = 1;
    if (op === 'count') return;
    g.value[i] = f;
    if (g.mean !== null) g.mean[i] = f;
    return;
  }
  g.count[i]++;
  switch (op) {
    case 'sum':
      kahanSumInc(f, g.value[i], g.comp[i], acc);
      g.value[i] = acc.sum;
      g.comp[i] = acc.c;
      break;
    case 'avg':
      addToMean(i, f, g.value, g.comp, g.mean as Float64Array, g.count, g.incremental as Uint8Array, acc);
      break;
    case 'max':
      if (g.value[i] < f || Number.isNaN(g.value[i])) g.value[i] = f;
      break;
    case 'min':
      if (g.value[i] > f || Number.isNaN(g.value[i])) g.value[i] = f;
      break;
    default:
      break;
  }
}

/** The group's output value at step `i` (which has at least one input). */
function finish(op: string, g: GroupState, i: number): number {
  switch (op) {
    case 'sum':
      return g.value[i] + g.comp[i];
    case 'avg':
      return (g.incremental as Uint8Array)[i] ? (g.mean as Float64Array)[i] + g.comp[i] : (g.value[i] + g.comp[i]) / g.count[i];
    case 'count':
      return g.count[i];
    default:
      return g.value[i];
  }
}

/**
 * Fails as the general path's `assertNoDuplicateSeries` over the rate results would: two series
 * that produced a value and whose labels are equal once the name is dropped. Series of one
 * selector differ, so this can only happen when they differ in name-like labels; the keys are
 * built only then.
 */
class NameCollisions {
  private first: Labels | null = null;
  private mixed = false;
  private readonly metrics: Labels[] = [];

  add(metric: Labels): void {
    this.metrics.push(metric);
    if (this.first === null) this.first = metric;
    else if (!this.mixed && !sameNameLabels(this.first, metric)) this.mixed = true;
  }

  check(): void {
    if (!this.mixed) return;
    const seen = new Set<string>();
    for (const m of this.metrics) {
      const k = dropMetricName(m).key();
      if (seen.has(k)) throw duplicateLabelsetError();
      seen.add(k);
    }
  }
}

function sameNameLabels(a: Labels, b: Labels): boolean {
  return a.get('__name__') === b.get('__name__') && a.get('__type__') === b.get('__type__') && a.get('__unit__') === b.get('__unit__');
}

/** Evaluates a fusable aggregation (see `fusedAggregatePlan`) at every step. */
export async function evalFusedAggregate(ev: Evaluator, plan: FusedAggregatePlan): Promise<Matrix> {
  const { agg, call, fn } = plan;
  const op = agg.op;
  const delayed = ev.ctx.init.delayedNameRemoval;
  const arg = await evalRangeArgument(ev, call.args[0]);
  const fctx = new FunctionContextImpl(ev, call.args);
  const groups: GroupState[] = [];
  const byKey = new Map<string, GroupState>();
  const collisions = new NameCollisions();
  function groupOf(metric: Labels): GroupState {
    // The general path groups the rate series, whose name is gone unless its removal is delayed.
    const gl = groupLabels(delayed ? metric : dropMetricName(metric), agg);
    const k = gl.key();
    let g = byKey.get(k);
    if (g === undefined) {
      g = newGroup(gl, op, ev.steps);
      byKey.set(k, g);
      groups.push(g);
    }
    return g;
  }

  const slider = new WindowSlider(ev, arg, fctx, fn);
  let ratePoints = 0;
  await arg.forEachSeries(async (metric, t, f) => {
    const before = ratePoints;
    let g: GroupState | null = null;
    const win = { metric, t, f, lo: 0, hi: 0 };
    const emit = (i: number, v: number): void => {
      if (g === null) g = groupOf(metric);
      fold(op, g, i, v);
      ratePoints++;
    };
    for (let i = slider.slide(win, emit, 0, false); i < ev.steps; i = slider.slide(win, emit, i, true)) await ev.ctx.pause();
    if (ratePoints > before && !delayed) collisions.add(metric);
  });
  arg.release();

  // Replays the general path's accounting: the rate matrix is held, the aggregation's points are
  // produced on top of it, then the first is released and the second held.
  collisions.check();
  ev.ctx.addSamples(ratePoints, call.func.name);
  const out: Series[] = [];
  let aggPoints = 0;
  for (const g of groups) {
    const s: Series = { metric: g.metric, t: [], f: [], dropName: delayed && !agg.without };
    for (let i = 0; i < ev.steps; i++) {
      if (g.count[i] === 0) continue;
      ev.ctx.point();
      s.t.push(ev.stepTime(i));
      s.f.push(finish(op, g, i));
    }
    aggPoints += s.t.length;
    out.push(s);
  }
  ev.ctx.releaseSamples(ratePoints);
  ev.ctx.addSamples(aggPoints, 'aggregation');
  return out;
}
