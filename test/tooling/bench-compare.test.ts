import { describe, expect, test } from 'vitest';
// @ts-expect-error -- a plain .mjs script without type declarations
import { betterWhen, compareRuns, formatComparison, lastJsonLine, numericKeys } from '../../scripts/bench-compare.mjs';

interface Row {
  bench: string;
  key: string;
  base: number;
  head: number;
  ratio: number | null;
  better: 'higher' | 'lower' | null;
}
const compare = compareRuns as (runs: Record<string, { base: object[]; head: object[] }>) => Row[];

describe('bench --compare', () => {
  test.each([
    ['progress\n{"bench":"x","aMs":1}\n', { bench: 'x', aMs: 1 }],
    ['{"bench":"x","aMs":1}\n{not json\n', { bench: 'x', aMs: 1 }],
    ['no json at all\n', null],
  ])('lastJsonLine(%j)', (stdout, want) => {
    expect(lastJsonLine(stdout)).toEqual(want);
  });

  test('numericKeys flattens nested objects and keeps only finite numbers', () => {
    expect(numericKeys({ bench: 'x', a: 1, nested: { p99Ms: 2, name: 'n', deep: { bytesPerSample: 1.5 } }, inf: Infinity, list: [1] })).toEqual({ a: 1, 'nested.p99Ms': 2, 'nested.deep.bytesPerSample': 1.5 });
  });

  test.each([
    ['samplesPerSec', 'higher'],
    ['chunksPerCpuSec', 'higher'],
    ['q.p99Ms', 'lower'],
    ['bytesPerSample', 'lower'],
    ['rssBytes', 'lower'],
    ['series', null],
  ])('%s: %s is better', (key, want) => {
    expect(betterWhen(key)).toBe(want);
  });

  test('medians per side, the ratio head/base, and a mark past 5 %', () => {
    const rows = compare({
      'bench/x.bench.ts': {
        base: [{ samplesPerSec: 100, p99Ms: 10 }, { samplesPerSec: 300, p99Ms: 10 }, { samplesPerSec: 200, p99Ms: 10 }],
        head: [{ samplesPerSec: 400, p99Ms: 10.2 }, { samplesPerSec: 400, p99Ms: 10.2 }, { samplesPerSec: 400, p99Ms: 10.2, onlyHead: 1 }],
      },
    });
    expect(rows.map((r) => [r.key, r.base, r.head, r.ratio])).toEqual([
      ['p99Ms', 10, 10.2, 1.02],
      ['samplesPerSec', 200, 400, 2],
    ]);
    const table = (formatComparison as (rows: Row[], base: string) => string)(rows, 'abc1234567').split('\n');
    expect(table[0]).toMatch(/^bench +key +abc1234567 +working tree +ratio$/);
    expect(table[1]).toMatch(/p99Ms +10 +10\.20 +1\.020x$/);
    expect(table[2]).toMatch(/samplesPerSec +200 +400 +2\.000x +better$/);
  });
});
