import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestOutcome } from './request.js';
import { Simulation } from './simulation.js';
import { startSimulation, type RunningSimulation } from './start.js';
import { singleReplica } from './testing/scenario.js';
import { driveUntil } from './testing/drive.js';

const T0 = Date.UTC(2025, 0, 6, 9);
let run: RunningSimulation;

beforeAll(async () => {
  run = await startSimulation({ scenario: 'steady', mode: 'manual', seed: 5, clock: () => T0 });
});
afterAll(async () => {
  await run.close();
});

/** Advances virtual time until `p` settles (the engines need time to run). */
function drive<T>(p: Promise<T>): Promise<T> {
  return driveUntil(run, p);
}

async function post(path: string, body: unknown): Promise<{ status: number; type: string; text: string }> {
  return drive(
    fetch(`${run.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (r) => ({
      status: r.status,
      type: r.headers.get('content-type') ?? '',
      text: await r.text(),
    })),
  );
}

/** Splits an SSE body into its `data:` payloads, checking the framing. */
function events(text: string): string[] {
  expect(text.endsWith('\n\n')).toBe(true);
  return text
    .slice(0, -2)
    .split('\n\n')
    .map((e) => {
      expect(e.startsWith('data: ')).toBe(true);
      return e.slice('data: '.length);
    });
}

const messages = [{ role: 'user', content: 'Explain KV-cache preemption in two sentences.' }];

describe('OpenAI-compatible endpoints', () => {
  it('chat completions stream chunks with choices[].delta.content, a finish_reason, usage and [DONE]', async () => {
    const r = await post('/v1/chat/completions', { model: 'openai/gpt-oss-20b', messages, stream: true, max_tokens: 64, stream_options: { include_usage: true } });
    expect(r.status).toBe(200);
    expect(r.type).toContain('text/event-stream');
    const ev = events(r.text);
    expect(ev[ev.length - 1]).toBe('[DONE]');
    const chunks = ev.slice(0, -1).map((e) => JSON.parse(e));
    for (const c of chunks) {
      expect(c).toMatchObject({ object: 'chat.completion.chunk', model: 'openai/gpt-oss-20b' });
      expect(c.id).toMatch(/^chatcmpl-/);
      expect(typeof c.created).toBe('number');
    }
    expect(chunks[0].choices[0].delta).toEqual({ role: 'assistant', content: '' });
    const usage = chunks[chunks.length - 1];
    expect(usage.choices).toEqual([]);
    const final = chunks[chunks.length - 2].choices[0];
    expect(['stop', 'length']).toContain(final.finish_reason);
    expect(final.delta).toEqual({});
    const content = chunks.slice(1, -2).map((c) => c.choices[0].delta.content as string);
    expect(content.every((s) => typeof s === 'string' && s.length > 0)).toBe(true);
    expect(usage.usage.completion_tokens).toBe(content.length);
    expect(usage.usage.total_tokens - usage.usage.prompt_tokens).toBe(content.length);
  });

  it('legacy completions stream choices[].text; unary answers carry the whole text and usage', async () => {
    const s = await post('/v1/completions', { model: 'Qwen/Qwen2.5-7B-Instruct', prompt: 'Once upon a time', stream: true, max_tokens: 16 });
    const chunks = events(s.text).slice(0, -1).map((e) => JSON.parse(e));
    expect(chunks.every((c) => c.object === 'text_completion' && typeof c.choices[0].text === 'string')).toBe(true);
    const u = await post('/v1/chat/completions', { model: 'meta-llama/Llama-3.1-8B-Instruct', messages, max_tokens: 32 });
    expect(u.status).toBe(200);
    const body = JSON.parse(u.text);
    expect(body).toMatchObject({ object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant' } }] });
    expect(body.usage.completion_tokens).toBeGreaterThan(0);
    expect(body.choices[0].message.content.split(' ').length).toBe(body.usage.completion_tokens);
  });

  it('refuses with OpenAI error bodies: unknown model 404, prompt over the context window 400', async () => {
    const a = await post('/v1/chat/completions', { model: 'nope', messages });
    expect(a.status).toBe(404);
    expect(JSON.parse(a.text).error.message).toContain("'nope'");
    const b = await post('/v1/chat/completions', { model: 'openai/gpt-oss-20b', messages: [{ role: 'user', content: 'x'.repeat(70_000) }], stream: true });
    expect(b.status).toBe(400);
    expect(JSON.parse(b.text).error).toMatchObject({ type: 'BadRequestError', code: 400 });
  });

  it('a replica serves its own OpenAI endpoint under its target path, and counts the request natively', async () => {
    const target = run.targets().find((t) => t.replica?.component.spec.engine === 'vllm')!;
    const before = target.replica!.stats!.finishedStop + target.replica!.stats!.finishedLength;
    const r = await post(`/targets/${target.id}/v1/chat/completions`, { model: 'openai/gpt-oss-20b', messages, max_tokens: 8 });
    expect(r.status).toBe(200);
    expect(target.replica!.stats!.finishedStop + target.replica!.stats!.finishedLength).toBeGreaterThan(before);
  });

  it('the openai client library accepts the stream', async () => {
    const client = new OpenAI({ baseURL: `${run.url}/v1`, apiKey: 'sim', maxRetries: 0 });
    const text = await drive(
      (async () => {
        const stream = await client.chat.completions.create({ model: 'openai/gpt-oss-20b', messages: [{ role: 'user', content: 'hello' }], stream: true, max_completion_tokens: 24 });
        let out = '';
        let finish: string | null = null;
        for await (const chunk of stream) {
          out += chunk.choices[0]?.delta.content ?? '';
          finish = chunk.choices[0]?.finish_reason ?? finish;
        }
        expect(['stop', 'length']).toContain(finish);
        return out;
      })(),
    );
    expect(text.length).toBeGreaterThan(0);
  });
});

describe('/metrics over HTTP', () => {
  it('negotiates OpenMetrics for engines; the DCGM exporter stays on text 0.0.4', async () => {
    const om = 'application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5';
    const engine = run.targets().find((t) => t.kind === 'engine')!;
    const dcgm = run.targets().find((t) => t.kind === 'dcgm')!;
    const a = await fetch(`${run.url}/targets/${engine.id}/metrics`, { headers: { accept: om } });
    expect(a.headers.get('content-type')).toContain('application/openmetrics-text');
    expect((await a.text()).endsWith('# EOF\n')).toBe(true);
    const b = await fetch(`${run.url}/targets/${dcgm.id}/metrics`, { headers: { accept: om } });
    expect(b.headers.get('content-type')).toContain('text/plain; version=0.0.4');
    expect(await b.text()).toContain('DCGM_FI_DEV_GPU_UTIL{');
    expect((await fetch(`${run.url}/targets/nope/metrics`)).status).toBe(404);
  });
});

describe('token timing', () => {
  it("a stream's first-token and inter-token times are the engine's TTFT and ITL", () => {
    const sim = new Simulation({ scenario: singleReplica('vllm', 0), seed: 1, startMs: T0 });
    sim.advanceTo(T0 + 1000);
    const times: number[] = [];
    let end: RequestOutcome | undefined;
    sim.submit(sim.component('c')!, { promptTokens: 3000, maxTokens: 50, outputTokens: 50 }, {
      onTokens: (count, firstMs, intervalMs) => {
        for (let i = 0; i < count; i++) times.push(firstMs + i * intervalMs);
      },
      onEnd: (o) => (end = o),
    });
    sim.advanceTo(T0 + 60_000);
    expect(end).toEqual({ kind: 'finished', reason: 'length' });
    expect(times.length).toBe(50);
    const s = sim.fleet.replicas[0].stats!;
    expect((times[0] - (T0 + 1000)) / 1000).toBeCloseTo(s.h.ttft!.sum, 6);
    expect((times[49] - times[0]) / 1000).toBeCloseTo(s.h.itl!.sum, 6);
    expect(s.h.ttft!.sum).toBeGreaterThan(0.5); // 3,000 prompt tokens on an L4
    expect(s.h.itl!.sum / s.h.itl!.count).toBeGreaterThan(0.05); // a memory-bound 8B decode step on an L4
  });
});
