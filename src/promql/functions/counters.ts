import type { RangeWindow } from '../value.js';
import { anchoredStart } from './extended-rate.js';
import type { FunctionContext, RangeFunction } from './types.js';

/**
 * `changes` and `resets` over float samples, as Prometheus' `funcChanges` and `funcResets`. With
 * an `anchored` range the comparison starts at the last point at or before the range start.
 */

function firstIndex(w: RangeWindow, ctx: FunctionContext): number {
  if (ctx.anchored) return anchoredStart(w, ctx);
  return w.hi > w.lo ? w.lo : -1;
}

/** `changes(v[r])`: how often the value changed (NaN to NaN is no change). */
export const changes: RangeFunction = (w, _scalars, ctx) => {
  const start = firstIndex(w, ctx);
  if (start < 0) return undefined;
  const f = w.f;
  let n = 0;
  for (let i = start + 1; i < w.hi; i++) {
    const prev = f[i - 1];
    const cur = f[i];
    if (cur !== prev && !(Number.isNaN(cur) && Number.isNaN(prev))) n++;
  }
  return n;
};

/** `resets(v[r])`: how often the value decreased (a counter reset). */
export const resets: RangeFunction = (w, _scalars, ctx) => {
  const start = firstIndex(w, ctx);
  if (start < 0) return undefined;
  const f = w.f;
  let n = 0;
  for (let i = start + 1; i < w.hi; i++) if (f[i] < f[i - 1]) n++;
  return n;
};
