import { Labels, formatGoFloatF } from '../../model/index.js';
import type { AggregateExpr } from '../parser/ast.js';
import { QueryError } from '../errors.js';
import { kahanSumInc } from '../kahan.js';
import type { Matrix, Series } from '../value.js';
import { KHeap } from './aggregate-k.js';
import { invalidQuantileWarning, quantileOf } from '../functions/index.js';
import { countPoints, SeriesCollector } from './points.js';
import type { Evaluator } from './evaluator.js';
import { dropMetricName } from './labels.js';

const LABEL_NAME_RE = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** Grouping of the input series: a group id per series and each group's output labels. */
interface Grouping {
  readonly groupOf: Int32Array;
  readonly metrics: Labels[];
}

/** The output labels of the group `metric` falls in under `e`'s `by`/`without` (the fused paths share it). */
export function groupLabels(metric: Labels, e: AggregateExpr): Labels {
  const flat = metric.flat();
  const kept: string[] = [];
  for (let i = 0; i < flat.length; i += 2) {
    const listed = e.grouping.includes(flat[i]);
    if (e.without ? !listed : listed) kept.push(flat[i], flat[i + 1]);
  }
  const l = kept.length === flat.length ? metric : Labels.fromSortedPairsUnchecked(kept);
  return e.without ? dropMetricName(l) : l;
}

function groupSeries(input: Matrix, e: AggregateExpr): Grouping {
  const byKey = new Map<string, number>();
  const metrics: Labels[] = [];
  const groupOf = new Int32Array(input.length);
  for (let i = 0; i < input.length; i++) {
    const g = groupLabels(input[i].metric, e);
    const k = g.key();
    let id = byKey.get(k);
    if (id === undefined) {
      id = metrics.length;
      byKey.set(k, id);
      metrics.push(g);
    }
    groupOf[i] = id;
  }
  return { groupOf, metrics };
}

/** Evaluates an aggregation at every step, as Prometheus' `rangeEvalAgg`. */
export async function evalAggregate(ev: Evaluator, e: AggregateExpr): Promise<Matrix> {
  let stringParam = '';
  let params: Matrix | null = null;
  if (e.op === 'count_values') {
    const p = e.param ? await ev.eval(e.param) : null;
    stringParam = p?.kind === 'string' ? p.v : '';
    if (!LABEL_NAME_RE.test(stringParam)) throw new QueryError('execution', `invalid label name ${JSON.stringify(stringParam)}`);
  } else if (e.param) {
    params = await ev.evalMatrix(e.param);
  }
  const input = await ev.evalMatrix(e.expr);
  const paramAt = (i: number, ts: number): number => {
    const s = params?.[0];
    if (!s) return NaN;
    return s.t[i] === ts ? s.f[i] : (s.f[s.t.indexOf(ts)] ?? NaN);
  };
  let out: Matrix;
  switch (e.op) {
    case 'topk':
    case 'bottomk':
    case 'limitk':
    case 'limit_ratio':
      out = await aggregateK(ev, e, input, paramAt);
      break;
    case 'count_values':
      out = await countValues(ev, e, input, stringParam);
      break;
    default:
      out = await aggregateSimple(ev, e, input, paramAt);
  }
  ev.ctx.releaseSamples(countPoints(input));
  ev.ctx.addSamples(countPoints(out), 'aggregation');
  return out;
}

