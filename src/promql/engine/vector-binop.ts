import { Labels } from '../../model/index.js';
import type { BinaryOp, VectorMatching } from '../parser/ast.js';
import { QueryError } from '../errors.js';
import type { Matrix, Series } from '../value.js';
import { elemBinop, isArithmetic, isSetOp } from './binary-ops.js';
import type { Evaluator } from './evaluator.js';
import { dropMetricName, mergeSameLabels } from './labels.js';
import { SeriesCollector } from './points.js';

/**
 * The labels two samples are matched on: only the `on(...)` labels, or every label except the
 * `ignoring(...)` ones and the metric name.
 */
export function matchLabels(metric: Labels, matching: VectorMatching): Labels {
  const names = matching.matchingLabels;
  const flat = metric.flat();
  const kept: string[] = [];
  for (let i = 0; i < flat.length; i += 2) {
    const n = flat[i];
    const listed = names.includes(n);
    if (matching.on ? listed : !listed && n !== '__name__') kept.push(n, flat[i + 1]);
  }
  return kept.length === flat.length ? metric : Labels.fromSortedPairsUnchecked(kept);
}

/** Indices of the series of `m` that have a point at `ts`, with the point's position. */
function stepIndices(m: Matrix, cursors: Int32Array, ts: number, idx: number[], pos: number[]): void {
  idx.length = 0;
  pos.length = 0;
  for (let k = 0; k < m.length; k++) {
    const c = cursors[k];
    const s = m[k];
    if (c < s.t.length && s.t[c] === ts) {
      idx.push(k);
      pos.push(c);
      cursors[k] = c + 1;
    }
  }
}

/** Evaluates `lhs op rhs` between two instant vectors at every step, as Prometheus' `VectorBinop`/`VectorAnd`/... */
export async function evalVectorBinop(
  ev: Evaluator,
  op: BinaryOp,
  lhs: Matrix,
  rhs: Matrix,
  matching: VectorMatching,
  returnBool: boolean,
): Promise<Matrix> {
  const sigL = lhs.map((s) => matchLabels(s.metric, matching).key());
  const sigR = rhs.map((s) => matchLabels(s.metric, matching).key());
  if (isSetOp(op)) return evalSetOp(ev, op, lhs, rhs, sigL, sigR);
  if (matching.card === 'many-to-many') throw new QueryError('internal', 'many-to-many only allowed for set operators');
  const swap = matching.card === 'one-to-many';
  const many = swap ? rhs : lhs;
  const one = swap ? lhs : rhs;
  const sigMany = swap ? sigR : sigL;
  const sigOne = swap ? sigL : sigR;
  // Prometheus applies fill_left/fill_right to the sides after the group_right swap.
  const fillOne = matching.fillValues.rhs;
  const fillMany = matching.fillValues.lhs;
  const dropsName = isArithmetic(op) || returnBool;
  const delayed = ev.ctx.init.delayedNameRemoval;

  const curMany = new Int32Array(many.length);
  const curOne = new Int32Array(one.length);
  const mIdx: number[] = [];
  const mPos: number[] = [];
  const oIdx: number[] = [];
  const oPos: number[] = [];
  const oneBySig = new Map<string, number>();
  const matchedSigs = new Map<string, Set<string> | null>();
  const metricCache = new Map<number, Labels>();
  const synthMany = new Map<number, Labels>();
  const synthOne = new Map<number, Labels>();
  const collector = new SeriesCollector();
  const r = { v: 0, keep: false };

  const emit = (ts: number, mi: number, oi: number, manyMetric: Labels, oneMetric: Labels, mv: number, ov: number, dn: boolean): void => {
    const sig = mi < 0 ? sigOne[oi] : sigMany[mi];
    if (matching.card === 'one-to-one') {
      // Checked before the comparison filters: a filtered match is still a match.
      if (matchedSigs.has(sig)) {
        throw new QueryError('execution', 'multiple matches for labels: many-to-one matching must be explicit (group_left/group_right)');
      }
      matchedSigs.set(sig, null);
    }
    const fl = swap ? ov : mv;
    const fr = swap ? mv : ov;
    elemBinop(op, fl, fr, r);
    let v = r.v;
    if (returnBool) v = r.keep ? 1 : 0;
    else if (!r.keep) return;
    const cacheKey = mi * (one.length + 1) + oi;
    let metric = metricCache.get(cacheKey);
    if (!metric) {
      metric = resultMetric(manyMetric, oneMetric, matching);
      if (dropsName && !delayed) metric = dropMetricName(metric);
      metricCache.set(cacheKey, metric);
    }
    if (matching.card !== 'one-to-one') {
      let inserted = matchedSigs.get(sig);
      if (!inserted) matchedSigs.set(sig, (inserted = new Set()));
      const mk = metric.key();
      if (inserted.has(mk)) throw new QueryError('execution', 'multiple matches for labels: grouping labels must ensure unique matches');
      inserted.add(mk);
    }
    ev.ctx.point();
    collector.add(metric, dn || (dropsName && delayed), ts, v);
  };

  for (let i = 0; i < ev.steps; i++) {
    if (ev.ctx.check(1 + many.length + one.length)) await ev.ctx.pause();
    const ts = ev.stepTime(i);
    stepIndices(many, curMany, ts, mIdx, mPos);
    stepIndices(one, curOne, ts, oIdx, oPos);
    if ((mIdx.length === 0 || oIdx.length === 0) && fillOne === null && fillMany === null) continue;
    oneBySig.clear();
    matchedSigs.clear();
    for (let k = 0; k < oIdx.length; k++) {
      const j = oIdx[k];
      const dup = oneBySig.get(sigOne[j]);
      if (dup !== undefined) throw duplicateOneSide(one[j].metric, one[dup].metric, matching, swap);
      oneBySig.set(sigOne[j], k);
    }
    const usedOne = fillMany !== null ? new Set<string>() : null;
    for (let k = 0; k < mIdx.length; k++) {
      const mi = mIdx[k];
      const ms = many[mi];
      const mv = ms.f[mPos[k]];
      const ok = oneBySig.get(sigMany[mi]);
      if (ok === undefined) {
        if (fillOne === null) continue;
        let synth = synthOne.get(mi);
        if (!synth) synthOne.set(mi, (synth = matchLabels(ms.metric, matching)));
        emit(ts, mi, one.length, ms.metric, synth, mv, fillOne, ms.dropName);
        continue;
      }
      usedOne?.add(sigMany[mi]);
      const oi = oIdx[ok];
      emit(ts, mi, oi, ms.metric, one[oi].metric, mv, one[oi].f[oPos[ok]], ms.dropName);
    }
    if (fillMany !== null && usedOne) {
      for (let k = 0; k < oIdx.length; k++) {
        const oi = oIdx[k];
        if (usedOne.has(sigOne[oi])) continue;
        let synth = synthMany.get(oi);
        if (!synth) synthMany.set(oi, (synth = matchLabels(one[oi].metric, matching)));
        emit(ts, -1 - oi, oi, synth, one[oi].metric, fillMany, one[oi].f[oPos[k]], false);
      }
    }
  }
  return collector.result();
}

