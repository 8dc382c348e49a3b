import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueryClient } from '../client.js';
import { isQueryClientError } from '../errors.js';
import type { ErrorType, InstantSample, Metric, RangeSeries, SamplePair } from '../wire.js';
import { SUITE_ODD_VALUE, SUITE_T0_MS, queryClientSuiteData, type QueryClientSuiteData } from './dataset.js';

/**
 * Known, named deviations of a backend from Prometheus' API. The suite asserts Prometheus'
 * behaviour unless the backend declares the deviation, and then asserts the deviation instead,
 * so a backend that stops deviating is noticed too.
 */
export interface QueryClientQuirks {
  /** A scalar result comes back as a one-sample vector with an empty metric (VictoriaMetrics). */
  readonly scalarAsVector?: boolean;
  /** A string literal query returns an empty vector (VictoriaMetrics). */
  readonly stringAsEmptyVector?: boolean;
  /** A query or selector that does not parse fails with `execution` (422) instead of `bad_data` (VictoriaMetrics). */
  readonly parseErrorAsExecution?: boolean;
  /** `{foo=""}` is accepted as a selector of every series instead of being refused (VictoriaMetrics). */
  readonly acceptsEmptyMatchers?: boolean;
}

/** A backend loaded with the suite's data, and the client under test. */
export interface QueryClientUnderTest {
  readonly client: QueryClient;
  readonly quirks?: QueryClientQuirks;
  /** Releases the backend (stops processes, removes directories). */
  close?(): Promise<void>;
}

const T0 = SUITE_T0_MS;
const sec = (offsetS: number): number => (T0 + offsetS * 1000) / 1000;
const A = { __name__: 'suite_requests_total', job: 'api', instance: 'a:9000', az: 'us-east-1a' };
const B = { __name__: 'suite_requests_total', job: 'api', instance: 'b:9000', az: 'us-east-1b' };
const SHORT = { __name__: 'suite_short', instance: 'c', note: SUITE_ODD_VALUE };

function key(m: Metric): string {
  return JSON.stringify(Object.keys(m).sort().map((k) => [k, m[k]]));
}
const byMetric = <T extends { metric: Metric }>(xs: T[]): T[] => [...xs].sort((a, b) => (key(a.metric) < key(b.metric) ? -1 : 1));
const sortMetrics = (xs: Metric[]): Metric[] => [...xs].sort((a, b) => (key(a) < key(b) ? -1 : 1));

async function failure(p: Promise<unknown>): Promise<{ errorType: ErrorType; message: string }> {
  try {
    await p;
  } catch (e) {
    if (isQueryClientError(e)) return { errorType: e.errorType, message: e.message };
    throw e;
  }
  throw new Error('expected the call to fail');
}

/**
 * The conformance suite of the `QueryClient` contract (src/query/client.ts). `setup` receives the
 * fixed data set (`queryClientSuiteData()`), loads it into its backend and returns a client for
 * it; it runs once, before the cases, and `close` after them.
 */
