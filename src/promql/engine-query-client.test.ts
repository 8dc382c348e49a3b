import { describe, expect, it } from 'vitest';
import { Labels, type Matcher } from '../model/index.js';
import { QueryClientError, type QueryClient } from '../query/index.js';
import { ArraySeriesSet, StorageError, seriesFromSamples, type Queryable, type Querier } from '../storage/index.js';
import { EngineQueryClient, TRUNCATED_WARNING } from './engine-query-client.js';
import type { QueryEngine, QueryOptions, QueryResult } from './engine/types.js';
import { QueryError } from './errors.js';
import type { Value } from './value.js';
import { rejection } from '../model/testing/rejection.js';

const L = (r: Record<string, string>) => Labels.from(r);
const SERIES = [
  L({ __name__: 'up', job: 'api', instance: 'a' }),
  L({ __name__: 'up', job: 'api', instance: 'b' }),
  L({ __name__: 'up', job: 'db', instance: 'c' }),
  L({ __name__: 'other', zone: 'z1' }),
].sort((a, b) => a.compare(b));

/** An in-memory Queryable over SERIES (one sample each at t=0), recording the window it was opened with. */
function memory(fail?: Error): Queryable & { opened: [number, number][] } {
  const opened: [number, number][] = [];
  return {
    opened,
    querier(minT, maxT): Querier {
      opened.push([minT, maxT]);
      if (fail) throw fail;
      const pick = (ms?: readonly Matcher[]) => SERIES.filter((l) => (ms ?? []).every((m) => m.matches(l.get(m.name))));
      return {
        select: (ms) => new ArraySeriesSet(pick(ms).map((l) => seriesFromSamples(l, [{ tMs: 0, value: 1 }])), ['storage warning']),
        labelNames: (ms) => [...new Set(pick(ms).flatMap((l) => Object.keys(l.toRecord())))].sort(),
        labelValues: (name, ms) => [...new Set(pick(ms).map((l) => l.get(name)).filter((v) => v !== ''))].sort(),
        close: () => undefined,
      };
    },
  };
}

/** A stand-in engine: answers with a canned value or error and records the options it got. */
function standIn(answer: Value | Error): QueryEngine & { calls: QueryOptions[] } {
  const calls: QueryOptions[] = [];
  const result = async (opts?: QueryOptions): Promise<QueryResult> => {
    calls.push(opts ?? {});
    if (answer instanceof Error) throw answer;
    return { value: answer, warnings: ['w'], infos: ['i'], stats: { totalQueryableSamples: 7, peakSamples: 3, evalTotalTimeSec: 0.25 } };
  };
  return { calls, instantQuery: (_q, _e, _t, o) => result(o), rangeQuery: (_q, _e, _s, _en, _st, o) => result(o) };
}

function client(engine: QueryEngine, queryable: Queryable = memory()): QueryClient {
  return new EngineQueryClient({ engine, queryable, metadata: () => ({ up: [{ type: 'gauge', help: 'Up.', unit: '' }], other: [{ type: 'counter', help: '', unit: 'seconds' }] }) });
}

/** The error `p` rejects with. */
const failure = (p: Promise<unknown>): Promise<QueryClientError> => rejection(p, QueryClientError);

