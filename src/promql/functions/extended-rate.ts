import type { RangeWindow } from '../value.js';
import type { FunctionContext } from './types.js';

/**
 * The experimental `anchored` and `smoothed` range modifiers, as Prometheus' `extendedRate`,
 * `pickOrInterpolateLeft/Right`, `correctForCounterResets` and `pickFirstSampleIndices`.
 *
 * An extended window reaches one lookback delta beyond the range: `anchored` to the left only
 * (points in `(rangeStart - lookback, rangeEnd]`), `smoothed` to both sides. The engine keeps
 * those points around `[lo, hi)` in the window's arrays; the helpers below find their bounds,
 * ignoring anything older or newer the shared arrays may hold.
 */

/**
 * The index of the anchor point of an extended window: the last point at or before the range
 * start if it lies within the lookback delta (`lo - 1`), else `lo`. Points older than the anchor
 * are never used.
 */
function anchorIndex(w: RangeWindow, ctx: FunctionContext): number {
  const lo = w.lo;
  return lo > 0 && w.t[lo - 1] > ctx.rangeStartMs - ctx.lookbackDeltaMs ? lo - 1 : lo;
}

/**
 * Where `changes`/`resets` over an anchored range start: the anchor point, else the first point
 * in the range. -1 when the range holds no point at all, in which case there is no result.
 */
export function anchoredStart(w: RangeWindow, ctx: FunctionContext): number {
  return w.hi <= w.lo ? -1 : anchorIndex(w, ctx);
}

/** Linear interpolation at `t`; a counter that dropped is taken to have restarted from zero. */
function interpolate(t1: number, y1: number, t2: number, y2: number, t: number, isCounter: boolean): number {
  if (isCounter && y2 < y1) y1 = 0;
  return y1 + ((y2 - y1) * (t - t1)) / (t2 - t1);
}

/**
 * `rate`, `increase` (`isCounter`) and `delta` over an anchored or smoothed range: the difference
 * between the values at the range boundaries (the last point at or before the start for
 * `anchored`; values interpolated at both boundaries for `smoothed`), corrected for counter
 * resets in between, and divided by the range for `rate`. No extrapolation.
 */
export function extendedRate(w: RangeWindow, ctx: FunctionContext, isCounter: boolean, isRate: boolean): number | undefined {
  const t = w.t;
  const f = w.f;
  const rs = ctx.rangeStartMs;
  const re = ctx.rangeEndMs;
  const smoothed = ctx.smoothed;
  const lo = w.lo;
  const hi = w.hi;
  const a = anchorIndex(w, ctx);
  // The last point of the extended window: for `smoothed` the first point after the range if
  // it lies within the lookback delta.
  const after = smoothed && hi < t.length && t[hi] <= re + ctx.lookbackDeltaMs;
  const lastAll = after ? hi : hi - 1;
  if (lastAll < a) return undefined;

  // Go searches all points but the last: first = max(0, Search(T > rangeStart) - 1) and, for
  // `smoothed`, last = Search(T >= rangeEnd). The points are split at lo (> rangeStart) and hi
  // (> rangeEnd), so both searches reduce to index arithmetic.
  let first = Math.max(a, Math.min(lo, lastAll) - 1);
  let last = lastAll;
  if (smoothed && hi > lo && t[hi - 1] === re) last = hi - 1;
  if (t[last] <= rs) return undefined;
  if (smoothed && t[first] > re) return undefined;

  const left = smoothed && t[first] < rs ? interpolate(t[first], f[first], t[first + 1], f[first + 1], rs, isCounter) : f[first];
  const right =
    smoothed && last > a && t[last] > re ? interpolate(t[last - 1], f[last - 1], t[last], f[last], re, isCounter) : f[last];
  let result = right - left;

  if (isCounter) {
    // Only points strictly inside the range need a reset check: the boundary values already
    // account for resets next to them.
    if (t[first] <= rs) first++;
    if (t[last] >= re) last--;
    let correction = 0;
    let prev = left;
    for (let i = first; i <= last; i++) {
      const v = f[i];
      if (v < prev) correction += prev;
      prev = v;
    }
    if (right < prev) correction += prev;
    result += correction;
  }
  if (isRate) result /= (re - rs) / 1000;
  return result;
}
