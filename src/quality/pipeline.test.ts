import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mulberry32 } from '../model/index.js';
import { FakeTimers, flushAsync } from '../model/testing/fake-timers.js';
import { createOpenAIJudge, DEFAULT_RUBRICS, JudgeError } from './judge/index.js';
import { QualityPipeline, type QualityPipelineOptions } from './pipeline.js';
import { startHostileJudge, type HostileJudge, type HostileMode } from './testing/hostile-judge.js';
import { MemoryPairStore, RecordingMetrics, sampleInput, ScriptedJudge } from './testing/pipeline-doubles.js';
import type { Judge, JudgeVerdict } from './types.js';

const T0 = 1_767_600_000_000;
const verdict = (score = 0.9): JudgeVerdict => ({ score, reasoning: 'ok', tokens: { input: 100, output: 10 }, durationS: 0.5 });
const redact = (t: string): string => t.replaceAll('hunter2', '[REDACTED]');

function setup(over: Partial<QualityPipelineOptions> = {}) {
  const store = new MemoryPairStore();
  const metrics = new RecordingMetrics();
  let now = T0;
  const pipeline = new QualityPipeline({
    store,
    metrics,
    judge: null,
    rubrics: DEFAULT_RUBRICS,
    judgeShare: 0,
    maxConcurrency: 4,
    tokenBudgetPerHour: 1e9,
    redact,
    clock: () => now,
    random: mulberry32(42),
    monotonicMs: () => 0,
    ...over,
  });
  return { store, metrics, pipeline, setNow: (t: number) => (now = t) };
}

describe('QualityPipeline: stage 1 and the store', () => {
  test('pairs are redacted before they are stored, in batches, with one stage-1 evaluation per check recorded', async () => {
    const { store, metrics, pipeline } = setup({ batchSize: 16 });
    for (let i = 0; i < 40; i++) pipeline.accept(sampleInput(i, { content: `my password is hunter2 (${i})` }));
    expect(store.pairs.size).toBe(0); // accept only queues
    await pipeline.drain();
    expect(store.pairBatches).toEqual([16, 16, 8]);
    const pairs = [...store.pairs.values()];
    expect(pairs[0].prompt).toBe('system: Be brief.\nuser: my password is [REDACTED] (0)');
    expect(pairs.every((p) => !p.prompt.includes('hunter2'))).toBe(true);
    expect(pairs[0]).toMatchObject({ endpoint: 'chat', component: 'gpt-oss-20b', model: 'openai/gpt-oss-20b', finishReason: 'stop', completionTokens: 25, wantJson: false, ttftS: 0.2, e2eS: 1.2 });
    expect(new Set(pairs.map((p) => p.id)).size).toBe(40);
    expect(store.evaluations).toHaveLength(40 * 8);
    expect(metrics.evaluations).toHaveLength(40 * 8);
    expect(metrics.evaluations[0]).toMatchObject({ model: 'openai/gpt-oss-20b', component: 'gpt-oss-20b', dimension: null, evaluator: 'stage1:refusal', judgeTokens: null, error: null, flag: null });
    expect(metrics.flushes).toBe(1);
    expect(pipeline.stats()).toMatchObject({ accepted: 40, dropped: 0, pairsStored: 40, stage1Evaluations: 320, stage1Flags: 0 });
  });

  test('markup and script are stored and evaluated as text', async () => {
    const { store, pipeline } = setup();
    const text = '<script>alert("x")</script><img src=x onerror=alert(1)> {"a": ';
    pipeline.accept(sampleInput(0, { content: text, request: { messages: [{ role: 'user', content: [{ type: 'text', text }] }], response_format: { type: 'json_object' } }, response: { text, finishReasons: [], error: 'aborted' } }));
    await pipeline.drain();
    const [p] = store.pairs.values();
    expect(p.prompt).toBe(`user: ${text}`);
    expect(p.response).toBe(text);
    expect(p.wantJson).toBe(true);
    expect(store.evaluations.flatMap((e) => (e.flag === null ? [] : [e.flag]))).toEqual(['invalid_json']);
  });

  test('a full queue drops and counts; accept never waits', async () => {
    const { store, pipeline } = setup({ maxQueue: 10 });
    for (let i = 0; i < 100; i++) pipeline.accept(sampleInput(i));
    expect(pipeline.stats()).toMatchObject({ accepted: 10, dropped: 90, queued: 10 });
    await pipeline.drain();
    expect(store.pairs.size).toBe(10);
  });

  test('a failing store (a full disk) loses that batch, counts it, and the pipeline goes on', async () => {
    const { store, pipeline } = setup({ batchSize: 5 });
    store.failNext = 1;
    for (let i = 0; i < 10; i++) pipeline.accept(sampleInput(i));
    await pipeline.drain();
    expect(store.pairs.size).toBe(5);
    expect(pipeline.stats()).toMatchObject({ storeErrors: 1, pairsStored: 5 });
  });
});

