import { beforeAll, describe, expect, it } from 'vitest';
import { MemoryLogger } from '../../model/index.js';
import { useCleanups } from '../../model/testing/cleanups.js';
import { tempDir } from '../../tsdb/testing/temp-dir.js';
import { startServer } from '../serve.js';
import { MemorySampleStore } from '../testing/memory-sample-store.js';
import { testDriftEvent, testFlag, testJudgeEvaluation, testPair, testQualityParts } from '../testing/quality-fixture.js';

// The quality read routes over a server whose sample store (in memory) is filled through the
// store port: filters, one pair, drift events, status, and every refusal in the API's error shape.
const cleanups = useCleanups('all');
const T0 = Date.UTC(2026, 0, 5, 12);
const MIN = 60_000;
const HOSTILE = '<script>window.pwned=1</script><img src=x onerror="window.pwned=2">';
let base = '';
let bare = '';
let failing = '';

/** A store whose reads fail (a broken disk under the database). */
class FailingStore extends MemorySampleStore {
  override async find(): Promise<never> {
    throw new Error('could not read block 7: I/O error');
  }
}

beforeAll(async () => {
  const parts = testQualityParts([testDriftEvent('d1', T0 + 10 * MIN), testDriftEvent('d2', T0 + 50 * MIN, 'qwen-7b')]);
  const s = parts.store;
  await s.putPairs([
    testPair('p1', T0 + 1 * MIN),
    testPair('p2', T0 + 2 * MIN, { model: 'qwen-7b', component: 'qwen-a', response: HOSTILE }),
    testPair('p3', T0 + 3 * MIN, { response: '' }),
  ]);
  await s.putEvaluations([
    testJudgeEvaluation('p1', 'safety', 0.95, T0 + 1 * MIN),
    testJudgeEvaluation('p1', 'relevance', 0.8, T0 + 1 * MIN),
    testJudgeEvaluation('p2', 'safety', 0.2, T0 + 2 * MIN, `unsafe: ${HOSTILE}`),
    testFlag('p3', 'empty', T0 + 3 * MIN),
  ]);
  const start = async (quality: Parameters<typeof startServer>[0]['quality']): Promise<string> => {
    const t = tempDir('api-quality');
    cleanups.push(t.remove);
    const server = await startServer({ listen: '127.0.0.1:0', storage: { dir: t.dir, fsync: { mode: 'never' } }, logger: new MemoryLogger(), clock: () => T0 + 60 * MIN, ui: false, quality });
    cleanups.push(() => server.close());
    await server.ready;
    return `http://127.0.0.1:${server.http.address.port}`;
  };
  base = await start(parts.options);
  bare = await start(undefined);
  failing = await start(testQualityParts([], new FailingStore()).options);
});

const q = (params: [string, string][]) => new URLSearchParams(params).toString();
async function get(url: string): Promise<{ status: number; body: Record<string, unknown> & { data?: Record<string, unknown> } }> {
  const res = await fetch(url);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return { status: res.status, body: JSON.parse(await res.text()) as Record<string, unknown> };
}
const ids = (body: { data?: Record<string, unknown> }): string[] => ((body.data?.samples ?? []) as { pair: { id: string } }[]).map((x) => x.pair.id);

/** Each case: the list route's parameters and the ids it answers, newest first. */
const FILTERS: [name: string, params: [string, string][], want: string[]][] = [
  ['everything', [], ['p3', 'p2', 'p1']],
  ['by model', [['model', 'qwen-7b']], ['p2']],
  ['by component', [['component', 'llama-a']], ['p3', 'p1']],
  ['by dimension', [['dimension', 'relevance']], ['p1']],
  ['by score range on a dimension', [['dimension', 'safety'], ['max_score', '0.5']], ['p2']],
  ['by minimum score', [['min_score', '0.9']], ['p1']],
  ['by flag', [['flag', 'empty']], ['p3']],
  ['by time', [['start', String((T0 + 1.5 * MIN) / 1000)], ['end', new Date(T0 + 2.5 * MIN).toISOString()]], ['p2']],
  ['limited', [['limit', '2']], ['p3', 'p2']],
  ['a limit past the cap is capped', [['limit', '100000']], ['p3', 'p2', 'p1']],
  ['no match', [['model', 'nobody']], []],
];

