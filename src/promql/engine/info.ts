import { Matcher, type Labels } from '../../model/index.js';
import type { Call, Expr, VectorSelector } from '../parser/ast.js';
import { QueryError } from '../errors.js';
import type { Matrix } from '../value.js';
import { countPoints, gatherStep, SeriesCollector } from './points.js';
import type { Evaluator } from './evaluator.js';
import { loadSeries } from './selectors.js';

/** Labels that tie a series to its info series (Prometheus' fixed choice). */
const IDENTIFYING = ['instance', 'job'];

function unwrapSelector(e: Expr | undefined): VectorSelector | null {
  while (e && (e.type === 'ParenExpr' || e.type === 'StepInvariantExpr')) e = e.expr;
  return e?.type === 'VectorSelector' ? e : null;
}

/**
 * `info(v [, selector])` (experimental): adds to each series of `v` the data labels of the info
 * series (`target_info` unless the selector names others) that share its `instance`/`job`, as
 * of each step. With data-label matchers only the labels they name are added, and a series whose
 * info series are missing is dropped unless every data matcher accepts the empty string. Labels
 * the series already has win; two info metrics disagreeing on a label are an error.
 */
export async function evalInfo(ev: Evaluator, call: Call): Promise<Matrix> {
  const base = await ev.evalMatrix(call.args[0]);
  const sel = unwrapSelector(call.args[1]);
  const all = sel?.matchers ?? [];
  let nameMatchers = all.filter((m) => m.name === '__name__');
  const dataMatchers = all.filter((m) => m.name !== '__name__');
  // Without a positive name matcher, info metrics are `target_info` (no name matcher at all) or
  // any `*_info` metric the negative matchers leave.
  const hasPositive = nameMatchers.some((m) => m.type === '=' || m.type === '=~');
  if (nameMatchers.length === 0) nameMatchers = [new Matcher('=', '__name__', 'target_info')];
  else if (!hasPositive) nameMatchers = [...nameMatchers, new Matcher('=~', '__name__', '.+_info')];
  const infoSelector: VectorSelector = {
    type: 'VectorSelector',
    name: '',
    matchers: [...nameMatchers, ...dataMatchers],
    offsetMs: 0,
    offsetExpr: null,
    timestampMs: null,
    startOrEnd: null,
    anchored: false,
    smoothed: false,
    pos: call.pos,
  };
  const lookback = ev.ctx.init.lookbackDeltaMs;
  const info = await loadSeries(ev, infoSelector, ev.startMs - lookback, ev.endMs, true);
  const infoCursors = new Int32Array(info.length).fill(-1);
  const includeOnly = dataMatchers.length > 0 ? [...new Set(dataMatchers.map((m) => m.name))] : null;
  const emptyOk = dataMatchers.every((m) => m.matches(''));
  const isInfoMetric = (l: Labels): boolean => nameMatchers.every((m) => m.matches(l.get('__name__')));

  const out = new SeriesCollector();
  const baseCursors = new Int32Array(base.length);
  const infos: { metric: Labels; tMs: number }[] = [];
  for (let i = 0; i < ev.steps; i++) {
    if (ev.ctx.check(1 + base.length + info.length)) await ev.ctx.pause();
    const ts = ev.stepTime(i);
    infos.length = 0;
    for (let k = 0; k < info.length; k++) {
      const s = info[k];
      let j = infoCursors[k];
      while (j + 1 < s.t.length && s.t[j + 1] <= ts) j++;
      infoCursors[k] = j;
      if (j >= 0 && s.t[j] > ts - lookback && !s.stale?.[j]) infos.push({ metric: s.metric, tMs: s.t[j] });
    }
    for (const s of gatherStep(base, baseCursors, ts)) {
      if (isInfoMetric(s.metric) || !IDENTIFYING.some((n) => s.metric.has(n))) {
        out.add(s.metric, s.dropName, ts, s.f);
        continue;
      }
      // Per info metric name, the matching series with the latest sample.
      const latest = new Map<string, { metric: Labels; tMs: number }>();
      for (const inf of infos) {
        if (inf.metric.equals(s.metric)) continue;
        if (!IDENTIFYING.every((n) => !s.metric.has(n) || inf.metric.get(n) === s.metric.get(n))) continue;
        const name = inf.metric.get('__name__');
        const prev = latest.get(name);
        if (!prev || inf.tMs > prev.tMs) latest.set(name, inf);
      }
      const matched = latest.size > 0;
      const add = new Map<string, { value: string; from: string }>();
      for (const [from, inf] of latest) {
        inf.metric.forEach((n, v) => {
          if (n === '__name__' || IDENTIFYING.includes(n) || s.metric.has(n)) return;
          if (includeOnly && !includeOnly.includes(n)) return;
          const prev = add.get(n);
          if (prev && prev.value !== v) {
            throw new QueryError('execution', `conflicting label: ${n} has values "${prev.value}" (from ${prev.from}) and "${v}" (from ${from})`);
          }
          add.set(n, { value: v, from });
        });
      }
      if (!matched && !emptyOk) continue;
      let metric = s.metric;
      for (const [n, { value }] of add) metric = metric.with(n, value);
      ev.ctx.point();
      out.add(metric, s.dropName, ts, s.f);
    }
  }
  ev.ctx.releaseSamples(countPoints(base));
  const m = out.result();
  ev.ctx.addSamples(countPoints(m), 'info');
  return m;
}

