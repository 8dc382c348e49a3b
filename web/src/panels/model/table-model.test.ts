import { describe, expect, it } from 'vitest';
import type { InstantSample, RangeSeries } from '../../../../src/query/index.js';
import { annotationEvents } from './annotations.js';
import { azTraffic } from './az-traffic.js';
import { bucketsToHeatmap } from './heatmap.js';
import { outlierFlags, quantileSorted, tukeyFences, zScores } from './outliers.js';
import { alignRangeResults, formatLegend, seriesStats } from './series.js';
import { joinTable, naturalCompare, sortRows } from './table-join.js';
import type { BuiltQuery } from './panel-queries.js';

const s = (metric: Record<string, string>, v: string): InstantSample => ({ metric, value: [1000, v] });

describe('joinTable', () => {
  const results = [
    { refId: 'p50', samples: [s({ instance: 'i2', az: 'b' }, '0.2'), s({ instance: 'i1', az: 'a' }, '0.1'), s({ instance: 'i10', az: 'c' }, 'NaN')] },
    { refId: 'p99', samples: [s({ instance: 'i1' }, '1.5'), s({ instance: 'i2' }, '2.5'), s({ instance: 'i1' }, '9'), s({ instance: 'ghost' }, '7')] },
    { refId: 'kv', samples: [s({ instance: 'i10', engine: 'vllm' }, '0.4')] },
  ];

  it('makes one row per series of the first query, joined on instance', () => {
    const rows = joinTable(results);
    expect(rows.map((r) => r.labels.instance)).toEqual(['i2', 'i1', 'i10']);
    expect(rows[1].values).toEqual({ p50: 0.1, p99: 1.5, kv: undefined });
    expect(rows[2].values.kv).toBe(0.4);
    expect(Number.isNaN(rows[2].values.p50)).toBe(true);
    // `ghost` is in no row; the second i1 series is ignored.
    expect(rows.some((r) => r.labels.instance === 'ghost')).toBe(false);
  });

  it('joins on several labels', () => {
    const rows = joinTable(
      [
        { refId: 'a', samples: [s({ az: 'x', engine: 'vllm' }, '1'), s({ az: 'x', engine: 'sglang' }, '2')] },
        { refId: 'b', samples: [s({ az: 'x', engine: 'sglang', extra: '1' }, '20')] },
      ],
      ['az', 'engine'],
    );
    expect(rows.map((r) => r.values.b)).toEqual([undefined, 20]);
  });

  it('sorts by column with missing values last, and by label in natural order', () => {
    const rows = joinTable(results);
    expect(sortRows(rows, { refId: 'p99' }, 'desc').map((r) => r.key)).toEqual(['i2', 'i1', 'i10']);
    expect(sortRows(rows, { refId: 'p99' }, 'asc').map((r) => r.key)).toEqual(['i1', 'i2', 'i10']);
    expect(sortRows(rows, { label: 'instance' }, 'asc').map((r) => r.key)).toEqual(['i1', 'i2', 'i10']);
    expect(naturalCompare('i2', 'i10')).toBeLessThan(0);
  });

  it('returns nothing for no results', () => {
    expect(joinTable([])).toEqual([]);
  });
});

describe('outliers', () => {
  it('computes quartiles like NumPy', () => {
    expect(quantileSorted([1, 2, 3, 4], 0.25)).toBe(1.75);
    expect(tukeyFences([1, 2, 3, 4, 100])).toEqual({ low: -1, high: 7 });
  });

  it.each([
    ['one slow instance', [0.2, 0.21, 0.19, 0.2, 0.22, 1.9], [undefined, undefined, undefined, undefined, undefined, 'high']],
    ['one starved instance', [500, 510, 490, 505, 20, 495], [undefined, undefined, undefined, undefined, 'low', undefined]],
    ['all equal', [1, 1, 1, 1, 1], [undefined, undefined, undefined, undefined, undefined]],
    ['too few values', [1, 100, 1], [undefined, undefined, undefined]],
    ['missing values are skipped', [1, undefined, 1, 1.1, 0.9, 50], [undefined, undefined, undefined, undefined, undefined, 'high']],
  ] as const)('%s', (_name, values, want) => {
    expect(outlierFlags(values)).toEqual(want);
  });

  it('z-scores hide a lone outlier in a small fleet; fences do not', () => {
    const v = [1, 1, 1, 10];
    expect(outlierFlags(v, { method: 'zscore' })).toEqual([undefined, undefined, undefined, undefined]);
    expect(outlierFlags(v, { method: 'iqr' })[3]).toBe('high');
    const many = [...Array.from({ length: 20 }, (_, i) => 10 + (i % 3)), 30];
    expect(outlierFlags(many, { method: 'zscore' })[20]).toBe('high');
    expect(outlierFlags(many, { method: 'either' })[20]).toBe('high');
    expect(zScores([1, 1]).every(Number.isNaN)).toBe(true);
  });

  it('handles 1,000 values', () => {
    const v = Array.from({ length: 1000 }, (_, i) => 0.2 + ((i * 7919) % 100) / 1000);
    v[500] = 5;
    const flags = outlierFlags(v);
    expect(flags.filter((f) => f !== undefined)).toEqual(['high']);
    expect(flags[500]).toBe('high');
  });
});

const bq = (refId: string, legend = '', extra: Partial<BuiltQuery> = {}): BuiltQuery => ({
  refId,
  expr: 'x',
  legend,
  title: refId,
  unit: 'seconds',
  reference: false,
  instant: false,
  ...extra,
});