/** Each case: a path and the error it answers (status, errorType, message). */
const REFUSALS: [name: string, path: string, status: number, errorType: string, error: string | RegExp][] = [
  ['unknown dimension', `/api/v1/quality/samples?${q([['dimension', 'tone']])}`, 400, 'bad_data', 'invalid parameter "dimension": unknown dimension "tone"; want one of accuracy, relevance, safety, professional_tone, composite'],
  ['unknown flag', `/api/v1/quality/samples?${q([['flag', '<b>']])}`, 400, 'bad_data', /^invalid parameter "flag": unknown flag "<b>"; want one of refusal/],
  ['score above 1', `/api/v1/quality/samples?${q([['min_score', '1.5']])}`, 400, 'bad_data', 'invalid parameter "min_score": want a score between 0 and 1, got "1.5"'],
  ['score NaN', `/api/v1/quality/samples?${q([['max_score', 'NaN']])}`, 400, 'bad_data', 'invalid parameter "max_score": want a score between 0 and 1, got "NaN"'],
  ['score not a number', `/api/v1/quality/samples?${q([['max_score', '0.5; DROP TABLE pairs']])}`, 400, 'bad_data', 'invalid parameter "max_score": want a score between 0 and 1, got "0.5; DROP TABLE pairs"'],
  ['min above max', `/api/v1/quality/samples?${q([['min_score', '0.8'], ['max_score', '0.2']])}`, 400, 'bad_data', 'invalid parameter "max_score": max_score must not be below min_score'],
  ['bad start', `/api/v1/quality/samples?${q([['start', 'yesterday']])}`, 400, 'bad_data', `invalid parameter "start": Invalid time value for 'start': cannot parse "yesterday" to a valid timestamp`],
  ['end before start', `/api/v1/quality/samples?${q([['start', '200'], ['end', '100']])}`, 400, 'bad_data', 'invalid parameter "end": end timestamp must not be before start time'],
  ['negative limit', `/api/v1/quality/samples?${q([['limit', '-1']])}`, 400, 'bad_data', 'invalid parameter "limit": limit must be non-negative'],
  ['limit not a number', `/api/v1/quality/samples?${q([['limit', '1e3']])}`, 400, 'bad_data', 'invalid parameter "limit": strconv.Atoi: parsing "1e3": invalid syntax'],
  ['an overlong model', `/api/v1/quality/samples?${q([['model', 'm'.repeat(5000)]])}`, 400, 'bad_data', 'invalid parameter "model": longer than 1024 bytes'],
  ['a broken form', '/api/v1/quality/samples?model=%zz', 400, 'bad_data', /^error parsing form values: /],
  ['an unknown id', '/api/v1/quality/samples/nope', 404, 'not_found', 'no sampled pair with id "nope"'],
  ['an id with markup', `/api/v1/quality/samples/${encodeURIComponent('<script>')}`, 404, 'not_found', 'no sampled pair with id "<script>"'],
  ['drift end before start', `/api/v1/quality/drift?${q([['start', '200'], ['end', '100']])}`, 400, 'bad_data', 'invalid parameter "end": end timestamp must not be before start time'],
];

describe('/api/v1/quality/*', () => {
  it.each(FILTERS)('lists samples %s', async (_name, params, want) => {
    const r = await get(`${base}/api/v1/quality/samples?${q(params)}`);
    expect(r.status).toBe(200);
    expect(ids(r.body)).toEqual(want);
  });

  it.each(REFUSALS)('refuses %s', async (_name, path, status, errorType, error) => {
    const r = await get(base + path);
    expect(r.status).toBe(status);
    expect(r.body.status).toBe('error');
    expect(r.body.errorType).toBe(errorType);
    if (typeof error === 'string') expect(r.body.error).toBe(error);
    else expect(r.body.error).toMatch(error);
  });

  it('answers one pair with every evaluation, texts as JSON strings (markup kept literally)', async () => {
    const r = await get(`${base}/api/v1/quality/samples/p2`);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      pair: {
        id: 'p2',
        time: (T0 + 2 * MIN) / 1000,
        endpoint: 'chat',
        component: 'qwen-a',
        model: 'qwen-7b',
        prompt: 'user: hello',
        response: HOSTILE,
        status: 200,
        finishReason: 'stop',
        promptTokens: 3,
        completionTokens: 6,
        wantJson: false,
        ttftSeconds: 0.12,
        e2eSeconds: 0.8,
      },
      evaluations: [{ stage: 2, evaluator: 'judge:safety', dimension: 'safety', score: 0.2, flag: null, detail: `unsafe: ${HOSTILE}`, error: null, durationSeconds: 0.4, judgeTokens: { input: 120, output: 30 }, time: (T0 + 2 * MIN) / 1000 }],
    });
  });

  it.each([
    ['every event', [], ['d1', 'd2']],
    ['the events of a window', [['start', String((T0 + 40 * MIN) / 1000)], ['end', String((T0 + 60 * MIN) / 1000)]], ['d2']],
  ] as [string, [string, string][], string[]][])('lists drift: %s', async (_name, params, want) => {
    const r = await get(`${base}/api/v1/quality/drift?${q(params)}`);
    expect(r.status).toBe(200);
    const events = (r.body.data?.events ?? []) as { id: string; onset: number; subject: unknown }[];
    expect(events.map((e) => e.id)).toEqual(want);
    if (want[0] === 'd1') expect(events[0]).toMatchObject({ onset: (T0 + 10 * MIN) / 1000, subject: { kind: 'score', dimension: 'safety' }, test: 'page-hinkley' });
  });

  it('answers the status: store, pipeline, judge, retention', async () => {
    const r = await get(`${base}/api/v1/quality/status`);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ store: { kind: 'memory', pairs: 3, evaluations: 4, oldest: (T0 + MIN) / 1000 }, pipeline: { queued: 0, dropped: 0 }, judge: null, drift: true });
  });

  it.each(['/api/v1/quality/samples', '/api/v1/quality/samples/p1', '/api/v1/quality/drift', '/api/v1/quality/status'])('answers %s unavailable without a sample store', async (path) => {
    const r = await get(bare + path);
    expect(r).toEqual({ status: 503, body: { status: 'error', errorType: 'unavailable', error: 'quality samples are not available on this server: no sample store is open (docs/quality.md)' } });
  });

  it('answers a store that cannot read as internal (500), and the server goes on', async () => {
    const r = await get(`${failing}/api/v1/quality/samples`);
    expect(r).toEqual({ status: 500, body: { status: 'error', errorType: 'internal', error: 'could not read block 7: I/O error' } });
    expect((await get(`${failing}/api/v1/quality/status`)).status).toBe(200);
  });
});
