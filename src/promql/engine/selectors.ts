import { isStaleNaN, readBatch, type Labels, type SeriesIterator } from '../../model/index.js';
import type { MatrixSelector, VectorSelector } from '../parser/ast.js';
import type { Matrix, Series } from '../value.js';
import { countPoints } from './points.js';
import type { Evaluator } from './evaluator.js';

/** The raw samples of one selected series over a time span, stale markers flagged. */
export interface LoadedSeries {
  readonly metric: Labels;
  readonly t: ArrayLike<number>;
  readonly f: ArrayLike<number>;
  /** `stale[i]` is 1 where sample i is a staleness marker; null when there is none. */
  readonly stale: ArrayLike<number> | null;
}

/**
 * Samples asked of the iterator per `nextBatch`; the query's deadline, cancellation and sample
 * budget are checked once per batch, with the batch's size as the work done.
 */
const BATCH_SAMPLES = 1024;

/**
 * A reusable buffer one series' samples are read into: the engine streams series through it
 * instead of holding every selected sample at once (Prometheus iterates series the same way).
 * The iterator writes straight into `t` and `f`; `stale` is only kept up to date while
 * `anyStale` is set (the series has a staleness marker and they are kept).
 */
class SeriesBuffer {
  t = new Float64Array(BATCH_SAMPLES);
  f = new Float64Array(BATCH_SAMPLES);
  stale = new Uint8Array(BATCH_SAMPLES);
  n = 0;
  anyStale = false;

  /** Makes room for `extra` more samples after the first `n`. */
  reserve(extra: number): void {
    if (this.n + extra <= this.t.length) return;
    const cap = Math.max(this.t.length * 2, this.n + extra);
    const t = new Float64Array(cap);
    t.set(this.t.subarray(0, this.n));
    const f = new Float64Array(cap);
    f.set(this.f.subarray(0, this.n));
    const st = new Uint8Array(cap);
    st.set(this.stale.subarray(0, this.n));
    this.t = t;
    this.f = f;
    this.stale = st;
  }

  /**
   * Accepts the `k` samples the iterator just wrote after the first `n`: finds the staleness
   * markers among them (a NaN test per value; only NaNs have their bits looked at) and flags
   * them, or drops them by moving later samples down. Returns how many were kept.
   */
  accept(k: number, keepStale: boolean): number {
    const { t, f } = this;
    const from = this.n;
    const end = from + k;
    if (this.anyStale) this.stale.fill(0, from, end);
    let w = from;
    for (let i = from; i < end; i++) {
      const v = f[i];
      if (v !== v && isStaleNaN(v)) {
        if (!keepStale) continue;
        if (!this.anyStale) {
          this.stale.fill(0, 0, end);
          this.anyStale = true;
        }
        this.stale[i] = 1;
      }
      if (w !== i) {
        t[w] = t[i];
        f[w] = v;
      }
      w++;
    }
    this.n = w;
    return w - from;
  }
}

/**
 * Selects the series of `vs` and calls `visit` for each, in label order, with its samples in
 * `(minT, maxT]` (stale markers flagged when `keepStale`, dropped otherwise). The arrays are
 * views of a buffer reused for the next series: copy what must outlive the call. The samples
 * count against the query's budget while `visit` runs.
 *
 * Samples are read in batches straight into the buffer (`readBatch`), never one `at()` per
 * sample; each batch counts its size as work for the deadline and the budget.
 */
export async function scanSeries(
  ev: Evaluator,
  vs: VectorSelector,
  minT: number,
  maxT: number,
  keepStale: boolean,
  visit: (s: LoadedSeries) => void | Promise<void>,
): Promise<void> {
  const { querier } = ev.ctx.init;
  const set = querier.select(vs.matchers, { startMs: minT + 1, endMs: maxT });
  const buf = new SeriesBuffer();
  let it: SeriesIterator | undefined;
  while (set.next()) {
    if (ev.ctx.check()) await ev.ctx.pause();
    const series = set.at();
    it = series.iterator(it);
    buf.n = 0;
    buf.anyStale = false;
    if (it.seek(minT + 1) && it.at().tMs <= maxT) {
      // The sample the seek landed on, then batches after it.
      const first = it.at();
      buf.reserve(BATCH_SAMPLES);
      buf.t[0] = first.tMs;
      buf.f[0] = first.value;
      let k = 1 + readBatch(it, maxT, buf.t, buf.f, 1, BATCH_SAMPLES - 1);
      for (;;) {
        ev.ctx.point(buf.accept(k, keepStale));
        // Reading chunks is work too: a series of millions of samples must not outlive the deadline.
        if (ev.ctx.check(k)) await ev.ctx.pause();
        // A short batch means the window or the series ended (see SeriesIterator.nextBatch).
        if (k < BATCH_SAMPLES) break;
        buf.reserve(BATCH_SAMPLES);
        k = readBatch(it, maxT, buf.t, buf.f, buf.n, BATCH_SAMPLES);
      }
    }
    const err = it.err();
    if (err) throw err;
    const n = buf.n;
    ev.ctx.totalQueryableSamples += n;
    ev.ctx.addSamples(n, 'series read');
    await visit({
      metric: series.labels,
      t: buf.t.subarray(0, n),
      f: buf.f.subarray(0, n),
      stale: buf.anyStale ? buf.stale.subarray(0, n) : null,
    });
    ev.ctx.releaseSamples(n);
  }
  const err = set.err();
  if (err) throw err;
}

/** Like `scanSeries`, but copies every series out (for small selections such as `info`'s). */
export async function loadSeries(ev: Evaluator, vs: VectorSelector, minT: number, maxT: number, keepStale: boolean): Promise<LoadedSeries[]> {
  const out: LoadedSeries[] = [];
  await scanSeries(ev, vs, minT, maxT, keepStale, (s) => {
    out.push({ metric: s.metric, t: Array.from(s.t), f: Array.from(s.f), stale: s.stale ? Array.from(s.stale) : null });
  });
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
export async function evalVectorSelector(ev: Evaluator, vs: VectorSelector): Promise<Matrix> {
  const lookback = ev.ctx.init.lookbackDeltaMs;
  const firstRef = refTime(vs, ev.startMs);
  const lastRef = refTime(vs, ev.endMs);
  const lo = Math.min(firstRef, lastRef) - lookback;
  const hi = Math.max(firstRef, lastRef) + (vs.smoothed ? lookback : 0);
  const out: Matrix = [];
  await scanSeries(ev, vs, lo, hi, true, async (s) => {
    const series: Series = { metric: s.metric, t: [], f: [], dropName: false };
    let j = -1; // index of the last sample at or before the reference time
    for (let i = 0; i < ev.steps; i++) {
      if (ev.ctx.check()) await ev.ctx.pause();
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
    if (series.t.length > 0) out.push(series);
  });
  ev.ctx.addSamples(countPoints(out), 'vector selector');
  return out;
}

/**
 * Evaluates a range vector selector on its own (an instant query such as `foo[5m]`): every sample
 * in `(ref - range, ref]` at the query's single evaluation time, metric names kept.
 */
export async function evalMatrixSelector(ev: Evaluator, ms: MatrixSelector): Promise<Matrix> {
  const vs = ms.vectorSelector;
  const ref = refTime(vs, ev.startMs);
  const out: Matrix = [];
  await scanSeries(ev, vs, ref - ms.rangeMs, ref, false, (s) => {
    if (s.t.length > 0) out.push({ metric: s.metric, t: Array.from(s.t), f: Array.from(s.f), dropName: false });
  });
  ev.ctx.addSamples(countPoints(out), 'range vector selector');
  return out;
}
