import { describe, expect, it } from 'vitest';
import { ScoreDriftDetector, type ScoreDriftStep } from './score-detector.js';

const MIN = 60_000;

/** Feeds `xs` one a minute from t = 0 (null: no sample that minute); the steps by minute. */
function feed(d: ScoreDriftDetector, xs: readonly (number | null)[], fromMin = 0): Map<number, ScoreDriftStep | null> {
  const out = new Map<number, ScoreDriftStep | null>();
  xs.forEach((x, i) => {
    if (x !== null) out.set(fromMin + i, d.step((fromMin + i) * MIN, x));
  });
  return out;
}

const flat = (n: number, x: number): number[] => Array<number>(n).fill(x);

describe('ScoreDriftDetector', () => {
  it('learns for five minutes, then watches a constant stream for a day without a drift', () => {
    const d = new ScoreDriftDetector();
    const steps = [...feed(d, flat(1440, 0.93)).values()];
    expect(steps.every((s) => s !== null && s.score === 0 && s.opened === null && !s.resolved)).toBe(true);
    expect(d.open).toBe(false);
  });

  it('opens on a fall with the onset at the last minimum, stays open while low, resolves once back, then learns again', () => {
    const d = new ScoreDriftDetector();
    // Learns 0.9 over minutes 0–5; watches from 5; falls to 0.84 at minute 10 (0.035 a minute over delta).
    const steps = feed(d, [...flat(10, 0.9), ...flat(10, 0.84), ...flat(10, 0.9)]);
    const opened = [...steps.entries()].filter(([, s]) => s?.opened != null);
    expect(opened.map(([m]) => m)).toEqual([11]);
    expect(opened[0]?.[1]?.opened).toMatchObject({ onsetMs: 9 * MIN, direction: 'down', reference: expect.closeTo(0.9, 10), value: 0.84 });
    // 0.07 score-minutes over a threshold of 0.05 (minute 10's 0.035 was over half of it: the reference stayed).
    expect(steps.get(11)?.score).toBeCloseTo(0.07 / 0.05, 6);
    // Open: the distance from the frozen reference in resolve bands (0.06 / 0.02).
    expect(steps.get(15)?.score).toBeCloseTo(3, 6);
    // Back at 0.9 from minute 20: the fifth sample in the band (minute 24) resolves it.
    expect([...steps.entries()].filter(([, s]) => s?.resolved === true).map(([m]) => m)).toEqual([24]);
    expect(steps.get(25)?.score).toBe(0);
  });

  it('ignores NaN samples', () => {
    const d = new ScoreDriftDetector();
    const steps = feed(d, [...flat(8, 0.9), Number.NaN, Number.NaN, ...flat(5, 0.9)]);
    expect(steps.get(8)).toBeNull();
    expect(steps.get(12)?.score).toBe(0);
  });

  it('starts learning again after a gap longer than maxGapMs (the series went stale), closing an open drift', () => {
    const d = new ScoreDriftDetector();
    feed(d, [...flat(10, 0.9), ...flat(5, 0.8)]);
    expect(d.open).toBe(true);
    // 20 minutes without a sample, then a new level: no drift against the old reference.
    const after = feed(d, flat(30, 0.8), 35);
    expect(after.get(35)?.resolved).toBe(true);
    expect([...after.values()].some((s) => s?.opened != null)).toBe(false);
    expect(d.open).toBe(false);
  });

  it('lets a drift that lasts past maxOpenMs become the new normal', () => {
    const d = new ScoreDriftDetector({ ...new ScoreDriftDetector()['p'], maxOpenMs: 30 * MIN });
    const steps = feed(d, [...flat(10, 0.9), ...flat(120, 0.8)]);
    const resolvedAt = [...steps.entries()].filter(([, s]) => s?.resolved === true).map(([m]) => m);
    expect(resolvedAt).toEqual([10 + 30]);
    expect([...steps.values()].filter((s) => s?.opened != null)).toHaveLength(1);
  });

  it('follows a slow wander with its reference (three points an hour is no drift)', () => {
    const d = new ScoreDriftDetector();
    const xs = Array.from({ length: 600 }, (_, i) => 0.9 - (0.03 * i) / 60);
    expect([...feed(d, xs).values()].some((s) => s?.opened != null)).toBe(false);
  });
});
