/**
 * src/quality's OpenAI judge (the real `openai` client) against the simulator's judge endpoint:
 * the header lines the two modules share agree, verdicts are read, drift shows in the scores,
 * and the hostile variants fail as the pipeline expects.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FakeTimers, flushAsync } from '../../src/model/testing/fake-timers.js';
import { createOpenAIJudge, DEFAULT_RUBRICS, JudgeError, type JudgeFailure } from '../../src/quality/judge/index.js';
import type { SampledPair } from '../../src/quality/index.js';
import { startSimulation, type RunningSimulation } from '../../src/sim/index.js';

const T0 = Date.UTC(2025, 0, 6, 9);
let run: RunningSimulation;
beforeAll(async () => {
  run = await startSimulation({ scenario: 'steady', mode: 'manual', seed: 7, clock: () => T0 });
});
afterAll(async () => {
  await run.close();
});

const pair = (i: number): SampledPair => ({
  id: `p${i}`,
  tMs: T0,
  endpoint: 'chat',
  component: 'gpt-oss-20b',
  model: 'openai/gpt-oss-20b',
  prompt: `user: question ${i} <script>alert(1)</script>`,
  response: `answer ${i} <b>bold</b>`,
  status: 200,
  finishReason: 'stop',
  promptTokens: 10,
  completionTokens: 5,
  wantJson: false,
  ttftS: 0.1,
  e2eS: 1,
});

describe('createOpenAIJudge against the simulator’s judge', () => {
  test('verdicts name the evaluated component (the header lines agree); drift lowers relevance', async () => {
    const judge = createOpenAIJudge({ baseURL: `${run.url}/v1`, model: 'infersight-sim-judge' });
    const rubric = DEFAULT_RUBRICS.find((r) => r.dimension === 'relevance')!;
    const v = await judge.judge(pair(0), rubric);
    expect(v.reasoning).toContain('relevance rubric');
    expect(v.reasoning).toContain('component gpt-oss-20b');
    expect(v.tokens.input).toBeGreaterThan(100);
    const mean = async () => {
      let s = 0;
      for (let i = 0; i < 100; i++) s += (await judge.judge(pair(i), rubric)).score;
      return s / 100;
    };
    const before = await mean();
    run.injectFault({ kind: 'quality-drift', startMs: 0, endMs: 3_600_000, scope: { component: 'gpt-oss-20b' } });
    await run.advanceTo(run.simulation.nowMs + 31 * 60_000);
    expect(await mean()).toBeLessThan(before - 0.15);
  });

  test.each<[string, JudgeFailure]>([
    ['error', 'http'],
    ['garbage', 'garbage'],
    ['score7', 'out_of_range'],
    ['reset', 'connection'],
  ])('the %s variant fails as %s', async (variant, reason) => {
    const judge = createOpenAIJudge({ baseURL: `${run.url}/v1`, model: `infersight-sim-judge:${variant}` });
    const err = await judge.judge(pair(1), DEFAULT_RUBRICS[0]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JudgeError);
    expect((err as JudgeError).reason).toBe(reason);
  });

  test('the hang variant times out on the injected timers', async () => {
    const timers = new FakeTimers(T0);
    const judge = createOpenAIJudge({ baseURL: `${run.url}/v1`, model: 'infersight-sim-judge:hang', timers, timeoutMs: 1000 });
    const p = judge.judge(pair(1), DEFAULT_RUBRICS[0]).then(
      () => null,
      (e: unknown) => e as JudgeError,
    );
    await flushAsync(20);
    await timers.advance(1000);
    expect((await p)?.reason).toBe('timeout');
  });
});
