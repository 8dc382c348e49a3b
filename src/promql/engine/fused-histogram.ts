import { parseGoFloat, type Labels } from '../../model/index.js';
import type { Call, Expr } from '../parser/ast.js';
import { badBucketLabelWarning, checkQuantile, groupQuantile, type Bucket } from '../functions/index.js';
import type { Matrix, Series } from '../value.js';
import type { Evaluator } from './evaluator.js';
import { fusedAggregatePlan } from './fused-aggregate.js';
import { countPoints } from './points.js';

/**
 * The fused `histogram_quantile(φ, sum by (le, …) (rate(x_bucket[w])))`. The inner sum takes the
 * fused aggregation (fused-aggregate.ts); this side replaces the general per-step gathering, which
 * builds a sample object per bucket and step and groups them by `metric.without("le")` again at
 * every step, with a grouping found once per bucket series. Each step then visits the bucket
 * series in the same order as the general path, so histograms, their order, the output order and
 * every annotation (invalid φ, malformed `le`, forced monotonicity) come out the same.
 */

/** The plan for a fusable `histogram_quantile` call (its argument is a fusable `sum by (le, …)`), or null. */
export function fusedHistogramPlan(call: Call): { readonly call: Call } | null {
  if (call.func.name !== 'histogram_quantile' || call.args.length !== 2) return null;
  let inner: Expr = call.args[1];
  while (inner.type === 'ParenExpr') inner = inner.expr;
  if (inner.type !== 'AggregateExpr' || inner.op !== 'sum' || inner.without || !inner.grouping.includes('le')) return null;
  return fusedAggregatePlan(inner) ? { call } : null;
}

/** A histogram of the input: its labels (without `le`) and its output series once it has one. */
interface Histogram {
  readonly metric: Labels;
  out: Series | null;
  /** The step whose buckets `buckets` holds (-1: none yet). */
  step: number;
  readonly buckets: Bucket[];
}

/** The first point at `ts` of a matrix, as `scalarArg` over `gatherStep` picks it; NaN when none. */
function scalarAt(m: Matrix, cursors: Int32Array, ts: number): number {
  let v = NaN;
  let found = false;
  for (let k = 0; k < m.length; k++) {
    const s = m[k];
    const c = cursors[k];
    if (c < s.t.length && s.t[c] === ts) {
      if (!found) v = s.f[c];
      found = true;
      cursors[k] = c + 1;
    }
  }
  return v;
}

/** Evaluates a call `fusedHistogramPlan` accepted, at every step. */
export async function evalFusedHistogramQuantile(ev: Evaluator, call: Call): Promise<Matrix> {
  const qArg = await ev.evalMatrix(call.args[0]);
  const input = await ev.evalMatrix(call.args[1]);
  const annotations = ev.ctx.init.annotations;
  // Per bucket series: its histogram, or -1 with the warning its malformed `le` gives.
  const histOf = new Int32Array(input.length);
  const upper = new Float64Array(input.length);
  const badLe: (string | null)[] = new Array<string | null>(input.length).fill(null);
  const hists: Histogram[] = [];
  const byKey = new Map<string, number>();
  for (let si = 0; si < input.length; si++) {
    const m = input[si].metric;
    const le = m.get('le');
    const ub = parseGoFloat(le);
    if (ub === undefined) {
      histOf[si] = -1;
      badLe[si] = badBucketLabelWarning(m.metricName, le);
      continue;
    }
    upper[si] = ub;
    const metric = m.without('le');
    let h = byKey.get(metric.key());
    if (h === undefined) {
      h = hists.length;
      byKey.set(metric.key(), h);
      hists.push({ metric, out: null, step: -1, buckets: [] });
    }
    histOf[si] = h;
  }

  const qCursors = new Int32Array(qArg.length);
  const cursors = new Int32Array(input.length);
  const touched: Histogram[] = [];
  const out: Matrix = [];
  const width = 1 + qArg.length + input.length;
  for (let i = 0; i < ev.steps; i++) {
    if (ev.ctx.check(width)) await ev.ctx.pause();
    const ts = ev.stepTime(i);
    const q = scalarAt(qArg, qCursors, ts);
    checkQuantile(q, annotations);
    touched.length = 0;
    for (let si = 0; si < input.length; si++) {
      const s = input[si];
      const c = cursors[si];
      if (c >= s.t.length || s.t[c] !== ts) continue;
      cursors[si] = c + 1;
      const hi = histOf[si];
      if (hi < 0) {
        annotations.warn(badLe[si] as string);
        continue;
      }
      const h = hists[hi];
      if (h.step !== i) {
        h.step = i;
        h.buckets.length = 0;
        touched.push(h);
      }
      // New objects: bucketQuantile may raise counts in place.
      h.buckets.push({ upperBound: upper[si], count: s.f[c] });
    }
    for (const h of touched) {
      const v = groupQuantile(q, h, annotations);
      ev.ctx.point();
      if (h.out === null) {
        h.out = { metric: h.metric, t: [], f: [], dropName: true };
        out.push(h.out);
      }
      h.out.t.push(ts);
      h.out.f.push(v);
    }
  }
  ev.ctx.releaseSamples(countPoints(qArg));
  ev.ctx.releaseSamples(countPoints(input));
  if (!ev.ctx.init.delayedNameRemoval) for (const s of out) ev.markDropName(s);
  ev.ctx.addSamples(countPoints(out), call.func.name);
  return out;
}