describe('EngineQueryClient: results in API shapes', () => {
  it.each<[string, Value, unknown]>([
    ['scalar', { type: 'scalar', t: 1500, v: -0 }, { resultType: 'scalar', result: [1.5, '-0'] }],
    ['scalar in plain notation, as Prometheus 2.x', { type: 'scalar', t: 0, v: 1e-7 }, { resultType: 'scalar', result: [0, '0.0000001'] }],
    ['string', { type: 'string', t: 2000, v: 'x' }, { resultType: 'string', result: [2, 'x'] }],
    [
      'vector, dropping __name__ where asked',
      { type: 'vector', v: [{ metric: L({ __name__: 'up', job: 'a' }), t: 1000, f: 1e-7, dropName: true }, { metric: L({ __name__: 'up', job: 'b' }), t: 1000, f: Infinity, dropName: false }] },
      { resultType: 'vector', result: [{ metric: { job: 'a' }, value: [1, '1e-07'] }, { metric: { __name__: 'up', job: 'b' }, value: [1, '+Inf'] }] },
    ],
    [
      'matrix',
      { type: 'matrix', v: [{ metric: L({ job: 'a' }), t: [0, 15_000], f: [NaN, 2.5e21], dropName: false }] },
      { resultType: 'matrix', result: [{ metric: { job: 'a' }, values: [[0, 'NaN'], [15, '2.5e+21']] }] },
    ],
  ])('%s', async (_name, value, want) => {
    const r = await client(standIn(value)).instant('q', 0);
    expect(r).toEqual({ data: want, warnings: ['w'], infos: ['i'] });
  });

  it('passes timeout, lookback delta, signal and noCache through, and reports stats when asked', async () => {
    const e = standIn({ type: 'matrix', v: [] });
    const signal = new AbortController().signal;
    const r = await client(e).range('q', 0, 60_000, 15_000, { timeoutMs: 5000, lookbackDeltaMs: 60_000, signal, stats: true });
    // stats=all skips a result cache, so that the statistics count the whole query.
    expect(e.calls[0]).toEqual({ timeoutMs: 5000, lookbackDeltaMs: 60_000, signal, noCache: true });
    await client(e).range('q', 0, 60_000, 15_000, { noCache: true });
    expect(e.calls[1]).toMatchObject({ noCache: true });
    expect(r.data.stats).toEqual({
      timings: { evalTotalTime: 0.25, resultSortTime: 0, queryPreparationTime: 0, innerEvalTime: 0.25, execQueueTime: 0, execTotalTime: 0.25 },
      samples: { totalQueryableSamples: 7, peakSamples: 3 },
    });
    expect((await client(e).range('q', 0, 60_000, 15_000)).data.stats).toBeUndefined();
    expect(e.calls[2]).toMatchObject({ noCache: false });
  });
});

describe('EngineQueryClient: errors with Prometheus API wording', () => {
  it.each<[string, (c: QueryClient) => Promise<unknown>, Error | null, string, string]>([
    ['instant parse error gets the parameter prefix', (c) => c.instant('q', 0), new QueryError('bad_data', '1:5: parse error: x'), 'bad_data', 'invalid parameter "query": 1:5: parse error: x'],
    ['range parse error does not', (c) => c.range('q', 0, 1000, 1000), new QueryError('bad_data', '1:5: parse error: x'), 'bad_data', '1:5: parse error: x'],
    ['execution errors keep their type', (c) => c.instant('q', 0), new QueryError('execution', 'many-to-many matching not allowed'), 'execution', 'many-to-many matching not allowed'],
    ['timeouts', (c) => c.instant('q', 0), new QueryError('timeout', 'query timed out in expression evaluation'), 'timeout', 'query timed out'],
    ['a closed store is unavailable', (c) => c.instant('q', 0), new StorageError('ERR_STORAGE_CLOSED', 'closed'), 'unavailable', 'closed'],
    ['corruption is internal', (c) => c.instant('q', 0), new StorageError('ERR_CORRUPTION', 'bad chunk'), 'internal', 'bad chunk'],
    ['a bug is internal', (c) => c.instant('q', 0), new TypeError('x is undefined'), 'internal', 'x is undefined'],
    ['end before start', (c) => c.range('q', 10, 0, 1000), null, 'bad_data', 'invalid parameter "end": end timestamp must not be before start time'],
    ['zero step', (c) => c.range('q', 0, 10, 0), null, 'bad_data', 'invalid parameter "step": zero or negative query resolution step widths are not accepted. Try a positive integer'],
    ['too many points', (c) => c.range('q', 0, 11_001_000, 1000), null, 'bad_data', 'exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the query resolution (?step=XX)'],
  ])('%s', async (_name, call, thrown, errorType, message) => {
    const e = await failure(call(client(standIn(thrown ?? { type: 'matrix', v: [] }))));
    expect(e.errorType).toBe(errorType);
    expect(e.message).toContain(message);
  });

  it('refuses an aborted signal before evaluating', async () => {
    const e = standIn({ type: 'scalar', t: 0, v: 1 });
    const ac = new AbortController();
    ac.abort();
    expect((await failure(client(e).instant('q', 0, { signal: ac.signal }))).errorType).toBe('canceled');
    expect(e.calls).toHaveLength(0);
  });
});

