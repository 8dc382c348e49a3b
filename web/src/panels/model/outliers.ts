/**
 * Statistical outliers in a column of per-instance values (the instance table marks them).
 *
 * The default is Tukey's fences: a value below Q1 − 1.5·IQR or above Q3 + 1.5·IQR (quartiles
 * by linear interpolation) is an outlier. Fences are robust: one extreme instance does not
 * move them, whereas it inflates the standard deviation and can hide itself from a z-score
 * (with n values |z| can never exceed (n − 1)/√n, so |z| > 2 needs n ≥ 6). The z-score rule
 * (|z| > 2, population standard deviation) is offered too, and `either` flags a value that
 * either rule flags. Fewer than 4 values never yield outliers. Values within a relative
 * 1e-9 of a fence are not outliers (float noise around identical values).
 */

/** Which way a value is out of line. */
export type OutlierFlag = 'high' | 'low';

/** Options of `outlierFlags`. */
export interface OutlierOptions {
  readonly method?: 'iqr' | 'zscore' | 'either';
  /** Tukey's k (default 1.5). */
  readonly k?: number;
  /** The |z| limit (default 2). */
  readonly z?: number;
  /** Minimum number of values (default 4). */
  readonly minCount?: number;
}

/** The q-quantile (0–1) of ascending `sorted`, interpolating linearly (type 7, as NumPy's default). */
export function quantileSorted(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/** Tukey's fences of the finite values. */
export function tukeyFences(values: readonly number[], k = 1.5): { low: number; high: number } {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  const q1 = quantileSorted(sorted, 0.25);
  const q3 = quantileSorted(sorted, 0.75);
  const iqr = q3 - q1;
  return { low: q1 - k * iqr, high: q3 + k * iqr };
}

/** Population z-scores of the finite values (NaN for missing ones and when the spread is 0). */
export function zScores(values: readonly (number | undefined)[]): number[] {
  const finite = values.filter((v): v is number => v !== undefined && Number.isFinite(v));
  const n = finite.length;
  const mean = finite.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(finite.reduce((a, b) => a + (b - mean) ** 2, 0) / n);
  return values.map((v) => (v === undefined || !Number.isFinite(v) || !(sd > 0) ? Number.NaN : (v - mean) / sd));
}

/** The outlier flag of each value (undefined: in line, or missing). */
export function outlierFlags(values: readonly (number | undefined)[], opts: OutlierOptions = {}): (OutlierFlag | undefined)[] {
  const method = opts.method ?? 'iqr';
  const finite = values.filter((v): v is number => v !== undefined && Number.isFinite(v));
  if (finite.length < (opts.minCount ?? 4)) return values.map(() => undefined);
  const scale = Math.max(...finite.map(Math.abs), 1e-300);
  const eps = scale * 1e-9;
  const fences = tukeyFences(finite, opts.k ?? 1.5);
  const zs = method === 'iqr' ? [] : zScores(values);
  const zLimit = opts.z ?? 2;
  return values.map((v, i) => {
    if (v === undefined || !Number.isFinite(v)) return undefined;
    const iqrFlag: OutlierFlag | undefined = v > fences.high + eps ? 'high' : v < fences.low - eps ? 'low' : undefined;
    const z = zs[i];
    const zFlag: OutlierFlag | undefined = method === 'iqr' || Number.isNaN(z) || Math.abs(z) <= zLimit ? undefined : z > 0 ? 'high' : 'low';
    if (method === 'iqr') return iqrFlag;
    if (method === 'zscore') return zFlag;
    return iqrFlag ?? zFlag;
  });
}
