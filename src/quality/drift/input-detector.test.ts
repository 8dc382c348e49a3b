import { describe, expect, it } from 'vitest';
import type { Bins } from './distribution.js';
import { InputDriftDetector } from './input-detector.js';

const MIN = 60_000;
const bins = (...counts: number[]): Bins => ({ upper: [...counts.slice(1).map((_, i) => 100 * 2 ** i), Infinity], counts });
const base = bins(100, 400, 400, 100);
const shifted = bins(10, 90, 400, 500);

describe('InputDriftDetector', () => {
  it('stays calm on the same distribution', () => {
    const d = new InputDriftDetector();
    for (let m = 0; m < 100; m++) {
      const r = d.step(m * MIN, bins(50, 200, 200, 50), base);
      expect(r?.opened).toEqual([]);
      expect(r?.scores).toEqual({ psi: 0, ks: 0 });
    }
  });

  it('needs the minimum counts on both sides', () => {
    const d = new InputDriftDetector();
    expect(d.step(0, bins(1, 4, 4, 1), base)).toBeNull();
    expect(d.step(0, shifted, bins(1, 4, 4, 1))).toBeNull();
  });

  it('fires both tests after two ticks over, with the onset at the last calm tick, and keeps the baseline frozen while open', () => {
    const d = new InputDriftDetector();
    for (let m = 0; m < 5; m++) d.step(m * MIN, base, base);
    expect(d.step(5 * MIN, shifted, base)?.opened).toEqual([]);
    const r = d.step(6 * MIN, shifted, base);
    expect(r?.opened.map((o) => [o.test, o.onsetMs])).toEqual([
      ['psi', 4 * MIN],
      ['ks', 4 * MIN],
    ]);
    expect(r?.scores.psi).toBeGreaterThan(1);
    // The sliding baseline has filled with shifted inputs: against the frozen one the drift holds.
    for (let m = 7; m < 30; m++) expect(d.step(m * MIN, shifted, shifted)?.resolved).toEqual([]);
    expect(d.open).toBe(true);
    // Back to the old inputs: resolved after five calm ticks, and the baseline slides again.
    const resolved: number[] = [];
    for (let m = 30; m < 40; m++) if ((d.step(m * MIN, base, shifted)?.resolved.length ?? 0) > 0) resolved.push(m);
    expect(resolved).toEqual([34]);
    expect(d.open).toBe(false);
    // The sliding baseline still holds the drifted inputs: the return is no drift of its own.
    for (let m = 40; m < 34 + 75; m++) expect(d.step(m * MIN, base, shifted)?.opened).toEqual([]);
    // Past the hold, the baseline slides again.
    expect(d.step((34 + 75) * MIN, base, shifted)?.scores.psi).toBeGreaterThan(1);
  });

  it('does not fire KS on a difference under its effect floor, however many requests', () => {
    const d = new InputDriftDetector();
    const big = (k: number) => bins(1e6 * (1 - k), 4e6, 4e6, 1e6 * (1 + k));
    for (let m = 0; m < 10; m++) expect(d.step(m * MIN, big(0.1), big(0))?.opened).toEqual([]);
  });
});
