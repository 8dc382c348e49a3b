import { describe, expect, it } from 'vitest';
import { alignBins, binnedMean, binsFromBuckets, ksCritical, ksStatistic, psi, type Bins } from './distribution.js';

const bins = (...counts: number[]): Bins => ({ upper: counts.map((_, i) => i + 1), counts });

describe('psi', () => {
  it.each([
    // Hand-computed: 0.25·ln 2 + (−0.25)·ln(0.5 / 0.75).
    { name: 'a quarter of the mass moved', recent: bins(50, 50), baseline: bins(25, 75), want: 0.274653 },
    { name: 'the same shares at other sizes', recent: bins(10, 30), baseline: bins(100, 300), want: 0 },
    // The empty bin gets 0.5 on both sides: p = (10, 0.5) / 10.5, q = (5, 5.5) / 10.5.
    { name: 'an empty bin is smoothed', recent: bins(10, 0), baseline: bins(5, 5), want: 1.471925 },
    { name: 'bins empty on both sides add nothing', recent: bins(50, 0, 50), baseline: bins(25, 0, 75), want: 0.274653 },
  ])('$name', ({ recent, baseline, want }) => {
    expect(psi(recent, baseline)).toBeCloseTo(want, 5);
  });

  it.each([
    { name: 'no recent counts', recent: bins(0, 0), baseline: bins(1, 1) },
    { name: 'no baseline counts', recent: bins(1, 1), baseline: bins(0, 0) },
  ])('is NaN with $name', ({ recent, baseline }) => {
    expect(psi(recent, baseline)).toBeNaN();
  });
});

describe('ksStatistic and ksCritical', () => {
  it.each([
    { recent: bins(50, 50), baseline: bins(25, 75), want: 0.25 },
    { recent: bins(1, 2, 3), baseline: bins(10, 20, 30), want: 0 },
    { recent: bins(0, 0, 10), baseline: bins(10, 0, 0), want: 1 },
  ])('D of $recent.counts against $baseline.counts is $want', ({ recent, baseline, want }) => {
    expect(ksStatistic(recent, baseline)).toBeCloseTo(want, 10);
  });

  it('is NaN on an empty side', () => {
    expect(ksStatistic(bins(0, 0), bins(1, 1))).toBeNaN();
  });

  it.each([
    // c(0.05) = √(−ln 0.025 / 2) = 1.358102; × √(200 / 10,000).
    { alpha: 0.05, n: 100, m: 100, want: 0.192064 },
    // c(0.01) = 1.627624; × √(1,100 / 100,000).
    { alpha: 0.01, n: 100, m: 1000, want: 0.170706 },
    { alpha: 0.01, n: 0, m: 1000, want: Number.NaN },
    { alpha: 0, n: 10, m: 10, want: Number.NaN },
  ])('critical value at α=$alpha, n=$n, m=$m', ({ alpha, n, m, want }) => {
    if (Number.isNaN(want)) expect(ksCritical(alpha, n, m)).toBeNaN();
    else expect(ksCritical(alpha, n, m)).toBeCloseTo(want, 5);
  });
});

describe('binsFromBuckets and alignBins', () => {
  it.each([
    { name: 'cumulative buckets are differenced in bound order', buckets: [[5, 7], [Infinity, 10], [1, 2]], want: { upper: [1, 5, Infinity], counts: [2, 5, 3] } },
    { name: 'a bucket under its predecessor (a reset) counts 0', buckets: [[1, 5], [5, 3], [Infinity, 10]], want: { upper: [1, 5, Infinity], counts: [5, 0, 5] } },
    { name: 'a NaN count counts 0', buckets: [[1, 2], [5, Number.NaN], [Infinity, 4]], want: { upper: [1, 5, Infinity], counts: [2, 0, 2] } },
  ])('$name', ({ buckets, want }) => {
    expect(binsFromBuckets(new Map(buckets as [number, number][]))).toEqual(want);
  });

  it('keeps the common bounds, merging the bins between them', () => {
    const a: Bins = { upper: [1, 2, 5, Infinity], counts: [1, 2, 3, 4] };
    const b: Bins = { upper: [1, 5, Infinity], counts: [1, 1, 1] };
    expect(alignBins(a, b)).toEqual([
      { upper: [1, 5, Infinity], counts: [1, 5, 4] },
      { upper: [1, 5, Infinity], counts: [1, 1, 1] },
    ]);
    expect(alignBins(a, { upper: [3, Infinity], counts: [1, 1] })).toBeNull();
  });

  it('takes the mean at the upper bounds, +Inf at the last finite one', () => {
    expect(binnedMean({ upper: [10, 100, Infinity], counts: [1, 2, 1] })).toBeCloseTo((10 + 200 + 100) / 4, 10);
    expect(binnedMean(bins(0, 0))).toBeNaN();
  });
});
