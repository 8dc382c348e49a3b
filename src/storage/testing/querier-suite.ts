import { describe, expect, it } from 'vitest';
import { Labels, STALE_NAN, isStaleNaN, matcher, type Matcher, type Sample } from '../../model/index.js';
import type { Queryable } from '../querier.js';
import { collectSeries } from '../series-set.js';

/** One series of the fixed data set loaded into the storage under test. */
export interface SuiteSeries {
  labels: Labels;
  samples: Sample[];
}

/** A storage under test, loaded with the suite's data set. */
export interface QueryableUnderTest {
  queryable: Queryable;
  close(): Promise<void>;
}

const STEP_MS = 15_000;

/** The data set every querier implementation is checked against. */
export function querierSuiteData(): SuiteSeries[] {
  const mk = (rec: Record<string, string>, n: number, start = 0, f = (i: number) => i): SuiteSeries => ({
    labels: Labels.from(rec),
    samples: Array.from({ length: n }, (_, i) => ({ tMs: start + i * STEP_MS, value: f(i) })),
  });
  return [
    mk({ __name__: 'vllm:num_requests_running', instance: 'a:8000', az: 'us-east-1a', engine: 'vllm' }, 200),
    mk({ __name__: 'vllm:num_requests_running', instance: 'b:8000', az: 'us-east-1b', engine: 'vllm' }, 200, 0, (i) => i * 2),
    mk({ __name__: 'sglang:num_running_reqs', instance: 'c:30000', az: 'us-east-1c', engine: 'sglang' }, 200),
    mk({ __name__: 'DCGM_FI_DEV_GPU_UTIL', instance: 'a:9400', gpu: '0', az: 'us-east-1a' }, 200),
    mk({ __name__: 'DCGM_FI_DEV_GPU_UTIL', instance: 'a:9400', gpu: '1', az: 'us-east-1a' }, 200),
    mk({ __name__: 'late_series', instance: 'd', 'weird name ✓': 'ü\nnewline' }, 10, 100 * STEP_MS),
    { labels: Labels.from({ __name__: 'stale_series', instance: 'e' }), samples: [{ tMs: 0, value: 1 }, { tMs: STEP_MS, value: STALE_NAN }] },
  ];
}

/**
 * The conformance suite of the `Querier` contract (see src/storage/querier.ts). `load` must
 * return a storage that holds exactly `querierSuiteData()`.
 */
