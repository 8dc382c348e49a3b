import type { Labels } from '../../model/index.js';
import type { Series } from '../value.js';
import type { CachedSeries, CacheEntry } from './store.js';
import type { ChangeFeedChanges } from './types.js';

/** A contiguous run of steps on one grid, both ends included. */
export interface StepSpan {
  readonly firstMs: number;
  readonly lastMs: number;
}

/**
 * The steps of `e` whose answers still hold after `changes`: step `s` reads samples in
 * `[s + minShiftMs, s + maxShiftMs]`, so it holds while every sample committed since lies after
 * `s + maxShiftMs` and no deletion reached `s + minShiftMs`. Both bounds cut one end of the span,
 * so what holds is contiguous; null when nothing does.
 */
export function validSpan(e: CacheEntry, changes: ChangeFeedChanges, minShiftMs: number, maxShiftMs: number): StepSpan | null {
  let first = e.firstMs;
  let last = e.lastMs;
  const step = e.stepMs;
  if (changes.deletedBeforeMs !== -Infinity) {
    const lowest = changes.deletedBeforeMs - minShiftMs; // s must be >= this
    if (lowest > first) first = e.firstMs + Math.ceil((lowest - e.firstMs) / step) * step;
  }
  if (changes.minTMs !== Infinity) {
    const above = changes.minTMs - maxShiftMs; // s must be < this
    if (above <= last) last = e.firstMs + (Math.ceil((above - e.firstMs) / step) - 1) * step;
  }
  return first <= last ? { firstMs: first, lastMs: last } : null;
}

/** The overlap of two spans on the same grid, or null. */
export function intersect(a: StepSpan, b: StepSpan): StepSpan | null {
  const firstMs = Math.max(a.firstMs, b.firstMs);
  const lastMs = Math.min(a.lastMs, b.lastMs);
  return firstMs <= lastMs ? { firstMs, lastMs } : null;
}

/** The index of the first element of sorted `t` that is >= `x`. */
function lowerBound(t: ArrayLike<number>, x: number): number {
  let lo = 0;
  let hi = t.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (t[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A piece of an answer: a series' points in time order, as columns (`lo`..`hi` of them). */
interface Piece {
  readonly t: ArrayLike<number>;
  readonly f: ArrayLike<number>;
  readonly lo: number;
  readonly hi: number;
}

/** Series of one answer, gathered piece by piece in time order and keyed by labels. */
export class SeriesAssembler {
  private readonly byKey = new Map<string, { metric: Labels; pieces: Piece[]; points: number }>();

  /** Adds the points of `s` within `span` (all of them when null). Pieces must come in time order. */
  add(metric: Labels, t: ArrayLike<number>, f: ArrayLike<number>, span: StepSpan | null): void {
    const lo = span === null ? 0 : lowerBound(t, span.firstMs);
    const hi = span === null ? t.length : lowerBound(t, span.lastMs + 1);
    if (hi <= lo) return;
    const k = metric.key();
    let g = this.byKey.get(k);
    if (g === undefined) this.byKey.set(k, (g = { metric, pieces: [], points: 0 }));
    g.pieces.push({ t, f, lo, hi });
    g.points += hi - lo;
  }

  /** Adds every series of an engine result (final labels: name removal is done). */
  addResult(m: readonly Series[], span: StepSpan | null): void {
    for (const s of m) this.add(s.metric, s.t, s.f, span);
  }

  /** Adds every series of a cached entry within `span`. */
  addEntry(e: CacheEntry, span: StepSpan): void {
    for (const s of e.series) this.add(s.metric, s.t, s.f, span);
  }

  /** Points gathered so far, over every series. */
  points(): number {
    let n = 0;
    for (const g of this.byKey.values()) n += g.points;
    return n;
  }

  /** The gathered series as an engine result, sorted by labels as the engine sorts range results. */
  toSeries(): Series[] {
    const out: Series[] = [];
    for (const g of this.byKey.values()) {
      const t = new Array<number>(g.points);
      const f = new Array<number>(g.points);
      let j = 0;
      for (const p of g.pieces) {
        for (let i = p.lo; i < p.hi; i++, j++) {
          t[j] = p.t[i];
          f[j] = p.f[i];
        }
      }
      out.push({ metric: g.metric, t, f, dropName: false });
    }
    return out.sort((a, b) => a.metric.compare(b.metric));
  }

  /** The gathered series as cache columns, sorted by labels. */
  toCached(): CachedSeries[] {
    return this.toSeries().map((s) => ({ metric: s.metric, t: Float64Array.from(s.t), f: Float64Array.from(s.f) }));
  }
}
