import { describe, expect, it } from 'vitest';
import { PageHinkley, type PageHinkleyStep } from './page-hinkley.js';

const MIN = 60_000;
const params = { delta: 0.01, lambda: 0.1 };

/** Steps through `xs` (one per `everyMs` from `everyMs`) against `reference`; the steps. */
function run(xs: readonly number[], reference: number, everyMs = MIN): (PageHinkleyStep | null)[] {
  const ph = new PageHinkley(params, 0);
  return xs.map((x, i) => ph.step((i + 1) * everyMs, x, reference));
}

describe('PageHinkley', () => {
  it('never alarms on a constant stream at the reference (each sample lowers both sums by delta)', () => {
    const steps = run(Array<number>(1440).fill(0.9), 0.9);
    expect(steps.every((s) => s !== null && s.statistic === 0 && !s.alarm)).toBe(true);
  });

  it('alarms on a fall by hand: three samples at the reference, then 0.85 (0.04 a minute over delta)', () => {
    // Down sums: −0.01, −0.02, −0.03 (the minimum, at 3 min), then −0.03 + 0.04k: statistic 0.04, 0.08, 0.12.
    const steps = run([0.9, 0.9, 0.9, 0.85, 0.85, 0.85], 0.9);
    expect(steps.map((s) => s?.statistic)).toEqual([0, 0, 0, expect.closeTo(0.04, 10), expect.closeTo(0.08, 10), expect.closeTo(0.12, 10)]);
    expect(steps.map((s) => s?.alarm)).toEqual([false, false, false, false, false, true]);
    expect(steps[5]).toMatchObject({ direction: 'down', onsetMs: 3 * MIN });
  });

  it('alarms on a rise the same way', () => {
    const s = run([0.5, 0.5, 0.55, 0.55, 0.55], 0.5).at(-1);
    expect(s).toMatchObject({ direction: 'up', alarm: true, onsetMs: 2 * MIN });
  });

  it('weights samples by minutes: at 15 s ticks a fall alarms after about the same time as at 1 min', () => {
    const perQuarter = [...Array<number>(12).fill(0.9), ...Array<number>(20).fill(0.86)];
    const steps = run(perQuarter, 0.9, MIN / 4);
    const first = steps.findIndex((s) => s?.alarm === true);
    // 0.0075 per quarter minute: over 0.1 on the 14th quarter after the change (3.5 min; 4 at 1-min ticks).
    expect(first).toBe(12 + 13);
    expect(run([0.9, 0.9, 0.9, 0.86, 0.86, 0.86, 0.86], 0.9).findIndex((s) => s?.alarm === true)).toBe(6);
    expect(steps[first]?.onsetMs).toBe(3 * MIN);
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY])('ignores a %s sample', (x) => {
    const ph = new PageHinkley(params, 0);
    expect(ph.step(MIN, x, 0.9)).toBeNull();
    expect(ph.step(2 * MIN, 0.9, 0.9)?.statistic).toBe(0);
  });

  it('counts one sample after a long gap as at most five minutes', () => {
    const ph = new PageHinkley(params, 0);
    // 0.05 below: (0.05 − 0.01) × 5 = 0.2, not × 60.
    expect(ph.step(60 * MIN, 0.85, 0.9)?.statistic).toBeCloseTo(0.2, 10);
  });
});
