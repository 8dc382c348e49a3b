import { describe, expect, it } from 'vitest';
import { ArraySeriesIterator, collectSamples } from './iterator.js';
import { STALE_NAN, isStaleNaN } from './sample.js';

describe('stale marker', () => {
  it('is recognised by its exact bits only', () => {
    expect(isStaleNaN(STALE_NAN)).toBe(true);
    expect(isStaleNaN(NaN)).toBe(false);
    expect(isStaleNaN(0)).toBe(false);
    expect(isStaleNaN(Float64Array.of(STALE_NAN)[0])).toBe(true);
  });
});

describe('ArraySeriesIterator', () => {
  it('iterates, seeks forward only, and stays exhausted', () => {
    const it = new ArraySeriesIterator(Float64Array.of(10, 20, 30), Float64Array.of(1, 2, STALE_NAN));
    expect(it.seek(15)).toBe(true);
    expect(it.at()).toEqual({ tMs: 20, value: 2 });
    expect(it.seek(5)).toBe(true);
    expect(it.at().tMs).toBe(20);
    expect(it.next()).toBe(true);
    expect(isStaleNaN(it.at().value)).toBe(true);
    expect(it.next()).toBe(false);
    expect(it.next()).toBe(false);
    expect(it.seek(0)).toBe(false);
    expect(collectSamples(new ArraySeriesIterator(Float64Array.of(1), Float64Array.of(2)))).toEqual([{ tMs: 1, value: 2 }]);
  });
});
