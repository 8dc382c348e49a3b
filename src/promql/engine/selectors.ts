import { isStaleNaN, type Labels, type SeriesIterator } from '../../model/index.js';
import type { MatrixSelector, VectorSelector } from '../parser/ast.js';
import type { Matrix, Series } from '../value.js';
import type { Evaluator } from './evaluator.js';

/** The raw samples of one selected series over a time span, stale markers flagged. */
export interface LoadedSeries {
  readonly metric: Labels;
  readonly t: number[];
  readonly f: number[];
  /** `stale[i]` is true where sample i is a staleness marker; null when there is none. */
  readonly stale: boolean[] | null;
}

/**
 * Selects the series of `vs` and reads their samples with timestamps in `(minT, maxT]`.
 * Stale markers are kept (flagged) when `keepStale`, dropped otherwise.
 */
export function loadSeries(ev: Evaluator, vs: VectorSelector, minT: number, maxT: number, keepStale: boolean): LoadedSeries[] {
  const { querier } = ev.ctx.init;
  const set = querier.select(vs.matchers, { startMs: minT + 1, endMs: maxT });
  const out: LoadedSeries[] = [];
  let it: SeriesIterator | undefined;
  while (set.next()) {
    ev.ctx.check();
    const series = set.at();
    it = series.iterator(it);
    const t: number[] = [];
    const f: number[] = [];
    let stale: boolean[] | null = null;
    if (it.seek(minT + 1)) {
      do {
        const s = it.at();
        if (s.tMs > maxT) break;
        if (isStaleNaN(s.value)) {
          if (!keepStale) continue;
          stale ??= new Array<boolean>(t.length).fill(false);
          stale.push(true);
        } else if (stale) {
          stale.push(false);
        }
        ev.ctx.point();
        t.push(s.tMs);
        f.push(s.value);
      } while (it.next());
    }
    const err = it.err();
    if (err) throw err;
    ev.ctx.totalQueryableSamples += t.length;
    out.push({ metric: series.labels, t, f, stale });
  }
  const err = set.err();
  if (err) throw err;
  return out;
}

/** The reference time a selector reads at for evaluation step time `ts`. */
export function refTime(vs: VectorSelector, ts: number): number {
  return (vs.timestampMs ?? ts) - vs.offsetMs;
}

/**
 * Evaluates an instant vector selector at every step: the latest sample in
 * `(ref - lookback, ref]`, unless that sample is a stale marker. With `smoothed`, the value is
 * interpolated linearly between the samples around `ref`.
 */
export function evalVectorSelector(ev: Evaluator, vs: VectorSelector): Matrix {
  const lookback = ev.ctx.init.lookbackDeltaMs;
  const firstRef = refTime(vs, ev.startMs);
  const lastRef = refTime(vs, ev.endMs);
  const lo = Math.min(firstRef, lastRef) - lookback;
  const hi = Math.max(firstRef, lastRef) + (vs.smoothed ? lookback : 0);
  const loaded = loadSeries(ev, vs, lo, hi, true);
  const out: Matrix = [];
  for (const s of loaded) {
    const series: Series = { metric: s.metric, t: [], f: [], dropName: false };
    let j = -1; // index of the last sample at or before the reference time
    for (let i = 0; i < ev.steps; i++) {
      ev.ctx.check();
      const ts = ev.stepTime(i);
      const ref = refTime(vs, ts);
      if (j >= 0 && s.t[j] > ref) j = -1; // only with a constant @ time and moving steps: restart
      while (j + 1 < s.t.length && s.t[j + 1] <= ref) j++;
      if (j < 0 || s.t[j] <= ref - lookback) continue;
      if (s.stale?.[j]) continue;
      let v = s.f[j];
      if (vs.smoothed && s.t[j] !== ref) {
        const k = j + 1;
        if (k < s.t.length && !s.stale?.[k] && s.t[k] - ref <= lookback) {
          v = s.f[j] + ((s.f[k] - s.f[j]) * (ref - s.t[j])) / (s.t[k] - s.t[j]);
        }
      }
      ev.ctx.point();
      series.t.push(ts);
      series.f.push(v);
    }
    if (series.t.length > 0) {
      ev.ctx.addSamples(series.t.length, 'vector selector');
      out.push(series);
    }
  }
  return out;
}

/**
 * Evaluates a range vector selector on its own (an instant query such as `foo[5m]`): every sample
 * in `(ref - range, ref]` at the query's single evaluation time, metric names kept.
 */
export function evalMatrixSelector(ev: Evaluator, ms: MatrixSelector): Matrix {
  const vs = ms.vectorSelector;
  const ref = refTime(vs, ev.startMs);
  const loaded = loadSeries(ev, vs, ref - ms.rangeMs, ref, false);
  const out: Matrix = [];
  for (const s of loaded) {
    if (s.t.length === 0) continue;
    ev.ctx.addSamples(s.t.length, 'range vector selector');
    out.push({ metric: s.metric, t: s.t, f: s.f, dropName: false });
  }
  return out;
}