describe('QualityPipeline: the judge', () => {
  test('a seeded share of pairs is judged on every rubric; scores go to the metrics as judge:<model>', async () => {
    const run = async () => {
      const judge = new ScriptedJudge(() => verdict(0.8));
      const s = setup({ judge, judgeShare: 0.25, rubrics: DEFAULT_RUBRICS.slice(0, 2), maxConcurrency: 3 });
      for (let i = 0; i < 200; i++) s.pipeline.accept(sampleInput(i));
      await s.pipeline.drain();
      return { ...s, judge };
    };
    const a = await run();
    const b = await run();
    const judgedPairs = new Set(a.metrics.scores.map((x) => x.requestId));
    expect(judgedPairs.size).toBeGreaterThan(30);
    expect(judgedPairs.size).toBeLessThan(70);
    expect(b.metrics.scores.map((x) => x.requestId)).toEqual(a.metrics.scores.map((x) => x.requestId));
    expect(a.metrics.scores).toHaveLength(judgedPairs.size * 2);
    expect(a.metrics.scores[0]).toMatchObject({ model: 'openai/gpt-oss-20b', component: 'gpt-oss-20b', score: 0.8, evaluator: 'judge:scripted', tMs: T0 });
    expect(a.judge.maxInFlight).toBeLessThanOrEqual(3);
    const stage2 = a.store.evaluations.filter((e) => e.stage === 2);
    expect(stage2).toHaveLength(judgedPairs.size * 2);
    expect(new Set(stage2.map((e) => e.evaluator))).toEqual(new Set(['judge:accuracy', 'judge:relevance']));
    expect(a.metrics.evaluations.filter((e) => e.evaluator === 'judge:scripted').every((e) => e.judgeTokens?.input === 100 && e.error === null)).toBe(true);
  });

  test('failures become evaluations with an error, counted, and the pipeline keeps going', async () => {
    const failures = [new JudgeError('timeout', 'the judge did not answer within 30000 ms'), new JudgeError('garbage', 'not JSON'), new JudgeError('out_of_range', 'score 7'), new JudgeError('http', 'HTTP 500', 500), new Error('boom')];
    const judge = new ScriptedJudge((_p, _r, call) => (call < failures.length ? failures[call] : verdict()));
    const { store, metrics, pipeline } = setup({ judge, judgeShare: 1, rubrics: DEFAULT_RUBRICS.slice(0, 1), maxConcurrency: 1 });
    for (let i = 0; i < 8; i++) pipeline.accept(sampleInput(i));
    await pipeline.drain();
    const errs = store.evaluations.filter((e) => e.stage === 2 && e.error !== null);
    expect(errs.map((e) => e.error)).toEqual(['timeout: the judge did not answer within 30000 ms', 'garbage: not JSON', 'out_of_range: score 7', 'http: HTTP 500', 'error: boom']);
    expect(errs.every((e) => e.score === null && e.judgeTokens === null)).toBe(true);
    expect(metrics.evaluations.filter((e) => e.evaluator === 'judge:scripted').map((e) => e.error)).toEqual(['timeout', 'garbage', 'out_of_range', 'http', 'error', null, null, null]);
    expect(metrics.scores).toHaveLength(3);
    expect(pipeline.stats()).toMatchObject({ judgeCalls: 8, judged: 3, judgeErrors: 5 });
  });

  test('over the hourly token budget calls are skipped and counted; the next hour has a new budget', async () => {
    const judge = new ScriptedJudge(() => verdict());
    const s = setup({ judge, judgeShare: 1, rubrics: DEFAULT_RUBRICS.slice(0, 1), maxConcurrency: 1, tokenBudgetPerHour: 2000 });
    for (let i = 0; i < 10; i++) s.pipeline.accept(sampleInput(i));
    await s.pipeline.drain();
    const first = s.pipeline.stats();
    expect(first.judgeCalls).toBeGreaterThan(0);
    expect(first.judgeSkippedBudget).toBe(10 - first.judgeCalls);
    expect(first.judgeTokensThisHour).toBeLessThanOrEqual(2000);
    s.setNow(T0 + 3_600_000);
    for (let i = 10; i < 12; i++) s.pipeline.accept(sampleInput(i));
    await s.pipeline.drain();
    expect(s.pipeline.stats().judgeCalls).toBe(first.judgeCalls + 2);
  });

  test('a judge that hangs: concurrency and the judge queue stay bounded, close cancels the calls', async () => {
    const judge = new ScriptedJudge(() => 'hang');
    const { store, pipeline } = setup({ judge, judgeShare: 1, rubrics: DEFAULT_RUBRICS.slice(0, 1), maxConcurrency: 2, maxJudgeQueue: 5 });
    for (let i = 0; i < 20; i++) pipeline.accept(sampleInput(i));
    await flushAsync();
    expect(pipeline.stats()).toMatchObject({ pairsStored: 20, judgeInFlight: 2, judgeDropped: 15 });
    // Stage 1 and the store go on while the judge hangs.
    for (let i = 20; i < 30; i++) pipeline.accept(sampleInput(i));
    await flushAsync();
    expect(store.pairs.size).toBe(30);
    expect(pipeline.stats()).toMatchObject({ judgeInFlight: 2, judgeDropped: 23 });
    await pipeline.close();
    // The five still waiting are dropped; the two running are cancelled.
    expect(pipeline.stats()).toMatchObject({ judgeInFlight: 0, judgeErrors: 2, judgeDropped: 28 });
    expect(store.evaluations.filter((e) => e.stage === 2).map((e) => e.error)).toEqual(['error: aborted', 'error: aborted']);
    pipeline.accept(sampleInput(99));
    expect(pipeline.stats().dropped).toBe(1);
  });
});

