import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SIM_JUDGE_MODEL } from './judge.js';
import { startSimulation, type RunningSimulation } from './start.js';

const T0 = Date.UTC(2025, 0, 6, 9);
let run: RunningSimulation;
let client: OpenAI;

beforeAll(async () => {
  run = await startSimulation({ scenario: 'steady', mode: 'manual', seed: 5, clock: () => T0 });
  client = new OpenAI({ baseURL: `${run.url}/v1`, apiKey: 'sim', maxRetries: 0 });
});
afterAll(async () => {
  await run.close();
});

const user = (i: number, dimension = 'relevance', model = 'openai/gpt-oss-20b') => `Evaluated model: ${JSON.stringify(model)}\nDimension: ${dimension}\nRubric (r):\nJudge pair ${i}.`;

async function ask(model: string, content: string) {
  return client.chat.completions.create({ model, messages: [{ role: 'system', content: 'Answer JSON.' }, { role: 'user', content }], max_completion_tokens: 64 });
}

describe('the simulator’s judge', () => {
  test('answers a JSON verdict with usage, the same for the same texts', async () => {
    const a = await ask(SIM_JUDGE_MODEL, user(1));
    const b = await ask(SIM_JUDGE_MODEL, user(1));
    const v = JSON.parse(a.choices[0].message.content!);
    expect(Object.keys(v).sort()).toEqual(['reasoning', 'score']);
    expect(v.score).toBeGreaterThanOrEqual(0);
    expect(v.score).toBeLessThanOrEqual(1);
    expect(v.reasoning).toContain('component gpt-oss-20b');
    expect(b.choices[0].message.content).toBe(a.choices[0].message.content);
    expect(a.usage!.prompt_tokens).toBeGreaterThan(10);
    expect(a.usage!.completion_tokens).toBeGreaterThan(0);
  });

  test('a quality-drift fault lowers the relevance scores of its component only', async () => {
    const mean = async (model: string) => {
      let sum = 0;
      for (let i = 0; i < 120; i++) sum += (JSON.parse((await ask(SIM_JUDGE_MODEL, user(i, 'relevance', model))).choices[0].message.content!) as { score: number }).score;
      return sum / 120;
    };
    const models = run.simulation.fleet.components.map((c) => c.model.name);
    const other = models.find((m) => m !== 'openai/gpt-oss-20b')!;
    const before = [await mean('openai/gpt-oss-20b'), await mean(other)];
    run.injectFault({ kind: 'quality-drift', startMs: 0, endMs: 3_600_000, scope: { component: 'gpt-oss-20b' }, params: { drop: 0.5 } });
    await run.advanceTo(run.simulation.nowMs + 31 * 60_000);
    const after = [await mean('openai/gpt-oss-20b'), await mean(other)];
    expect(after[0]).toBeLessThan(before[0] - 0.2);
    expect(after[1]).toBe(before[1]);
  });

  test.each<[string, number | 'reset', string]>([
    [':error', 500, 'the judge model failed'],
    [':nope', 404, 'judge variants'],
    [':reset', 'reset', ''],
  ])('%s', async (suffix, want, words) => {
    const err = await ask(SIM_JUDGE_MODEL + suffix, user(1)).then(
      () => null,
      (e: unknown) => e as InstanceType<typeof OpenAI.APIError>,
    );
    expect(err).toBeInstanceOf(OpenAI.APIError);
    if (want === 'reset') expect(err).toBeInstanceOf(OpenAI.APIConnectionError);
    else {
      expect(err!.status).toBe(want);
      expect(err!.message).toContain(words);
    }
  });

  test.each<[string, string]>([
    [':garbage', '/10'],
    [':score7', '"score":7'],
  ])('%s answers 200 with a bad verdict', async (suffix, words) => {
    expect((await ask(SIM_JUDGE_MODEL + suffix, user(1))).choices[0].message.content).toContain(words);
  });

  test(':hang answers nothing until the client gives up', async () => {
    const ac = new AbortController();
    const p = client.chat.completions.create({ model: `${SIM_JUDGE_MODEL}:hang`, messages: [{ role: 'user', content: user(1) }] }, { signal: ac.signal }).catch((e: unknown) => e);
    ac.abort();
    expect(await p).toBeInstanceOf(OpenAI.APIUserAbortError);
  });
});
