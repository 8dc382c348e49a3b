import { describe, expect, it } from 'vitest';
import { MAX_POINTS, pointCount, queryWindow, stepForRange } from './step.js';

describe('stepForRange', () => {
  it.each([
    ['5m', 300_000, 1000],
    ['15m', 900_000, 1000],
    ['1h', 3_600_000, 5000],
    ['3h', 10_800_000, 10_000],
    ['6h', 21_600_000, 20_000],
    ['12h', 43_200_000, 60_000],
    ['24h', 86_400_000, 120_000],
    ['7d', 604_800_000, 600_000],
    ['1y', 31_536_000_000, 43_200_000],
    ['5y', 157_680_000_000, 86_400_000 * 2],
  ])('%s → %i ms', (_name, rangeMs, want) => {
    expect(stepForRange(rangeMs)).toBe(want);
  });

  it('never returns more than maxPoints points, for any range', () => {
    for (let rangeMs = 1000; rangeMs < 40 * 86_400_000; rangeMs = Math.ceil(rangeMs * 1.37)) {
      const w = queryWindow(1_796_000_000_123, 1_796_000_000_123 + rangeMs);
      expect(pointCount(w)).toBeLessThanOrEqual(MAX_POINTS);
      expect(w.stepMs).toBeGreaterThanOrEqual(1000);
    }
  });

  it('honours the minimum step and a smaller point budget', () => {
    expect(stepForRange(300_000, { minStepMs: 15_000 })).toBe(15_000);
    expect(stepForRange(3_600_000, { maxPoints: 200 })).toBe(20_000);
  });

  it('aligns the window to the step', () => {
    const w = queryWindow(1_000_001_234, 1_003_601_234);
    expect(w.stepMs).toBe(5000);
    expect(w.startMs % 5000).toBe(0);
    expect(w.endMs % 5000).toBe(0);
    expect(w.startMs).toBeGreaterThanOrEqual(1_000_001_234);
    expect(w.endMs).toBeLessThanOrEqual(1_003_601_234);
    expect(queryWindow(1000, 1000)).toEqual({ startMs: 1000, endMs: 1000, stepMs: 1000 });
  });
});