describe('QualityPipeline with the OpenAI judge against hostile servers', () => {
  let server: HostileJudge;
  beforeAll(async () => {
    server = await startHostileJudge();
  });
  afterAll(async () => {
    await server.close();
  });

  test('garbage, score 7, 500s and connection resets are counted as errors; good answers still score', async () => {
    const modes: HostileMode[] = ['garbage', 'score7', 'http500', 'reset', 'ok', 'garbage', 'ok'];
    // The scripted mode changes per call: a judge that wraps the real one and sets the server first.
    const real = createOpenAIJudge({ baseURL: server.baseURL, model: 'hostile' });
    let call = 0;
    const judge: Judge = { model: real.model, judge: (p, r, signal) => ((server.mode = modes[call++ % modes.length]), real.judge(p, r, signal)) };
    const { store, metrics, pipeline } = setup({ judge, judgeShare: 1, rubrics: DEFAULT_RUBRICS.slice(0, 1), maxConcurrency: 1 });
    for (let i = 0; i < modes.length; i++) pipeline.accept(sampleInput(i));
    await pipeline.drain();
    expect(metrics.evaluations.filter((e) => e.evaluator === 'judge:hostile').map((e) => e.error)).toEqual(['garbage', 'out_of_range', 'http', 'connection', null, 'garbage', null]);
    expect(metrics.scores.map((s) => s.score)).toEqual([0.75, 0.75]);
    expect(store.evaluations.filter((e) => e.stage === 2)).toHaveLength(modes.length);
  });

  test('a judge that times out (on injected timers) is an error; the pipeline drains', async () => {
    server.mode = 'hang';
    const timers = new FakeTimers(T0);
    const judge = createOpenAIJudge({ baseURL: server.baseURL, model: 'hostile', timers, timeoutMs: 10_000 });
    const { metrics, pipeline } = setup({ judge, judgeShare: 1, rubrics: DEFAULT_RUBRICS.slice(0, 1), maxConcurrency: 2 });
    for (let i = 0; i < 3; i++) pipeline.accept(sampleInput(i));
    const drained = pipeline.drain();
    for (let i = 0; i < 5; i++) await timers.advance(10_000);
    await drained;
    expect(metrics.evaluations.filter((e) => e.evaluator === 'judge:hostile').map((e) => e.error)).toEqual(['timeout', 'timeout', 'timeout']);
  });
});
