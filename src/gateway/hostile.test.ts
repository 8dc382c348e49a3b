import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from './testing/fake-upstream.js';
import { modelEntry, startTestGateway, type TestGateway } from './testing/gateway.js';

let up: FakeUpstream;
let t: TestGateway;
beforeAll(async () => {
  up = await startFakeUpstream({ chunks: 2 });
  t = await startTestGateway({ limits: { max_body_bytes: '64KiB' }, models: [modelEntry('m', [up.url]), { name: 'empty', replicas: [] }] });
});
afterAll(async () => {
  await t.gw.close();
  await up.close();
});

/** Sends raw bytes and reads the whole answer (so that broken framing is ours to see). */
function raw(method: string, path: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const u = new URL(t.gw.url);
    const req = http.request({ host: u.hostname, port: u.port, method, path, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function stillServes(): Promise<void> {
  const r = await t.post('/v1/chat/completions', { model: 'm', messages: [{ role: 'user', content: 'hi' }] });
  expect(r.status).toBe(200);
}

const msgs = [{ role: 'user', content: 'hi' }];

describe('hostile input gets an OpenAI-shaped error and the gateway keeps serving', () => {
  it.each([
    ['malformed JSON', '/v1/chat/completions', '{"model": "m", "messages": [', 400, 'invalid_json', null],
    ['not an object', '/v1/chat/completions', '[1,2,3]', 400, 'invalid_request', null],
    ['JSON null', '/v1/chat/completions', 'null', 400, 'invalid_request', null],
    ['model missing', '/v1/chat/completions', JSON.stringify({ messages: msgs }), 400, 'invalid_request', 'model'],
    ['model a number', '/v1/chat/completions', JSON.stringify({ model: 7, messages: msgs }), 400, 'invalid_request', 'model'],
    ['messages a string', '/v1/chat/completions', JSON.stringify({ model: 'm', messages: 'hi' }), 400, 'invalid_request', 'messages'],
    ['messages empty', '/v1/chat/completions', JSON.stringify({ model: 'm', messages: [] }), 400, 'invalid_request', 'messages'],
    ['a message without role', '/v1/chat/completions', JSON.stringify({ model: 'm', messages: [{ content: 'x' }] }), 400, 'invalid_request', 'messages[0]'],
    ['content an object', '/v1/chat/completions', JSON.stringify({ model: 'm', messages: [{ role: 'user', content: { a: 1 } }] }), 400, 'invalid_request', 'messages[0].content'],
    ['stream a string', '/v1/chat/completions', JSON.stringify({ model: 'm', messages: msgs, stream: 'yes' }), 400, 'invalid_request', 'stream'],
    ['stream_options an array', '/v1/chat/completions', JSON.stringify({ model: 'm', messages: msgs, stream_options: [] }), 400, 'invalid_request', 'stream_options'],
    ['max_tokens negative', '/v1/chat/completions', JSON.stringify({ model: 'm', messages: msgs, max_tokens: -5 }), 400, 'invalid_request', 'max_tokens'],
    ['max_tokens fractional', '/v1/chat/completions', JSON.stringify({ model: 'm', messages: msgs, max_tokens: 1.5 }), 400, 'invalid_request', 'max_tokens'],
    ['prompt missing', '/v1/completions', JSON.stringify({ model: 'm' }), 400, 'invalid_request', 'prompt'],
    ['prompt an object', '/v1/completions', JSON.stringify({ model: 'm', prompt: { x: 1 } }), 400, 'invalid_request', 'prompt'],
    ['unknown model', '/v1/chat/completions', JSON.stringify({ model: 'gpt-17', messages: msgs }), 404, 'model_not_found', 'model'],
    ['no replica', '/v1/chat/completions', JSON.stringify({ model: 'empty', messages: msgs }), 503, 'no_healthy_upstream', null],
    ['invalid UTF-8', '/v1/chat/completions', Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), 400, 'invalid_json', null],
  ])('%s', async (_name, path, body, status, code, param) => {
    const r = await raw('POST', path, body);
    expect(r.status).toBe(status);
    const e = JSON.parse(r.body).error;
    expect(e).toMatchObject({ code, param });
    expect(typeof e.message).toBe('string');
    expect(typeof e.type).toBe('string');
    await stillServes();
  });

  it('a huge body is refused with 413, declared or not', async () => {
    const big = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x'.repeat(200_000) }] });
    const a = await raw('POST', '/v1/chat/completions', big);
    expect(a.status).toBe(413);
    expect(JSON.parse(a.body).error.code).toBe('request_too_large');
    const b = await raw('POST', '/v1/chat/completions', big, { 'transfer-encoding': 'chunked' });
    expect(JSON.parse(b.body).error.code).toBe('request_too_large');
    expect(b.status).toBe(413);
    await stillServes();
  });

  it('wrong methods and unknown paths', async () => {
    const a = await raw('GET', '/v1/chat/completions', '');
    expect(a.status).toBe(405);
    expect(JSON.parse(a.body).error.code).toBe('method_not_allowed');
    const b = await raw('POST', '/v2/whatever', '{}');
    expect(b.status).toBe(404);
    expect(JSON.parse(b.body).error.code).toBe('not_found');
    await stillServes();
  });

  it('garbage on the socket gets a 400 and leaves the listener up', async () => {
    const net = await import('node:net');
    const u = new URL(t.gw.url);
    const answer = await new Promise<string>((resolve) => {
      const s = net.connect(Number(u.port), u.hostname, () => s.write('NOT HTTP AT ALL\r\n\r\n'));
      let got = '';
      s.on('data', (d: Buffer) => (got += d.toString()));
      s.on('close', () => resolve(got));
    });
    expect(answer).toContain('400');
    await stillServes();
  });

  it('lists the models, and counts refusals without labelling them with the unknown name', async () => {
    const r = await fetch(`${t.gw.url}/v1/models`);
    const body = (await r.json()) as { data: { id: string }[] };
    expect(body.data.map((d) => d.id)).toEqual(['empty', 'm']);
    await t.gw.flush();
    expect(t.store.committed.some((s) => s.labels.get('model') === 'gpt-17')).toBe(false);
    expect(await t.value('llm_client_requests_total', { status_class: '4xx' })).toBeGreaterThan(10);
    expect(await t.value('llm_client_requests_total', { status_class: '5xx', model: 'empty' })).toBe(1);
    expect(await t.value('llm_client_errors_total', { error_class: 'no_healthy_replica', model: 'empty' })).toBe(1);
  });
});
