import { describe, expect, it } from 'vitest';
import { validSpan } from './steps.js';
import type { CacheEntry } from './store.js';

const entry: CacheEntry = { key: 'k', firstMs: 1000, lastMs: 10_000, stepMs: 1000, series: [], warnings: [], infos: [], mark: 0, bytes: 0 };
const nothing = { minTMs: Infinity, deletedBeforeMs: -Infinity, headCut: false };

describe('validSpan', () => {
  it.each([
    ['nothing changed', nothing, 0, 0, { firstMs: 1000, lastMs: 10_000 }],
    ['a sample after the last step', { ...nothing, minTMs: 10_001 }, -300, 0, { firstMs: 1000, lastMs: 10_000 }],
    ['a sample at a step: that step reads it', { ...nothing, minTMs: 7000 }, -300, 0, { firstMs: 1000, lastMs: 6000 }],
    ['a sample between steps', { ...nothing, minTMs: 6500 }, -300, 0, { firstMs: 1000, lastMs: 6000 }],
    ['offset 2 s: steps read 2 s back', { ...nothing, minTMs: 6500 }, -2300, -2000, { firstMs: 1000, lastMs: 8000 }],
    ['negative offset: steps read 2 s ahead', { ...nothing, minTMs: 6500 }, -300, 2000, { firstMs: 1000, lastMs: 4000 }],
    ['a sample before every step', { ...nothing, minTMs: 0 }, -300, 0, null],
    ['deleted below 3.2 s with 1 s windows', { ...nothing, deletedBeforeMs: 3200 }, -1000, 0, { firstMs: 5000, lastMs: 10_000 }],
    ['deleted and late', { ...nothing, deletedBeforeMs: 3200, minTMs: 8000 }, -1000, 0, { firstMs: 5000, lastMs: 7000 }],
    ['reads nothing: never invalid', { ...nothing, deletedBeforeMs: 1e9, minTMs: -1e9 }, Infinity, -Infinity, { firstMs: 1000, lastMs: 10_000 }],
  ])('%s', (_name, changes, minShiftMs, maxShiftMs, want) => {
    expect(validSpan(entry, changes, minShiftMs, maxShiftMs)).toEqual(want);
  });
});
