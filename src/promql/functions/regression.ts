import { formatGoFixed6 } from '../../model/index.js';
import type { RangeWindow } from '../value.js';
import { QueryError } from '../errors.js';
import { kahanSumInc } from '../kahan.js';
import type { RangeFunction } from './types.js';

/** `deriv`, `predict_linear` and `double_exponential_smoothing`, as Prometheus computes them. */

const sx = { sum: 0, c: 0 };
const sy = { sum: 0, c: 0 };
const sxy = { sum: 0, c: 0 };
const sx2 = { sum: 0, c: 0 };
// The result of the last regression: slope and the intercept at the given time.
const fit = { slope: 0, intercept: 0 };

/**
 * Least-squares linear regression over the window's points with x in seconds relative to
 * `interceptMs` (Kahan-compensated sums). Writes the slope and the value at `interceptMs` to
 * `fit`. A constant series has slope 0, or NaN when the constant is infinite.
 */
function linearRegression(w: RangeWindow, interceptMs: number): void {
  const t = w.t;
  const f = w.f;
  sx.sum = sx.c = sy.sum = sy.c = sxy.sum = sxy.c = sx2.sum = sx2.c = 0;
  let n = 0;
  const initY = f[w.lo];
  let constY = true;
  for (let i = w.lo; i < w.hi; i++) {
    const y = f[i];
    if (constY && i > w.lo && y !== initY) constY = false;
    n += 1;
    const x = (t[i] - interceptMs) / 1e3;
    kahanSumInc(x, sx.sum, sx.c, sx);
    kahanSumInc(y, sy.sum, sy.c, sy);
    kahanSumInc(x * y, sxy.sum, sxy.c, sxy);
    kahanSumInc(x * x, sx2.sum, sx2.c, sx2);
  }
  if (constY) {
    if (initY === Infinity || initY === -Infinity) {
      fit.slope = NaN;
      fit.intercept = NaN;
    } else {
      fit.slope = 0;
      fit.intercept = initY;
    }
    return;
  }
  const sumX = sx.sum + sx.c;
  const sumY = sy.sum + sy.c;
  const sumXY = sxy.sum + sxy.c;
  const sumX2 = sx2.sum + sx2.c;
  const covXY = sumXY - (sumX * sumY) / n;
  const varX = sumX2 - (sumX * sumX) / n;
  fit.slope = covXY / varX;
  fit.intercept = sumY / n - (fit.slope * sumX) / n;
}

/** `deriv(v[r])`: per-second slope of the regression line; needs two points. */
export const deriv: RangeFunction = (w) => {
  if (w.hi - w.lo < 2) return undefined;
  // Relative to the first point's time, to keep x small (Prometheus issue 2674).
  linearRegression(w, w.t[w.lo]);
  return fit.slope;
};

/** `predict_linear(v[r], t)`: the regression line's value `t` seconds after the evaluation time. */
export const predictLinear: RangeFunction = (w, scalars, ctx) => {
  if (w.hi - w.lo < 2) return undefined;
  linearRegression(w, ctx.tMs);
  return fit.slope * scalars[0] + fit.intercept;
};

/**
 * `double_exponential_smoothing(v[r], sf, tf)` (Holt's linear method, called `holt_winters` in
 * Prometheus 2): fails when sf or tf is outside (0, 1) (NaN passes, as in Go); needs two points.
 */
export const doubleExponentialSmoothing: RangeFunction = (w, scalars) => {
  if (w.hi <= w.lo) return undefined;
  const sf = scalars[0];
  const tf = scalars[1];
  if (sf <= 0 || sf >= 1) {
    throw new QueryError('execution', `invalid smoothing factor. Expected: 0 < sf < 1, got: ${formatGoFixed6(sf)}`);
  }
  if (tf <= 0 || tf >= 1) {
    throw new QueryError('execution', `invalid trend factor. Expected: 0 < tf < 1, got: ${formatGoFixed6(tf)}`);
  }
  const f = w.f;
  const lo = w.lo;
  if (w.hi - lo < 2) return undefined;
  let s0 = 0;
  let s1 = f[lo];
  let b = f[lo + 1] - f[lo];
  for (let i = lo + 1; i < w.hi; i++) {
    const x = sf * f[i];
    // The trend: the raw difference at the first step, smoothed afterwards.
    if (i - 1 > lo) b = tf * (s1 - s0) + (1 - tf) * b;
    const y = (1 - sf) * (s1 + b);
    s0 = s1;
    s1 = x + y;
  }
  return s1;
};
