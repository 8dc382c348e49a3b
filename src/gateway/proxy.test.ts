import { describe, expect, it } from 'vitest';
import { useCleanups } from '../model/testing/cleanups.js';
import { flushAsync as settle } from '../model/testing/fake-timers.js';
import { startFakeUpstream, type FakeUpstream, type UpstreamScript } from './testing/fake-upstream.js';
import { modelEntry, sseData, startTestGateway, type TestGateway } from './testing/gateway.js';

const cleanups = useCleanups();

async function setup(scripts: UpstreamScript[], extra: Record<string, unknown> = {}, model: Record<string, unknown> = {}): Promise<{ t: TestGateway; ups: FakeUpstream[] }> {
  const ups = await Promise.all(scripts.map((s) => startFakeUpstream(s)));
  for (const u of ups) cleanups.push(() => u.close());
  const t = await startTestGateway({ models: [modelEntry('m', ups.map((u) => u.url), model)], ...extra });
  cleanups.push(() => t.gw.close());
  return { t, ups };
}

const chat = (o: Record<string, unknown> = {}) => ({ model: 'm', messages: [{ role: 'user', content: 'hello there' }], ...o });

describe('pass-through', () => {
  it('streams the upstream events unchanged, asks for usage upstream and drops the usage chunk the client did not ask for', async () => {
    const { t, ups } = await setup([{ chunks: 4 }]);
    const r = await t.post('/v1/chat/completions', chat({ stream: true }));
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/event-stream');
    const ev = sseData(r.text);
    expect(ev[ev.length - 1]).toBe('[DONE]');
    expect(ev.some((e) => e.includes('"usage"'))).toBe(false);
    expect(ev.filter((e) => e.includes('" w')).length).toBe(4);
    expect(ups[0].bodies[0]).toMatchObject({ model: 'm', stream: true, stream_options: { include_usage: true } });
    // Usage was still reported upstream, so the token counts are exact.
    expect(await t.value('llm_client_request_tokens_sum', { token_type: 'output', usage: 'reported' })).toBe(4);
  });

  it('passes the usage chunk through when the client asked for it, and reassembles split events', async () => {
    const { t } = await setup([{ chunks: 3, split: true }]);
    const r = await t.post('/v1/chat/completions', chat({ stream: true, stream_options: { include_usage: true } }));
    const ev = sseData(r.text);
    expect(ev.map((e) => (e === '[DONE]' ? e : Object.keys(JSON.parse(e)).includes('usage') ? 'usage' : 'chunk'))).toEqual(['chunk', 'chunk', 'chunk', 'chunk', 'chunk', 'usage', '[DONE]']);
    for (const e of ev.slice(0, -1)) expect(() => JSON.parse(e)).not.toThrow();
  });

  it('answers non-streaming requests whole and counts finish reasons and tokens', async () => {
    const { t } = await setup([{ chunks: 6, text: 'one two three' }]);
    const r = await t.post('/v1/chat/completions', chat({ max_tokens: 10 }));
    expect(r.status).toBe(200);
    expect(r.json.choices[0].message.content).toBe('one two three');
    expect(await t.value('llm_client_requests_total', { status_class: '2xx', stream: 'false', replica: 'r0' })).toBe(1);
    expect(await t.value('llm_client_requests_finished_total', { finish_reason: 'stop' })).toBe(1);
    expect(await t.value('llm_client_request_tokens_sum', { token_type: 'input', usage: 'reported' })).toBe(7);
    expect(await t.value('llm_client_time_to_first_token_seconds_count')).toBe(0);
    expect(await t.value('llm_client_request_duration_seconds_count', { stream: 'false' })).toBe(1);
  });

  it('estimates token counts, marked as estimated, when the upstream reports none', async () => {
    const { t } = await setup([{ chunks: 5, usage: false }]);
    await t.post('/v1/chat/completions', chat({ stream: true }));
    expect(await t.value('llm_client_request_tokens_sum', { token_type: 'output', usage: 'estimated' })).toBe(5);
    expect(await t.value('llm_client_request_tokens_count', { usage: 'reported' })).toBe(0);
  });

  it('measures TTFT, inter-chunk gaps, E2E, model latency and overhead per replica and path', async () => {
    const { t } = await setup([{ chunks: 5 }]);
    await t.post('/v1/chat/completions', chat({ stream: true }));
    const l = { replica: 'r0', stream: 'true', job: 'gateway', model: 'm', az: 'az0' };
    expect(await t.value('llm_client_time_to_first_token_seconds_count', l)).toBe(1);
    expect(await t.value('llm_client_inter_token_latency_seconds_count', l)).toBe(4);
    const e2e = await t.value('llm_client_request_duration_seconds_sum', l);
    const model = await t.value('llm_client_model_latency_seconds_sum', l);
    const overhead = await t.value('llm_client_overhead_latency_seconds_sum', l);
    expect(e2e).toBeGreaterThan(0);
    expect(model).toBeLessThanOrEqual(e2e);
    expect(overhead).toBeCloseTo(e2e - model, 9);
    expect(await t.value('llm_gateway_routing_decisions_total', { decision: 'any_az', attempt: 'first' })).toBe(1);
    expect(await t.value('llm_client_requests_in_flight')).toBe(0);
  });
});

