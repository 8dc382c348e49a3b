import type { Labels } from '../../model/index.js';
import type { Matrix, Series, Vector } from '../value.js';
import { duplicateLabelsetError } from './labels.js';

/** Total points of a matrix. */
export function countPoints(m: Matrix): number {
  let n = 0;
  for (const s of m) n += s.t.length;
  return n;
}

/**
 * Collects per-step output samples into series keyed by labels, in first-seen order. Two samples
 * with the same labels at one step are Prometheus' "same labelset" error.
 */
export class SeriesCollector {
  private readonly byKey = new Map<string, Series>();
  private readonly order: Series[] = [];

  add(metric: Labels, dropName: boolean, t: number, f: number): void {
    const k = metric.key();
    let s = this.byKey.get(k);
    if (!s) {
      s = { metric, t: [], f: [], dropName };
      this.byKey.set(k, s);
      this.order.push(s);
    } else if (s.t[s.t.length - 1] === t) {
      throw duplicateLabelsetError();
    }
    s.t.push(t);
    s.f.push(f);
    if (dropName) s.dropName = true;
  }

  result(): Matrix {
    return this.order;
  }
}

/** The samples of a matrix at step time `ts`; `cursors` remembers where each series was. */
export function gatherStep(m: Matrix, cursors: Int32Array, ts: number): Vector {
  const v: Vector = [];
  for (let k = 0; k < m.length; k++) {
    const s = m[k];
    const c = cursors[k];
    if (c < s.t.length && s.t[c] === ts) {
      v.push({ metric: s.metric, t: ts, f: s.f[c], dropName: s.dropName });
      cursors[k] = c + 1;
    }
  }
  return v;
}
