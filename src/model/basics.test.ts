import { describe, expect, it } from 'vitest';
import { ArraySeriesIterator, collectSamples } from './iterator.js';
import { codesOf, errorStatus, isCodedError, specsByCode, type ErrorRegistry, type ErrorSpec } from './errors.js';
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

describe('error registries (errors.ts)', () => {
  const REGISTRY = {
    BAD: { code: 'ERR_TEST_BAD', meaning: 'bad', status: 400, errorType: 'bad_data' },
    CONFIG: { code: 'ERR_TEST_CONFIG', meaning: 'config', status: null, errorType: null },
  } as const satisfies ErrorRegistry;
  class TestError extends Error {
    constructor(readonly spec: ErrorSpec) {
      super(spec.meaning);
    }
  }

  it('derives the codes by key and the entries by code', () => {
    expect(codesOf(REGISTRY)).toEqual({ BAD: 'ERR_TEST_BAD', CONFIG: 'ERR_TEST_CONFIG' });
    expect(specsByCode(REGISTRY).get('ERR_TEST_CONFIG')).toBe(REGISTRY.CONFIG);
  });

  it.each<[string, unknown, number]>([
    ['a registered error with a status', new TestError(REGISTRY.BAD), 400],
    ['a registered error without one', new TestError(REGISTRY.CONFIG), 500],
    ['an unregistered error', new Error('x'), 500],
    ['something that is not an error', { spec: REGISTRY.BAD }, 500],
  ])('errorStatus of %s is %d', (_, e, want) => {
    expect(errorStatus(e)).toBe(want);
    expect(isCodedError(e)).toBe(e instanceof TestError);
  });
});
