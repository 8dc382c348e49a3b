/**
 * Test and benchmark helper: a tiny OpenAI-compatible upstream on node:http whose behaviour each
 * test scripts — how many chunks, how they are split, whether it fails before or mid-stream,
 * whether it reports usage — and which records what it saw (bodies, cancelled requests).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the upstream does with the next requests. */
export interface UpstreamScript {
  /** Content chunks of a streamed answer (default 5). */
  chunks?: number;
  /** Milliseconds between chunks (default 0: all at once). */
  gapMs?: number;
  /** Answer with this status and an OpenAI error body instead. */
  status?: number;
  /** Send a usage chunk when asked (default true). */
  usage?: boolean;
  /** Stream mode: after this many content chunks, destroy the socket (mid-stream reset). */
  resetAfter?: number;
  /** Stream mode: after this many chunks, send an error event and end. */
  errorAfter?: number;
  /** Stream mode: after this many chunks, stop sending and keep the connection open. */
  hangAfter?: number;
  /** Split every event into two TCP writes (exercises the framer). */
  split?: boolean;
  /** Non-streaming answer text. */
  text?: string;
  /** Destroy the connection before answering. */
  dropConnection?: boolean;
}

/** A running fake upstream. */
export interface FakeUpstream {
  readonly url: string;
  script: UpstreamScript;
  /** Request bodies received, parsed. */
  readonly bodies: Record<string, unknown>[];
  /** Requests whose connection closed before the answer was complete. */
  cancelled: number;
  /** Requests currently being answered. */
  open: number;
  /** Health-check status to answer on GET /v1/models. */
  healthStatus: number;
  close(): Promise<void>;
}

/** Starts a fake upstream on a free loopback port. */
export async function startFakeUpstream(script: UpstreamScript = {}): Promise<FakeUpstream> {
  const state: FakeUpstream = { url: '', script, bodies: [], cancelled: 0, open: 0, healthStatus: 200, close: async () => undefined };
  const server = http.createServer({ noDelay: true }, (req, res) => {
    if (req.method === 'GET') {
      res.writeHead(state.healthStatus, { 'Content-Type': 'application/json' });
      res.end('{"object":"list","data":[]}');
      return;
    }
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(parts).toString('utf8')) as Record<string, unknown>;
      state.bodies.push(body);
      answer(state.script, body, req, res, state);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const a = server.address() as AddressInfo;
  Object.assign(state, {
    url: `http://127.0.0.1:${a.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return state;
}

function answer(s: UpstreamScript, body: Record<string, unknown>, req: http.IncomingMessage, res: http.ServerResponse, state: FakeUpstream): void {
  if (s.dropConnection === true) {
    req.socket.destroy();
    return;
  }
  if (s.status !== undefined && s.status !== 200) {
    const b = JSON.stringify({ error: { message: `scripted ${s.status}`, type: 'server_error', param: null, code: s.status } });
    res.writeHead(s.status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(b) });
    res.end(b);
    return;
  }
  const model = String(body.model);
  const n = s.chunks ?? 5;
  if (body.stream !== true) {
    const text = s.text ?? Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
    const out = JSON.stringify({ id: 'cmpl-1', object: 'chat.completion', model, choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }], ...(s.usage === false ? {} : { usage: { prompt_tokens: 7, completion_tokens: n, total_tokens: 7 + n } }) });
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(out) });
    res.end(out);
    return;
  }
  state.open++;
  let finished = false;
  res.on('close', () => {
    state.open--;
    if (!finished) state.cancelled++;
  });
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  const send = (obj: unknown): void => {
    const ev = `data: ${JSON.stringify(obj)}\n\n`;
    if (s.split === true) {
      const cut = Math.floor(ev.length / 2);
      res.write(ev.slice(0, cut));
      res.write(ev.slice(cut));
    } else res.write(ev);
  };
  const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model };
  send({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
  let i = 0;
  const step = (): void => {
    if (res.destroyed) return;
    if (s.resetAfter !== undefined && i === s.resetAfter) {
      // Once what was written reached the kernel: cut the connection without finishing the answer.
      res.write('', () => res.socket?.destroy());
      return;
    }
    if (s.errorAfter !== undefined && i === s.errorAfter) {
      send({ error: { message: 'engine failed mid-stream', type: 'InternalServerError', param: null, code: 500 } });
      finished = true;
      res.end();
      return;
    }
    if (s.hangAfter !== undefined && i === s.hangAfter) return;
    if (i < n) {
      send({ ...base, choices: [{ index: 0, delta: { content: ` w${i}` }, finish_reason: null }] });
      i++;
      if ((s.gapMs ?? 0) > 0) setTimeout(step, s.gapMs);
      else step();
      return;
    }
    send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
    const so = body.stream_options as { include_usage?: boolean } | undefined;
    if (so?.include_usage === true && s.usage !== false) send({ ...base, choices: [], usage: { prompt_tokens: 7, completion_tokens: n, total_tokens: 7 + n } });
    finished = true;
    res.end('data: [DONE]\n\n');
  };
  step();
}
