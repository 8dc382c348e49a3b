/**
 * The gateway in front of simulated engines (manual virtual time): the official `openai` client
 * streaming and not, limits answering 429 with Retry-After, a failing replica ejected while
 * traffic moves to the other AZs, a mid-stream engine failure, and client disconnects.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningGateway } from '../../src/gateway/index.js';
import type { MemoryStorage } from '../../src/storage/testing/index.js';
import { validateGatewayConfig } from '../../src/gateway/index.js';
import { gatewayModelsFromSim } from '../../src/server/gateway.js';
import { startSimulation, type RunningSimulation } from '../../src/sim/index.js';
import { MODEL, gatewayForSim, threeAzScenario } from './testing/sim-fleet.js';
import { driveUntil } from '../../src/sim/testing/drive.js';

const T0 = Date.UTC(2025, 0, 6, 9);
let run: RunningSimulation;
let gw: RunningGateway;
let store: MemoryStorage;

beforeAll(async () => {
  run = await startSimulation({ scenario: threeAzScenario(), mode: 'manual', seed: 11, clock: () => T0 });
  ({ gw, store } = await gatewayForSim(run, { local_az: 'az-a', ejection: { consecutive_failures: 2, base_time: '10m' } }));
});
afterAll(async () => {
  await gw.close();
  await run.close();
});

/** Advances virtual time until `p` settles (the engines need time to run). */
function drive<T>(p: Promise<T>): Promise<T> {
  return driveUntil(run, p);
}

async function value(name: string, match: Record<string, string> = {}): Promise<number> {
  await gw.flush();
  return store.latest(name, match);
}

const client = (): OpenAI => new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: 'test', maxRetries: 0 });
const ask = [{ role: 'user' as const, content: 'Explain KV-cache preemption in two sentences.' }];

function reconfigure(rest: Record<string, unknown>, perModel: Record<string, unknown> = {}): void {
  gw.reconfigure(validateGatewayConfig({ health_check: { enabled: false }, local_az: 'az-a', ...rest, models: gatewayModelsFromSim(run.targets(), run.url, perModel) }));
}

describe('the official openai client through the gateway', () => {
  it('streams, with content, a finish reason and exact usage counted by the gateway', async () => {
    const { text, finish, usage } = await drive(
      (async () => {
        const stream = await client().chat.completions.create({ model: MODEL, messages: ask, stream: true, max_completion_tokens: 24, stream_options: { include_usage: true } });
        let text = '';
        let finish: string | null = null;
        let usage: OpenAI.CompletionUsage | undefined;
        for await (const chunk of stream) {
          text += chunk.choices[0]?.delta.content ?? '';
          finish = chunk.choices[0]?.finish_reason ?? finish;
          usage = chunk.usage ?? usage;
        }
        return { text, finish, usage };
      })(),
    );
    expect(text.length).toBeGreaterThan(0);
    expect(['stop', 'length']).toContain(finish);
    expect(usage!.completion_tokens).toBe(text.trim().split(' ').length);
    expect(await value('llm_client_request_tokens_sum', { token_type: 'output', usage: 'reported' })).toBe(usage!.completion_tokens);
    expect(await value('llm_client_requests_total', { status_class: '2xx', stream: 'true' })).toBe(1);
    expect(await value('llm_client_time_to_first_token_seconds_count', { stream: 'true' })).toBe(1);
  });

  it('answers non-streaming requests and legacy completions', async () => {
    const c = await drive(client().chat.completions.create({ model: 'llama', messages: ask, max_completion_tokens: 16 }));
    expect(c.choices[0].message.content!.length).toBeGreaterThan(0);
    expect(c.usage!.completion_tokens).toBeGreaterThan(0);
    const l = await drive(client().completions.create({ model: MODEL, prompt: 'Once upon a time', max_tokens: 8 }));
    expect(l.choices[0].text.length).toBeGreaterThan(0);
    expect(await value('llm_client_requests_total', { status_class: '2xx', stream: 'false' })).toBe(2);
    const models = await client().models.list();
    expect(models.data.map((m) => m.id).sort()).toEqual(['llama', MODEL]);
  });

  it('an unknown model is a NotFoundError', async () => {
    await expect(client().chat.completions.create({ model: 'gpt-17', messages: ask })).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
  });
});

