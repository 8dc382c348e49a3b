import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { withSharedData } from '../../model/testing/shared-data.js';
import { FUNCTION_IMPLS } from './index.js';

withSharedData('FUNCTION_IMPLS against the function table', 'conformance/promql-functions.tsv', (tsv) => {
  test('covers every function of promql-functions.tsv but info and holt_winters', () => {
    const rows = readFileSync(tsv, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split('\t'))
      .filter(([kind, name]) => kind === 'function' && name !== 'info' && name !== 'holt_winters');
    expect(rows.length).toBe(89);
    for (const [, name, argTypes] of rows) {
      const impl = FUNCTION_IMPLS.get(name);
      expect(impl, name).toBeDefined();
      expect(impl?.kind, name).toBe(argTypes.split(',').includes('matrix') ? 'range' : 'instant');
    }
    expect(FUNCTION_IMPLS.size).toBe(rows.length);
  });
});

describe('FUNCTION_IMPLS', () => {
  test('only last_over_time and first_over_time keep the metric name', () => {
    const keep = [...FUNCTION_IMPLS].filter(([, impl]) => impl.kind === 'range' && !impl.dropsName).map(([name]) => name);
    expect(keep.sort()).toEqual(['first_over_time', 'last_over_time']);
  });
});
