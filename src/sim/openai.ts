/**
 * OpenAI-compatible `POST /v1/chat/completions` and `/v1/completions` for simulated engines, with
 * SSE streaming: `data: {chunk}` events carrying `choices[].delta.content` (chat) or
 * `choices[].text` (completions), a final chunk with `finish_reason`, an optional usage chunk
 * (`stream_options.include_usage`), then `data: [DONE]`. Tokens arrive as the engine model produces
 * them; `pace` turns their virtual times into real delays. Failures before the first token answer
 * with an HTTP error status; failures after it send an `error` event and end the stream. The
 * simulator's judge model (`infersight-sim-judge`, judge.ts) answers on the same path.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bodyProblemStatus, readBody } from '../http/index.js';
import type { UnixMs } from '../model/index.js';
import type { ComponentRuntime } from './fleet.js';
import { handleJudge, isJudgeRequest } from './judge.js';
import type { RequestListener, RequestOutcome } from './request.js';
import { Rng } from './rng.js';
import type { Simulation } from './simulation.js';

/** How the handlers reach the simulation and time. */
export interface OpenAiContext {
  readonly sim: Simulation;
  /** Milliseconds to wait before sending a token produced at virtual time `tMs` (0: at once). */
  readonly pace: (tMs: number) => number;
  /** Wall clock, for the `created` field. */
  readonly wallNow: () => UnixMs;
}

const WORDS = 'the a of to and in that is for it as with on be by this are from at or an which fleet model token cache batch latency request replica engine GPU memory queue prefill decode'.split(' ');
const MAX_BODY = 1 << 20;

/** Sends an OpenAI-style error body. */
export function sendOpenAiError(res: ServerResponse, status: number, message: string): void {
  const type = status === 400 || status === 408 || status === 413 ? 'BadRequestError' : status === 404 ? 'NotFoundError' : status === 429 ? 'RateLimitError' : status === 503 ? 'ServiceUnavailableError' : 'InternalServerError';
  const body = JSON.stringify({ error: { message, type, param: null, code: status } });
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/** A request body that could not be read or parsed, with the status to answer. */
export class BodyReadError extends Error {
  constructor(
    message: string,
    /** 400 (not JSON, or the client went away), 408 (too slow) or 413 (too large). */
    readonly status: number,
  ) {
    super(message);
    this.name = 'BodyReadError';
  }
}

/** Reads a JSON request body (at most 1 MiB, within src/http's default body timeouts). */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const r = await readBody(req, { maxBytes: MAX_BODY });
  if (!r.ok) throw new BodyReadError(r.problem.message, bodyProblemStatus(r.problem));
  try {
    return JSON.parse(r.body.toString('utf8')) as unknown;
  } catch (e) {
    throw new BodyReadError(`invalid JSON body: ${(e as Error).message}`, 400);
  }
}

interface Parsed {
  model: string;
  promptTokens: number;
  maxTokens: number;
  stream: boolean;
  includeUsage: boolean;
}

function parse(body: unknown, chat: boolean): Parsed | string {
  if (typeof body !== 'object' || body === null) return 'the request body must be a JSON object';
  const b = body as Record<string, unknown>;
  if (typeof b.model !== 'string') return "'model' is required";
  let chars = 0;
  if (chat) {
    if (!Array.isArray(b.messages) || b.messages.length === 0) return "'messages' must be a non-empty array";
    for (const m of b.messages as unknown[]) {
      const content = (m as { content?: unknown } | null)?.content;
      if (typeof content === 'string') chars += content.length + 16;
      else if (Array.isArray(content)) for (const part of content as { text?: unknown }[]) chars += typeof part.text === 'string' ? part.text.length : 0;
    }
  } else if (typeof b.prompt === 'string') chars = b.prompt.length;
  else if (Array.isArray(b.prompt)) chars = (b.prompt as unknown[]).reduce<number>((n, p) => n + (typeof p === 'string' ? p.length : 4), 0);
  else return "'prompt' is required";
  const max = b.max_completion_tokens ?? b.max_tokens ?? 1024;
  if (typeof max !== 'number' || !Number.isInteger(max) || max < 1) return "'max_tokens' must be a positive integer";
  const so = b.stream_options as { include_usage?: unknown } | undefined;
  return { model: b.model, promptTokens: Math.max(1, Math.ceil(chars / 4)), maxTokens: max, stream: b.stream === true, includeUsage: so?.include_usage === true };
}