describe('limits', () => {
  it('over the concurrency limit: 429 with Retry-After, while the admitted request completes', async () => {
    reconfigure({}, { max_concurrency: 1 });
    const first = fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: MODEL, messages: ask, max_tokens: 8 }) });
    // No virtual time passes, so the first request is still in the engine.
    for (let i = 0; i < 100 && gw.pool(MODEL)!.limits.inFlight === 0; i++) await new Promise<void>((r) => setImmediate(r));
    const second = await fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: MODEL, messages: ask, max_tokens: 8 }) });
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toBe('1');
    expect(((await second.json()) as { error: { type: string; code: string } }).error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded' });
    expect((await drive(first)).status).toBe(200);
    expect(await value('llm_client_requests_total', { status_class: '429' })).toBeGreaterThanOrEqual(1);
  });

  it('over the token rate: 429 whose Retry-After says when the request fits', async () => {
    reconfigure({}, { tokens_per_minute: 600 });
    const ok = await drive(client().chat.completions.create({ model: MODEL, messages: ask, max_completion_tokens: 500 }));
    expect(ok.usage!.total_tokens).toBeLessThan(600);
    // The first request used its tokens: 600 per minute = 10 per second; a 500-token request waits.
    const r = await fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: MODEL, messages: ask, max_tokens: 500 }) });
    expect(r.status).toBe(429);
    const after = Number(r.headers.get('retry-after'));
    expect(after).toBeGreaterThan(1);
    expect(after).toBeLessThanOrEqual(60);
    await expect(client().chat.completions.create({ model: MODEL, messages: ask, max_completion_tokens: 500 })).rejects.toMatchObject({ status: 429 });
    reconfigure({});
  });
});

describe('failures', () => {
  it('a failing replica is ejected and traffic moves to healthy replicas in other AZs, with no client error', async () => {
    reconfigure({ ejection: { consecutive_failures: 2, base_time: '10m' } });
    const local = run.simulation.fleet.replicas.find((r) => r.instance.az === 'az-a')!;
    run.injectFault({ kind: 'engine-errors', startMs: 0, endMs: 3_600_000, scope: { replica: local.id }, params: { http500: 1, http503: 0, midStreamAbort: 0 } });
    await run.advanceTo(run.simulation.nowMs + 1000);
    const base = { replica: local.id };
    const before = async (): Promise<Record<string, number>> => ({
      crossAz: await value('llm_gateway_routing_decisions_total', { decision: 'cross_az' }),
      localServed: await value('llm_client_requests_total', { ...base, status_class: '2xx' }),
      localPicked: await value('llm_gateway_routing_decisions_total', { ...base, decision: 'local_az' }),
    });
    const b = await before();
    for (let i = 0; i < 6; i++) {
      const r = await drive(client().chat.completions.create({ model: MODEL, messages: ask, max_completion_tokens: 4 }));
      expect(r.choices[0].message.content!.length).toBeGreaterThan(0);
    }
    expect(await value('llm_gateway_replica_ejections_total', { ...base, reason: '5xx' })).toBe(1);
    expect(await value('llm_gateway_replica_healthy', base)).toBe(0);
    const a = await before();
    expect(a.localServed - b.localServed).toBe(0);
    // Only the two failures before the ejection reached the failing replica; each was retried in
    // another AZ, and every later request went there first. Every client got an answer.
    expect(a.localPicked - b.localPicked).toBe(2);
    expect(a.crossAz - b.crossAz).toBe(6);
    expect(await value('llm_client_errors_total', base)).toBe(0);
  });

  it('a mid-stream engine failure is counted and the client gets a well-formed error event', async () => {
    reconfigure({});
    run.injectFault({ kind: 'engine-errors', startMs: 0, endMs: 3_600_000, scope: { component: 'llama' }, params: { http500: 0, http503: 0, midStreamAbort: 1 } });
    await run.advanceTo(run.simulation.nowMs + 1000);
    const err = await drive(
      (async () => {
        const stream = await client().chat.completions.create({ model: MODEL, messages: ask, stream: true, max_completion_tokens: 64 });
        try {
          for await (const _ of stream) {
            // consume
          }
          return null;
        } catch (e) {
          return e;
        }
      })(),
    );
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect((err as Error).message).toMatch(/abort|fail|error/i);
    expect(await value('llm_client_mid_stream_errors_total', { error_class: 'upstream_error' })).toBe(1);
    expect(await value('llm_client_requests_total', { status_class: '2xx', stream: 'true' })).toBeGreaterThanOrEqual(2);
  });

  it('a client that disconnects mid-stream frees its replica and is counted', async () => {
    const ac = new AbortController();
    const res = await drive(fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'llama', messages: ask, stream: true, max_tokens: 512 }), signal: ac.signal }));
    const reader = res.body!.getReader();
    await drive(reader.read());
    ac.abort();
    for (let i = 0; i < 200 && gw.pool(MODEL)!.replicas.some((r) => r.outstanding > 0); i++) await new Promise<void>((r) => setImmediate(r));
    expect(gw.pool(MODEL)!.replicas.every((r) => r.outstanding === 0)).toBe(true);
    expect(await value('llm_client_mid_stream_errors_total', { error_class: 'client_disconnect' })).toBe(1);
    expect(await value('llm_client_requests_in_flight')).toBe(0);
  });
});