export function runQueryClientSuite(name: string, setup: (data: QueryClientSuiteData) => Promise<QueryClientUnderTest>, setupTimeoutMs = 120_000): void {
  describe(`QueryClient contract: ${name}`, () => {
    const data = queryClientSuiteData();
    let under: QueryClientUnderTest | undefined;
    const client = (): QueryClient => under!.client;
    const quirks = (): QueryClientQuirks => under?.quirks ?? {};
    const win = { startMs: data.startMs, endMs: data.endMs };

    beforeAll(async () => {
      under = await setup(data);
    }, setupTimeoutMs);
    afterAll(async () => {
      await under?.close?.();
    }, setupTimeoutMs);

    it('instant: a selector returns the newest sample within the lookback, stamped with the evaluation time', async () => {
      const r = await client().instant('suite_requests_total', T0 + 307_000);
      expect(r.data.resultType).toBe('vector');
      expect(byMetric(r.data.result as InstantSample[])).toEqual([
        { metric: A, value: [sec(307), '200'] },
        { metric: B, value: [sec(307), '100'] },
      ]);
      expect(r.warnings).toEqual([]);
      expect(r.infos).toEqual([]);
    });

    it.each([
      ['suite_gpu_utilization{gpu="0"}', 45, [{ metric: { __name__: 'suite_gpu_utilization', instance: 'a:9000', gpu: '0' }, value: [sec(45), '1'] }]],
      ['sum by (job) (suite_requests_total)', 307, [{ metric: { job: 'api' }, value: [sec(307), '300'] }]],
      ['suite_requests_total * 2', 307, [{ metric: { job: 'api', instance: 'a:9000', az: 'us-east-1a' }, value: [sec(307), '400'] }, { metric: { job: 'api', instance: 'b:9000', az: 'us-east-1b' }, value: [sec(307), '200'] }]],
      ['count(suite_gpu_utilization)', 100, [{ metric: {}, value: [sec(100), '2'] }]],
      ['suite_short', 200, [{ metric: SHORT, value: [sec(200), '7'] }]],
      ['suite_short', 600, []],
      ['suite_nonexistent_metric', 300, []],
      ['suite_requests_total{instance="b:9000"}', 307.5, [{ metric: B, value: [sec(307.5), '100'] }]],
    ])('instant: %s at T0+%ss', async (query, offsetS, want) => {
      const r = await client().instant(query, T0 + offsetS * 1000);
      expect(r.data.resultType).toBe('vector');
      expect(byMetric(r.data.result as InstantSample[])).toEqual(byMetric(want as InstantSample[]));
    });

    it('instant: a scalar expression returns a scalar', async () => {
      const r = await client().instant('1 + 1', T0);
      if (quirks().scalarAsVector) expect(r.data).toEqual({ resultType: 'vector', result: [{ metric: {}, value: [sec(0), '2'] }] });
      else expect(r.data).toEqual({ resultType: 'scalar', result: [sec(0), '2'] satisfies SamplePair });
    });

    it('instant: a string literal returns a string', async () => {
      const r = await client().instant('"hello"', T0);
      if (quirks().stringAsEmptyVector) expect(r.data).toEqual({ resultType: 'vector', result: [] });
      else expect(r.data).toEqual({ resultType: 'string', result: [sec(0), 'hello'] });
    });

    it('range: one point per step, series sorted by labels', async () => {
      const r = await client().range('suite_requests_total', T0, T0 + 60_000, 15_000);
      expect(r.data.resultType).toBe('matrix');
      const pts = (f: number): SamplePair[] => [0, 15, 30, 45, 60].map((s) => [sec(s), String((s / 15) * f)]);
      expect(r.data.result).toEqual([
        { metric: A, values: pts(10) },
        { metric: B, values: pts(5) },
      ]);
    });

    it.each([
      ['sum(suite_requests_total)', 0, 120, 30, [{ metric: {}, values: [0, 30, 60, 90, 120].map((s) => [sec(s), String(s)]) }]],
      ['1 + 1', 0, 30, 15, [{ metric: {}, values: [0, 15, 30].map((s) => [sec(s), '2']) }]],
      [
        'suite_gpu_utilization',
        15,
        45,
        15,
        [
          { metric: { __name__: 'suite_gpu_utilization', instance: 'a:9000', gpu: '0' }, values: [[sec(15), '0.5'], [sec(30), '0.75'], [sec(45), '1']] },
          { metric: { __name__: 'suite_gpu_utilization', instance: 'a:9000', gpu: '1' }, values: [[sec(15), '0.125'], [sec(30), '0.5'], [sec(45), '0.125']] },
        ],
      ],
      ['suite_nonexistent_metric', 0, 60, 15, []],
    ])('range: %s from T0+%ss to T0+%ss step %ss', async (query, fromS, toS, stepS, want) => {
      const r = await client().range(query, T0 + fromS * 1000, T0 + toS * 1000, stepS * 1000);
      expect(r.data.resultType).toBe('matrix');
      expect(byMetric(r.data.result)).toEqual(byMetric(want as RangeSeries[]));
    });

    it('series: label sets of matching series, each once, odd label values intact', async () => {
      expect(sortMetrics((await client().series(['suite_requests_total'], win)).data)).toEqual(sortMetrics([A, B]));
      expect((await client().series(['suite_short', '{instance="c"}', 'suite_short'], win)).data).toEqual([SHORT]);
      expect((await client().series(['suite_requests_total'], { startMs: T0 - 3_600_000, endMs: T0 - 1_800_000 })).data).toEqual([]);
    });

    it('series: a limit returns a subset', async () => {
      const all = (await client().series(['{__name__=~"suite_.+"}'], win)).data;
      expect(all).toHaveLength(5);
      const some = (await client().series(['{__name__=~"suite_.+"}'], { ...win, limit: 2 })).data;
      expect(some.length).toBeGreaterThan(0);
      for (const m of some) expect(all.map(key)).toContain(key(m));
    });

    it('labelNames and labelValues: sorted and de-duplicated, optionally restricted by match[]', async () => {
      expect((await client().labelNames(win)).data).toEqual(['__name__', 'az', 'gpu', 'instance', 'job', 'note']);
      expect((await client().labelNames({ ...win, match: ['suite_short'] })).data).toEqual(['__name__', 'instance', 'note']);
      expect((await client().labelValues('instance', win)).data).toEqual(['a:9000', 'b:9000', 'c']);
      expect((await client().labelValues('__name__', { ...win, match: ['{instance="a:9000"}'] })).data).toEqual(['suite_gpu_utilization', 'suite_requests_total']);
      expect((await client().labelValues('note', win)).data).toEqual([SUITE_ODD_VALUE]);
      expect((await client().labelValues('suite_no_such_label', win)).data).toEqual([]);
    });

    it('metadata: metric name to entries; {} for an unknown metric', async () => {
      const all = (await client().metadata()).data;
      for (const entries of Object.values(all)) {
        for (const e of entries) expect(e).toEqual({ type: expect.any(String), help: expect.any(String), unit: expect.any(String) });
      }
      expect((await client().metadata({ metric: 'suite_nonexistent_metric' })).data).toEqual({});
    });

    it.each([
      ['instant', (c: QueryClient) => c.instant('sum(', T0)],
      ['range', (c: QueryClient) => c.range('sum(', T0, T0 + 60_000, 15_000)],
      ['series', (c: QueryClient) => c.series(['bad{'], win)],
      ['labelNames', (c: QueryClient) => c.labelNames({ ...win, match: ['bad{'] })],
    ])('%s: a query that does not parse fails with bad_data', async (_name, call) => {
      const f = await failure(call(client()));
      expect(f.errorType).toBe(quirks().parseErrorAsExecution ? 'execution' : 'bad_data');
      expect(f.message).not.toBe('');
    });

    it('series: a selector whose matchers all match the empty string is refused', async () => {
      const call = client().series(['{foo=""}'], win);
      if (quirks().acceptsEmptyMatchers) {
        expect((await call).data.length).toBeGreaterThan(0);
      } else {
        const f = await failure(call);
        expect(f.errorType).toBe('bad_data');
        expect(f.message).toContain('match[] must contain at least one non-empty matcher');
      }
    });

    it('an aborted signal fails the call with canceled', async () => {
      const ac = new AbortController();
      ac.abort();
      const f = await failure(client().instant('suite_requests_total', T0, { signal: ac.signal }));
      expect(f.errorType).toBe('canceled');
    });

    it('calls are independent and may run concurrently', async () => {
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => client().instant(`sum(suite_requests_total) + ${i}`, T0 + 300_000)));
      results.forEach((r, i) => expect(r.data.result).toEqual([{ metric: {}, value: [sec(300), String(300 + i)] }]));
    });
  });
}