describe('EngineQueryClient: series, labels, metadata from the Querier', () => {
  const c = () => client(standIn({ type: 'scalar', t: 0, v: 1 }));

  it('merges several match[] sets, each series once, and honours limit with a warning', async () => {
    const r = await c().series(['up{job="api"}', '{instance=~"a|c"}']);
    expect(r.data).toEqual([
      { __name__: 'up', job: 'api', instance: 'a' },
      { __name__: 'up', job: 'api', instance: 'b' },
      { __name__: 'up', job: 'db', instance: 'c' },
    ]);
    expect(r.warnings).toEqual(['storage warning']);
    const limited = await c().series(['up'], { limit: 2 });
    expect(limited.data).toHaveLength(2);
    expect(limited.warnings).toContain(TRUNCATED_WARNING);
  });

  it('opens the querier over the requested window, or all time', async () => {
    const q = memory();
    const cl = client(standIn({ type: 'scalar', t: 0, v: 1 }), q);
    await cl.labelNames({ startMs: 1000, endMs: 2000 });
    await cl.labelNames();
    expect(q.opened).toEqual([
      [1000, 2000],
      [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
    ]);
  });

  it('label names and values: union over match[], sorted, limited', async () => {
    expect((await c().labelNames()).data).toEqual(['__name__', 'instance', 'job', 'zone']);
    expect((await c().labelNames({ match: ['other', 'up{job="db"}'] })).data).toEqual(['__name__', 'instance', 'job', 'zone']);
    expect((await c().labelValues('job', { match: ['up{instance="c"}', 'up{instance="a"}'] })).data).toEqual(['api', 'db']);
    expect(await c().labelValues('instance', { limit: 1 })).toEqual({ data: ['a'], warnings: [TRUNCATED_WARNING], infos: [] });
  });

  it.each<[string, (c: QueryClient) => Promise<unknown>, string]>([
    ['no match[]', (cl) => cl.series([]), 'no match[] parameter provided'],
    ['empty matchers in series', (cl) => cl.series(['{job=""}']), 'invalid parameter "match[]": match[] must contain at least one non-empty matcher'],
    ['empty matchers in labels', (cl) => cl.labelNames({ match: ['{job=~".*"}'] }), 'match[] must contain at least one non-empty matcher'],
    ['a parse error', (cl) => cl.series(['up{']), 'invalid parameter "match[]": '],
    ['not a selector', (cl) => cl.series(['up + 1']), 'invalid parameter "match[]": '],
    ['a bad label name', (cl) => cl.labelValues('in-valid'), 'invalid label name: "in-valid"'],
  ])('refuses %s with bad_data', async (_name, call, message) => {
    const e = await failure(call(c()));
    expect(e.errorType).toBe('bad_data');
    expect(e.message).toContain(message);
  });

  it('maps a storage that cannot open a querier onto the API error types', async () => {
    const cl = client(standIn({ type: 'scalar', t: 0, v: 1 }), memory(new StorageError('ERR_STORAGE_CLOSED', 'the store is closed')));
    expect((await failure(cl.labelNames())).errorType).toBe('unavailable');
  });

  it('filters metadata by metric and limit', async () => {
    expect((await c().metadata()).data).toEqual({ up: [{ type: 'gauge', help: 'Up.', unit: '' }], other: [{ type: 'counter', help: '', unit: 'seconds' }] });
    expect((await c().metadata({ metric: 'other' })).data).toEqual({ other: [{ type: 'counter', help: '', unit: 'seconds' }] });
    expect(Object.keys((await c().metadata({ limit: 1 })).data)).toHaveLength(1);
    expect((await new EngineQueryClient({ engine: standIn({ type: 'scalar', t: 0, v: 1 }), queryable: memory() }).metadata()).data).toEqual({});
  });
});