describe('series alignment', () => {
  const w = { startMs: 10_000, endMs: 30_000, stepMs: 5000 };
  it('puts samples on the step grid with gaps', () => {
    const series: RangeSeries[] = [
      { metric: { engine: 'vllm' }, values: [[10, '1'], [20, '2'], [30, 'NaN']] },
      { metric: { engine: 'sglang' }, values: [[15, '+Inf'], [25, '4']] },
    ];
    const a = alignRangeResults([{ query: bq('kv', '{{engine}}'), series }], w);
    expect(a.xs).toEqual([10, 15, 20, 25, 30]);
    expect(a.series.map((x) => x.label)).toEqual(['vllm', 'sglang']);
    expect(a.series[0].values).toEqual([1, null, 2, null, null]);
    expect(a.series[1].values).toEqual([null, null, null, 4, null]);
    expect(a.series[0].key).not.toBe(a.series[1].key);
  });

  it('formats legends', () => {
    expect(formatLegend('{{az}} / {{ engine }}', { az: 'a', engine: 'vllm' })).toBe('a / vllm');
    expect(formatLegend('', { __name__: 'up', job: 'x', a: 'b' })).toBe('up{a="b", job="x"}');
    expect(formatLegend('', {})).toBe('{}');
    expect(formatLegend('', { __name__: 'up' })).toBe('up');
  });

  it('computes legend statistics', () => {
    expect(seriesStats([1, null, 3])).toEqual({ last: 3, mean: 2, max: 3 });
    expect(Number.isNaN(seriesStats([null]).last)).toBe(true);
  });
});

describe('heatmap', () => {
  it('differences cumulative buckets per time step', () => {
    const w = { startMs: 0, endMs: 10_000, stepMs: 10_000 };
    const series: RangeSeries[] = [
      { metric: { le: '+Inf' }, values: [[0, '10'], [10, '4']] },
      { metric: { le: '100' }, values: [[0, '3'], [10, '4']] },
      { metric: { le: '1000' }, values: [[0, '9'], [10, '4']] },
    ];
    const h = bucketsToHeatmap(series, w);
    expect(h.uppers).toEqual([100, 1000, Number.POSITIVE_INFINITY]);
    expect([...h.counts]).toEqual([3, 6, 1, 4, 0, 0]);
    expect(h.max).toBe(6);
  });

  it('keeps engines with different bucket layouts apart before adding them up', () => {
    const w = { startMs: 0, endMs: 0, stepMs: 1000 };
    const series: RangeSeries[] = [
      { metric: { le: '10', engine: 'a' }, values: [[0, '5']] },
      { metric: { le: '+Inf', engine: 'a' }, values: [[0, '6']] },
      { metric: { le: '20', engine: 'b' }, values: [[0, '2']] },
      { metric: { le: '+Inf', engine: 'b' }, values: [[0, '2']] },
    ];
    const h = bucketsToHeatmap(series, w);
    expect(h.uppers).toEqual([10, 20, Number.POSITIVE_INFINITY]);
    // b's (0, 20] bucket covers the rows (0, 10] and (10, 20] half each.
    expect([...h.counts]).toEqual([6, 1, 1]);
  });

  it('spreads a wide bucket over the narrower rows it covers, by width', () => {
    const w = { startMs: 0, endMs: 0, stepMs: 1000 };
    const series: RangeSeries[] = [
      { metric: { le: '100', engine: 'vllm' }, values: [[0, '0']] },
      { metric: { le: '200', engine: 'vllm' }, values: [[0, '0']] },
      { metric: { le: '500', engine: 'vllm' }, values: [[0, '0']] },
      { metric: { le: '+Inf', engine: 'vllm' }, values: [[0, '0']] },
      { metric: { le: '100', engine: 'sglang' }, values: [[0, '0']] },
      { metric: { le: '500', engine: 'sglang' }, values: [[0, '8']] },
      { metric: { le: '+Inf', engine: 'sglang' }, values: [[0, '9']] },
    ];
    const h = bucketsToHeatmap(series, w);
    expect(h.uppers).toEqual([100, 200, 500, Number.POSITIVE_INFINITY]);
    expect([...h.counts]).toEqual([0, 2, 6, 1]);
  });
});

describe('annotations', () => {
  it('merges consecutive steps into one event', () => {
    const a = { id: 'cold', title: 'Cold starts', expr: 'x', text: '{{component}} cold start', color: '#000' };
    const ev = annotationEvents(
      a,
      [
        { metric: { component: 'm1' }, values: [[10, '1'], [15, '1'], [40, '1']] },
        { metric: { component: 'm2' }, values: [[20, '1']] },
      ],
      5000,
    );
    expect(ev.map((e) => [e.startMs, e.endMs, e.text])).toEqual([
      [10_000, 15_000, 'm1 cold start'],
      [20_000, 20_000, 'm2 cold start'],
      [40_000, 40_000, 'm1 cold start'],
    ]);
  });
});

describe('AZ traffic', () => {
  it('flags a silent AZ and a skewed share', () => {
    const rows = azTraffic(new Map([['a', 10], ['b', 10], ['d', 1]]), ['a', 'b', 'c', 'd']);
    expect(rows.map((r) => [r.az, r.flag])).toEqual([
      ['a', 'skewed'],
      ['b', 'skewed'],
      ['c', 'zero'],
      ['d', 'skewed'],
    ]);
    expect(rows[0].share).toBeCloseTo(10 / 21);
  });

  it('flags nothing for an even split or no traffic at all', () => {
    expect(azTraffic(new Map([['a', 5], ['b', 6], ['c', 5.5]]), []).every((r) => r.flag === undefined)).toBe(true);
    expect(azTraffic(new Map(), ['a', 'b']).every((r) => r.flag === undefined)).toBe(true);
    expect(azTraffic(new Map([['a', 3]]), ['a'])[0].flag).toBeUndefined();
  });
});