export function runQuerierSuite(name: string, load: (data: SuiteSeries[]) => Promise<QueryableUnderTest>): void {
  describe(`Querier contract: ${name}`, () => {
    const data = querierSuiteData();
    const END = 200 * STEP_MS;

    async function select(ms: Matcher[], minT = 0, maxT = END): Promise<{ labels: Labels; samples: Sample[] }[]> {
      const s = await load(data);
      try {
        const q = s.queryable.querier(minT, maxT);
        try {
          return collectSeries(q.select(ms));
        } finally {
          q.close();
        }
      } finally {
        await s.close();
      }
    }
    const ids = (rows: { labels: Labels }[]) => rows.map((r) => r.labels.toString());
    const expected = (pred: (l: Labels) => boolean) =>
      data.filter((d) => pred(d.labels)).map((d) => d.labels).sort((a, b) => a.compare(b)).map((l) => l.toString());

    it.each([
      ['=', [matcher('=', '__name__', 'vllm:num_requests_running')], (l: Labels) => l.metricName === 'vllm:num_requests_running'],
      ['!=', [matcher('=', 'az', 'us-east-1a'), matcher('!=', 'gpu', '0')], (l: Labels) => l.get('az') === 'us-east-1a' && l.get('gpu') !== '0'],
      ['=~ alternation', [matcher('=~', 'engine', 'vllm|sglang')], (l: Labels) => ['vllm', 'sglang'].includes(l.get('engine'))],
      ['=~ is anchored', [matcher('=~', 'engine', 'vll')], () => false],
      ['=~ prefix', [matcher('=~', 'instance', 'a:.*')], (l: Labels) => l.get('instance').startsWith('a:')],
      ['=~ class', [matcher('=~', '__name__', '[a-z]+:num_.*'), matcher('=~', 'az', '.*1[ab]')], (l: Labels) => l.metricName.includes(':num_') && /1[ab]$/.test(l.get('az'))],
      ['!~', [matcher('=~', '__name__', '.+'), matcher('!~', 'az', 'us-east-1(a|b)')], (l: Labels) => !/^us-east-1(a|b)$/.test(l.get('az'))],
      ['="" selects series without the label', [matcher('=~', '__name__', '.+'), matcher('=', 'gpu', '')], (l: Labels) => !l.has('gpu')],
      ['=~".*" keeps series without the label', [matcher('=', 'engine', 'vllm'), matcher('=~', 'nonexistent', '.*')], (l: Labels) => l.get('engine') === 'vllm'],
      ['=~".+" requires the label', [matcher('=~', 'gpu', '.+')], (l: Labels) => l.has('gpu')],
      ['matcher on an unknown label value', [matcher('=', 'instance', 'zzz')], () => false],
      ['empty matcher list selects everything', [], () => true],
      ['UTF-8 names and values with newlines', [matcher('=~', 'weird name ✓', 'ü.newline')], (l: Labels) => l.has('weird name ✓')],
    ])('select %s', async (_name, ms, pred) => {
      expect(ids(await select(ms))).toEqual(expected(pred));
    });

    it('returns series sorted by labels with samples in time order', async () => {
      const got = await select([matcher('=~', '__name__', '.+')]);
      const sorted = [...got].sort((a, b) => a.labels.compare(b.labels));
      expect(ids(got)).toEqual(ids(sorted));
      for (const g of got) for (let i = 1; i < g.samples.length; i++) expect(g.samples[i].tMs).toBeGreaterThan(g.samples[i - 1].tMs);
    });

    it('clips samples to the querier range, both ends inclusive', async () => {
      const got = await select([matcher('=', 'instance', 'b:8000')], 10 * STEP_MS, 20 * STEP_MS);
      expect(got[0].samples.map((s) => s.tMs)).toEqual(Array.from({ length: 11 }, (_, i) => (10 + i) * STEP_MS));
      expect(got[0].samples[0].value).toBe(20);
    });

    it('omits series without samples in the range', async () => {
      expect(ids(await select([matcher('=', '__name__', 'late_series')], 0, 50 * STEP_MS))).toEqual([]);
      expect(ids(await select([matcher('=', '__name__', 'late_series')], 105 * STEP_MS, 106 * STEP_MS))).toHaveLength(1);
    });

    it('keeps the stale marker bit-exact', async () => {
      const [s] = await select([matcher('=', '__name__', 'stale_series')]);
      expect(s.samples).toHaveLength(2);
      expect(isStaleNaN(s.samples[1].value)).toBe(true);
    });

    it('supports seek on series iterators, never moving backwards', async () => {
      const s = await load(data);
      try {
        const q = s.queryable.querier(0, END);
        const set = q.select([matcher('=', 'instance', 'a:8000')]);
        expect(set.next()).toBe(true);
        const it = set.at().iterator();
        expect(it.seek(10 * STEP_MS + 1)).toBe(true);
        expect(it.at().tMs).toBe(11 * STEP_MS);
        expect(it.seek(5 * STEP_MS)).toBe(true); // no backwards move
        expect(it.at().tMs).toBe(11 * STEP_MS);
        expect(it.next()).toBe(true);
        expect(it.at()).toEqual({ tMs: 12 * STEP_MS, value: 12 });
        expect(it.seek(END + 1)).toBe(false);
        expect(it.next()).toBe(false);
        expect(set.next()).toBe(false);
        q.close();
      } finally {
        await s.close();
      }
    });

    it('lists label names and values, optionally restricted by matchers', async () => {
      const s = await load(data);
      try {
        const q = s.queryable.querier(0, END);
        expect(q.labelNames()).toEqual(['__name__', 'az', 'engine', 'gpu', 'instance', 'weird name ✓']);
        expect(q.labelNames([matcher('=', 'engine', 'sglang')])).toEqual(['__name__', 'az', 'engine', 'instance']);
        expect(q.labelValues('az')).toEqual(['us-east-1a', 'us-east-1b', 'us-east-1c']);
        expect(q.labelValues('gpu', [matcher('=', '__name__', 'DCGM_FI_DEV_GPU_UTIL')])).toEqual(['0', '1']);
        expect(q.labelValues('nope')).toEqual([]);
        q.close();
        const early = s.queryable.querier(0, 10 * STEP_MS);
        expect(early.labelValues('instance')).toEqual(['a:8000', 'a:9400', 'b:8000', 'c:30000', 'e']);
        early.close();
      } finally {
        await s.close();
      }
    });
  });
}