/**
 * Handles a completion request for `component` (`replicaId`: straight to that replica). The
 * response ends when the simulated request ends, so in manual mode the caller must keep advancing
 * the simulation.
 */
export async function handleCompletion(ctx: OpenAiContext, req: IncomingMessage, res: ServerResponse, chat: boolean, component: ComponentRuntime | undefined, replicaId?: string): Promise<void> {
  let body: unknown;
  try {
    body = await readJson(req);
  } catch (e) {
    const status = e instanceof BodyReadError ? e.status : 400;
    if (status !== 400) res.setHeader('Connection', 'close');
    sendOpenAiError(res, status, (e as Error).message);
    return;
  }
  // The simulator's judge model is served beside the engines (judge.ts).
  if (chat && component === undefined && isJudgeRequest(body)) return handleJudge(ctx, req, res, body, sendOpenAiError);
  const p = parse(body, chat);
  if (typeof p === 'string') {
    sendOpenAiError(res, 400, p);
    return;
  }
  const c = component ?? ctx.sim.component(p.model);
  if (c === undefined || (p.model !== c.model.name && p.model !== c.spec.name)) {
    sendOpenAiError(res, 404, `The model '${p.model}' does not exist.`);
    return;
  }
  const id = `${chat ? 'chatcmpl' : 'cmpl'}-${new Rng(Date.now() >>> 0).hex(24)}`;
  const created = Math.floor(ctx.wallNow() / 1000);
  const base = { id, object: chat ? 'chat.completion.chunk' : 'text_completion', created, model: p.model };
  const words = new Rng(created ^ p.promptTokens);
  let text = '';
  let generated = 0;
  let started = false;
  let closed = false;
  let queue = Promise.resolve();
  res.on('close', () => {
    closed = true;
  });
  const later = (tMs: number, fn: () => void): void => {
    // The wait is measured when the previous event has been sent, not when this one was queued:
    // waits queued together must not add up.
    queue = queue
      .then(() => {
        const wait = ctx.pace(tMs);
        return wait > 0 ? new Promise<void>((resolve) => setTimeout(resolve, wait)) : undefined;
      })
      .then(() => {
        if (!closed) fn();
      });
  };
  const send = (obj: unknown): void => {
    res.write(`data: ${JSON.stringify(obj)}\n\n`);
  };
  const start = (): void => {
    if (started) return;
    started = true;
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
    if (chat) send({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }] });
  };
  const usage = () => ({ prompt_tokens: p.promptTokens, completion_tokens: generated, total_tokens: p.promptTokens + generated });
  const listener: RequestListener = {
    onTokens: (count, firstMs, intervalMs) => {
      for (let i = 0; i < count; i++) {
        const word = (generated === 0 && text === '' ? '' : ' ') + WORDS[words.int(0, WORDS.length)];
        generated++;
        later(firstMs + i * intervalMs, () => {
          if (!p.stream) {
            text += word;
            return;
          }
          start();
          send({ ...base, choices: [chat ? { index: 0, delta: { content: word }, logprobs: null, finish_reason: null } : { index: 0, text: word, logprobs: null, finish_reason: null }] });
        });
      }
    },
    onEnd: (o: RequestOutcome, tMs) => {
      later(tMs, () => finish(o));
    },
  };
  const finish = (o: RequestOutcome): void => {
    if (o.kind === 'rejected' && !started) {
      sendOpenAiError(res, o.status, o.message);
      return;
    }
    if (!p.stream) {
      if (o.kind !== 'finished') {
        sendOpenAiError(res, 500, o.message);
        return;
      }
      const choice = chat ? { index: 0, message: { role: 'assistant', content: text }, logprobs: null, finish_reason: o.reason } : { index: 0, text, logprobs: null, finish_reason: o.reason };
      const out = JSON.stringify({ ...base, object: chat ? 'chat.completion' : 'text_completion', choices: [choice], usage: usage() });
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(out) });
      res.end(out);
      return;
    }
    start();
    if (o.kind !== 'finished') {
      send({ error: { message: o.message, type: 'InternalServerError', param: null, code: 500 } });
      res.end();
      return;
    }
    send({ ...base, choices: [chat ? { index: 0, delta: {}, logprobs: null, finish_reason: o.reason } : { index: 0, text: '', logprobs: null, finish_reason: o.reason }] });
    if (p.includeUsage) send({ ...base, choices: [], usage: usage() });
    res.write('data: [DONE]\n\n');
    res.end();
  };
  ctx.sim.submit(c, { promptTokens: p.promptTokens, maxTokens: p.maxTokens }, listener, replicaId);
}