async function aggregateSimple(ev: Evaluator, e: AggregateExpr, input: Matrix, paramAt: (i: number, ts: number) => number): Promise<Matrix> {
  const { groupOf, metrics } = groupSeries(input, e);
  const G = metrics.length;
  const value = new Float64Array(G);
  const comp = new Float64Array(G);
  const mean = new Float64Array(G);
  const count = new Float64Array(G);
  const incremental = new Uint8Array(G);
  const lists: number[][] = e.op === 'quantile' ? metrics.map(() => []) : [];
  const touched: number[] = [];
  const out: Series[] = metrics.map((metric) => ({ metric, t: [], f: [], dropName: false }));
  const cursors = new Int32Array(input.length);
  const acc = { sum: 0, c: 0 };
  if (e.op === 'quantile') {
    for (let i = 0; i < ev.steps; i++) {
      const q = paramAt(i, ev.stepTime(i));
      if (Number.isNaN(q) || q < 0 || q > 1) ev.ctx.init.annotations.warn(invalidQuantileWarning(q));
    }
  }
  for (let step = 0; step < ev.steps; step++) {
    if (ev.ctx.check(1 + input.length)) await ev.ctx.pause();
    const ts = ev.stepTime(step);
    touched.length = 0;
    for (let si = 0; si < input.length; si++) {
      const s = input[si];
      const c = cursors[si];
      if (c >= s.t.length || s.t[c] !== ts) continue;
      cursors[si] = c + 1;
      const f = s.f[c];
      const g = groupOf[si];
      // Delayed name removal: a group keeps `__name__` (by (__name__)) but drops it at the end if any input would.
      if (s.dropName && !e.without) out[g].dropName = true;
      if (count[g] === 0) {
        touched.push(g);
        count[g] = 1;
        comp[g] = 0;
        incremental[g] = 0;
        value[g] = e.op === 'stddev' || e.op === 'stdvar' ? (Number.isFinite(f) ? 0 : NaN) : e.op === 'group' ? 1 : f;
        mean[g] = f;
        if (e.op === 'quantile') lists[g].push(f);
        continue;
      }
      count[g]++;
      switch (e.op) {
        case 'sum':
          kahanSumInc(f, value[g], comp[g], acc);
          value[g] = acc.sum;
          comp[g] = acc.c;
          break;
        case 'avg':
          addToMean(g, f, value, comp, mean, count, incremental, acc);
          break;
        case 'max':
          if (value[g] < f || Number.isNaN(value[g])) value[g] = f;
          break;
        case 'min':
          if (value[g] > f || Number.isNaN(value[g])) value[g] = f;
          break;
        case 'stddev':
        case 'stdvar': {
          if (!Number.isFinite(f)) {
            value[g] = NaN;
            break;
          }
          const delta = f - mean[g];
          mean[g] += delta / count[g];
          value[g] += delta * (f - mean[g]);
          break;
        }
        case 'quantile':
          lists[g].push(f);
          break;
        default:
          break;
      }
    }
    const q = e.op === 'quantile' ? paramAt(step, ts) : 0;
    for (const g of touched) {
      let v: number;
      switch (e.op) {
        case 'sum':
          v = value[g] + comp[g];
          break;
        case 'avg':
          v = incremental[g] ? mean[g] + comp[g] : (value[g] + comp[g]) / count[g];
          break;
        case 'count':
          v = count[g];
          break;
        case 'stdvar':
          v = value[g] / count[g];
          break;
        case 'stddev':
          v = Math.sqrt(value[g] / count[g]);
          break;
        case 'quantile':
          v = quantileOf(q, lists[g], 0, lists[g].length);
          lists[g].length = 0;
          break;
        default:
          v = value[g];
      }
      ev.ctx.point();
      out[g].t.push(ts);
      out[g].f.push(v);
      count[g] = 0;
    }
  }
  return out.filter((s) => s.t.length > 0);
}

/**
 * Prometheus' `avg`: Kahan-summed direct mean, switching to an incremental mean when the sum would
 * overflow. Folds `f` into slot `g` (a group here, a step in fused-aggregate.ts), whose count
 * already includes it.
 */
export function addToMean(
  g: number,
  f: number,
  value: Float64Array,
  comp: Float64Array,
  mean: Float64Array,
  count: Float64Array,
  incremental: Uint8Array,
  acc: { sum: number; c: number },
): void {
  const n = count[g];
  if (!incremental[g]) {
    kahanSumInc(f, value[g], comp[g], acc);
    if (acc.sum !== Infinity && acc.sum !== -Infinity) {
      value[g] = acc.sum;
      comp[g] = acc.c;
      return;
    }
    incremental[g] = 1;
    mean[g] = value[g] / (n - 1);
    comp[g] = comp[g] / (n - 1);
  }
  const q = (n - 1) / n;
  kahanSumInc(f / n, q * mean[g], q * comp[g], acc);
  mean[g] = acc.sum;
  comp[g] = acc.c;
}