function duplicateOneSide(a: Labels, b: Labels, matching: VectorMatching, swap: boolean): QueryError {
  const side = swap ? 'left' : 'right';
  return new QueryError(
    'execution',
    `found duplicate series for the match group ${matchLabels(a, matching).toString()} on the ${side} hand-side of the operation: [${a.toString()}, ${b.toString()}];many-to-many matching not allowed: matching labels must be unique on one side`,
  );
}

/** Prometheus' `resultMetric`: the many side's labels, cut to the matching labels for one-to-one, plus `group_x` labels from the one side. */
function resultMetric(many: Labels, one: Labels, matching: VectorMatching): Labels {
  let out = many;
  if (matching.card === 'one-to-one') {
    if (matching.on) {
      const flat = many.flat();
      const kept: string[] = [];
      for (let i = 0; i < flat.length; i += 2) if (matching.matchingLabels.includes(flat[i])) kept.push(flat[i], flat[i + 1]);
      out = Labels.fromSortedPairsUnchecked(kept);
    } else if (matching.matchingLabels.length > 0) {
      out = many.without(...matching.matchingLabels);
    }
  }
  for (const name of matching.include) out = out.with(name, one.get(name));
  return out;
}

/** `and`, `or`, `unless`: filter or merge whole samples by their match signature; labels stay as they are. */
async function evalSetOp(ev: Evaluator, op: BinaryOp, lhs: Matrix, rhs: Matrix, sigL: string[], sigR: string[]): Promise<Matrix> {
  const outL: Series[] = lhs.map((s) => ({ metric: s.metric, t: [], f: [], dropName: s.dropName }));
  const outR: Series[] = rhs.map((s) => ({ metric: s.metric, t: [], f: [], dropName: s.dropName }));
  const curL = new Int32Array(lhs.length);
  const curR = new Int32Array(rhs.length);
  const lIdx: number[] = [];
  const lPos: number[] = [];
  const rIdx: number[] = [];
  const rPos: number[] = [];
  const sigs = new Set<string>();
  for (let i = 0; i < ev.steps; i++) {
    if (ev.ctx.check(1 + lhs.length + rhs.length)) await ev.ctx.pause();
    const ts = ev.stepTime(i);
    stepIndices(lhs, curL, ts, lIdx, lPos);
    stepIndices(rhs, curR, ts, rIdx, rPos);
    sigs.clear();
    if (op === 'or') {
      for (let k = 0; k < lIdx.length; k++) {
        const li = lIdx[k];
        sigs.add(sigL[li]);
        ev.ctx.point();
        outL[li].t.push(ts);
        outL[li].f.push(lhs[li].f[lPos[k]]);
      }
      for (let k = 0; k < rIdx.length; k++) {
        const ri = rIdx[k];
        if (sigs.has(sigR[ri])) continue;
        ev.ctx.point();
        outR[ri].t.push(ts);
        outR[ri].f.push(rhs[ri].f[rPos[k]]);
      }
      continue;
    }
    for (const ri of rIdx) sigs.add(sigR[ri]);
    for (let k = 0; k < lIdx.length; k++) {
      const li = lIdx[k];
      if (sigs.has(sigL[li]) !== (op === 'and')) continue;
      ev.ctx.point();
      outL[li].t.push(ts);
      outL[li].f.push(lhs[li].f[lPos[k]]);
    }
  }
  const out = [...outL, ...outR].filter((s) => s.t.length > 0);
  return mergeSameLabels(out);
}