describe('failures', () => {
  it('a mid-stream reset ends the client stream with a well-formed error event and counts a mid-stream error', async () => {
    const { t } = await setup([{ chunks: 10, resetAfter: 3 }]);
    const r = await t.post('/v1/chat/completions', chat({ stream: true }));
    expect(r.status).toBe(200);
    const ev = sseData(r.text);
    const last = JSON.parse(ev[ev.length - 1]);
    expect(last.error).toMatchObject({ type: 'server_error', code: 'upstream_error' });
    for (const e of ev) expect(() => JSON.parse(e)).not.toThrow();
    expect(await t.value('llm_client_mid_stream_errors_total', { error_class: 'upstream_reset' })).toBe(1);
    expect(await t.value('llm_client_requests_total', { status_class: '2xx' })).toBe(1);
  });

  it("an upstream's own error event passes through and counts as a mid-stream upstream error", async () => {
    const { t } = await setup([{ chunks: 10, errorAfter: 2 }]);
    const r = await t.post('/v1/chat/completions', chat({ stream: true }));
    const ev = sseData(r.text);
    expect(JSON.parse(ev[ev.length - 1]).error.message).toBe('engine failed mid-stream');
    expect(await t.value('llm_client_mid_stream_errors_total', { error_class: 'upstream_error' })).toBe(1);
  });

  it('a client disconnect cancels the upstream request', async () => {
    const { t, ups } = await setup([{ chunks: 10, hangAfter: 2 }]);
    const ac = new AbortController();
    const res = await fetch(`${t.gw.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(chat({ stream: true })), signal: ac.signal });
    const reader = res.body!.getReader();
    await reader.read();
    expect(ups[0].open).toBe(1);
    ac.abort();
    for (let i = 0; i < 200 && ups[0].cancelled === 0; i++) await settle(5);
    expect(ups[0].cancelled).toBe(1);
    expect(ups[0].open).toBe(0);
    expect(await t.value('llm_client_mid_stream_errors_total', { error_class: 'client_disconnect' })).toBe(1);
    expect(await t.value('llm_client_requests_in_flight')).toBe(0);
  });

  it('retries a 503 on another replica before anything was sent, and counts the retry', async () => {
    const { t } = await setup([{ status: 503 }, { chunks: 2 }]);
    for (let i = 0; i < 4; i++) {
      const r = await t.post('/v1/chat/completions', chat({ stream: true }));
      expect(r.status).toBe(200);
    }
    expect(await t.value('llm_gateway_routing_decisions_total', { attempt: 'retry' })).toBeGreaterThan(0);
    expect(await t.value('llm_client_requests_total', { status_class: '2xx', replica: 'r1' })).toBe(4);
  });

  it('passes an upstream 4xx through unchanged and never retries it', async () => {
    const { t, ups } = await setup([{ status: 400 }, { status: 400 }]);
    const r = await t.post('/v1/chat/completions', chat());
    expect(r.status).toBe(400);
    expect(r.json.error.message).toBe('scripted 400');
    expect(ups[0].bodies.length + ups[1].bodies.length).toBe(1);
  });

  it('answers 502 in OpenAI shape when every attempt fails to connect, and ejects the replica after repeated failures', async () => {
    const dead = await startFakeUpstream();
    await dead.close();
    const { t } = await setup([{ chunks: 1 }], { ejection: { consecutive_failures: 2, max_ejected_percent: 100 }, upstream: { retries: 0 } });
    t.gw.reconfigure({ ...t.config, models: [{ ...t.config.models[0], replicas: [{ url: dead.url, labels: { replica: 'dead', az: 'a' } }] }] });
    const a = await t.post('/v1/chat/completions', chat());
    expect(a.status).toBe(502);
    expect(a.json.error).toMatchObject({ type: 'server_error', code: 'upstream_error' });
    await t.post('/v1/chat/completions', chat());
    expect(await t.value('llm_gateway_replica_ejections_total', { reason: 'connect_error' })).toBe(1);
    expect(await t.value('llm_client_errors_total', { error_class: 'connect' })).toBe(2);
    const c = await t.post('/v1/chat/completions', chat());
    expect(c.status).toBe(503);
    expect(c.json.error.code).toBe('no_healthy_upstream');
    expect(await t.value('llm_gateway_replica_healthy', { replica: 'dead' })).toBe(0);
    // The ejection ends after its backoff.
    await t.timers.advance(10_001);
    expect(await t.value('llm_gateway_replica_healthy', { replica: 'dead' })).toBe(1);
  });

  it('an answer larger than max_response_bytes is a 502, streamed or not', async () => {
    const { t } = await setup([{ text: 'x'.repeat(5000) }], { limits: { max_response_bytes: '1KiB' }, upstream: { retries: 0 } });
    const r = await t.post('/v1/chat/completions', chat());
    expect(r.status).toBe(502);
    expect(r.json.error.code).toBe('upstream_error');
    expect(await t.value('llm_client_errors_total', { error_class: 'response_too_large' })).toBe(1);
    expect((await t.post('/v1/chat/completions', chat({ stream: true }))).status).toBe(200);
  });

  it('a request over its time limit gets 504, or an error event once streaming', async () => {
    const { t, ups } = await setup([{ chunks: 10, hangAfter: 1 }], { limits: { request_timeout: '30s' } });
    const pending = t.post('/v1/chat/completions', chat({ stream: true }));
    for (let i = 0; i < 200 && ups[0].open === 0; i++) await settle(5);
    await t.timers.advance(30_000);
    const r = await pending;
    const ev = sseData(r.text);
    expect(JSON.parse(ev[ev.length - 1]).error.code).toBe('request_timeout');
    for (let i = 0; i < 200 && ups[0].cancelled === 0; i++) await settle(5);
    expect(ups[0].cancelled).toBe(1);
    expect(await t.value('llm_client_mid_stream_errors_total', { error_class: 'timeout' })).toBe(1);
  });
});

describe('sampling', () => {
  it('hands sampled requests to the sink with redacted prompt and response, timings and labels', async () => {
    const { t } = await setup([{ text: 'call me at 555-123-4567' }], { sampling: { rate: 1, redact: [{ pattern: '\\d{3}-\\d{3}-\\d{4}', replacement: '[PHONE]' }] } });
    await t.post('/v1/chat/completions', chat({ messages: [{ role: 'user', content: 'my number is 555-987-6543' }] }));
    await t.post('/v1/chat/completions', chat({ stream: true }));
    expect(t.samples.samples).toHaveLength(2);
    const [a, b] = t.samples.samples;
    expect(JSON.stringify(a)).not.toMatch(/\d{3}-\d{3}-\d{4}/);
    expect(a.response.text).toBe('call me at [PHONE]');
    expect((a.request as { messages: { content: string }[] }).messages[0].content).toBe('my number is [PHONE]');
    expect(a).toMatchObject({ model: 'm', stream: false, status: 200, labels: { replica: 'r0', model: 'm' }, usage: { promptTokens: 7, estimated: false } });
    expect(b.timings.ttftS).toBeGreaterThan(0);
    expect(b.timings.chunks).toBe(5);
    expect(b.response.finishReasons).toEqual(['stop']);
  });

  it('samples nothing by default', async () => {
    const { t } = await setup([{}]);
    await t.post('/v1/chat/completions', chat());
    expect(t.samples.samples).toHaveLength(0);
  });
});