async function aggregateK(ev: Evaluator, e: AggregateExpr, input: Matrix, paramAt: (i: number, ts: number) => number): Promise<Matrix> {
  const { groupOf, metrics } = groupSeries(input, e);
  const heaps = metrics.map(() => new KHeap(e.op !== 'bottomk'));
  const picked: number[][] = metrics.map(() => []);
  const out = new SeriesCollector();
  const cursors = new Int32Array(input.length);
  const vals = new Float64Array(input.length);
  const present = new Uint8Array(input.length);
  for (let step = 0; step < ev.steps; step++) {
    if (ev.ctx.check(1 + input.length)) await ev.ctx.pause();
    const ts = ev.stepTime(step);
    const p = paramAt(step, ts);
    let k: number;
    let ratio = 0;
    if (e.op === 'limit_ratio') {
      if (Number.isNaN(p)) throw new QueryError('execution', 'Ratio value is NaN');
      ratio = Math.max(-1, Math.min(1, p));
      if (p < -1 || p > 1) ev.ctx.init.annotations.warn(`PromQL warning: ratio value should be between -1 and 1, got ${formatGoFloatF(p)}, capping to ${ratio}`);
      k = input.length;
    } else {
      if (Number.isNaN(p)) throw new QueryError('execution', 'Parameter value is NaN');
      if (p > Number.MAX_SAFE_INTEGER * 1024) throw new QueryError('execution', `Scalar value ${formatGoFloatF(p)} overflows int64`);
      k = Math.trunc(p);
    }
    if (k < 1) continue;
    for (let g = 0; g < heaps.length; g++) {
      heaps[g].clear();
      picked[g].length = 0;
    }
    for (let si = 0; si < input.length; si++) {
      const s = input[si];
      const c = cursors[si];
      present[si] = 0;
      if (c >= s.t.length || s.t[c] !== ts) continue;
      cursors[si] = c + 1;
      present[si] = 1;
      vals[si] = s.f[c];
      const g = groupOf[si];
      if (e.op === 'limitk') {
        if (picked[g].length < k) picked[g].push(si);
      } else if (e.op === 'limit_ratio') {
        if (ratioSelects(s.metric, ratio)) picked[g].push(si);
      } else {
        heaps[g].offer(si, s.f[c], k);
      }
    }
    for (let g = 0; g < heaps.length; g++) {
      const order = e.op === 'topk' || e.op === 'bottomk' ? heaps[g].sorted() : picked[g];
      for (let n = 0; n < order.length; n++) ev.ctx.point();
      for (const si of order) out.add(input[si].metric, input[si].dropName, ts, vals[si]);
    }
  }
  return out.result();
}

/**
 * `limit_ratio`'s deterministic choice: a series is in when its label hash, scaled to [0, 1),
 * is below the ratio (or, for a negative ratio, at or above 1 + ratio), so `limit_ratio(r, x)`
 * and `limit_ratio(-(1 - r), x)` split the series without overlap.
 */
function ratioSelects(metric: Labels, ratio: number): boolean {
  const offset = metric.hash() / 2 ** 32;
  return ratio >= 0 ? offset < ratio : offset >= 1 + ratio;
}

async function countValues(ev: Evaluator, e: AggregateExpr, input: Matrix, label: string): Promise<Matrix> {
  const out = new SeriesCollector();
  const cursors = new Int32Array(input.length);
  const base = input.map((s) => groupLabels(s.metric, e));
  const counts = new Map<string, { metric: Labels; n: number }>();
  for (let step = 0; step < ev.steps; step++) {
    if (ev.ctx.check(1 + input.length)) await ev.ctx.pause();
    const ts = ev.stepTime(step);
    counts.clear();
    for (let si = 0; si < input.length; si++) {
      const s = input[si];
      const c = cursors[si];
      if (c >= s.t.length || s.t[c] !== ts) continue;
      cursors[si] = c + 1;
      const metric = base[si].with(label, formatGoFloatF(s.f[c]));
      const k = metric.key();
      const entry = counts.get(k);
      if (entry) entry.n++;
      else counts.set(k, { metric, n: 1 });
    }
    for (const { metric, n } of counts.values()) {
      ev.ctx.point();
      out.add(metric, false, ts, n);
    }
  }
  return out.result();
}
