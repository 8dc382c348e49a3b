/**
 * Reading and checking a client's completion request: the body under a size limit and a time
 * limit, JSON, and the fields the gateway relies on (`model`, `messages` or `prompt`, `stream`,
 * `stream_options`, token limits), each failure an OpenAI-shaped 4xx naming the `param`.
 * Everything else in the body is passed upstream untouched.
 */
import type { IncomingMessage } from 'node:http';
import { DEFAULT_BODY_TIMEOUTS, readBody as readHttpBody } from '../http/index.js';
import type { DurationMs } from '../model/index.js';
import type { OpenAiErrorCode } from './errors.js';
import type { Timers } from './timers.js';

/** A refusal of a request: the error code, message and parameter for the OpenAI error body. */
export interface RequestProblem {
  readonly code: OpenAiErrorCode;
  readonly message: string;
  readonly param: string | null;
}

/** A request that passed the checks. */
export interface CompletionRequest {
  /** The parsed body; the proxy rewrites `model` and `stream_options` before sending it upstream. */
  readonly body: Record<string, unknown>;
  readonly model: string;
  readonly stream: boolean;
  /** Whether the client itself asked for the usage chunk. */
  readonly clientWantsUsage: boolean;
  /** Prompt tokens estimated from the text (characters / 4 plus per-message framing). */
  readonly promptTokensEstimate: number;
  /** `max_completion_tokens` or `max_tokens` times `n`, or null when not given. */
  readonly maxTokens: number | null;
}

/**
 * Reads the body (src/http's reader): resolves with the bytes, or with a problem (too large: 413,
 * too slow: 408, the client gone: a 400 nobody reads). `timeoutMs` (`body_timeout`) bounds both
 * the whole body and each gap in it. On a problem the rest of the body is left unread; the caller
 * answers and closes the connection.
 */
export async function readBody(req: IncomingMessage, maxBytes: number, timeoutMs: DurationMs, timers: Timers): Promise<Buffer | RequestProblem> {
  const r = await readHttpBody(req, { maxBytes, timers, timeouts: { idleMs: Math.min(timeoutMs, DEFAULT_BODY_TIMEOUTS.idleMs), totalMs: timeoutMs } });
  if (r.ok) return r.body;
  switch (r.problem.kind) {
    case 'too_large':
      return { code: 'request_too_large', message: `The request body exceeds the limit of ${maxBytes} bytes.`, param: null };
    case 'timeout':
      return { code: 'request_body_timeout', message: `The request body did not arrive within ${timeoutMs} ms.`, param: null };
    case 'aborted':
      return { code: 'invalid_request', message: 'The request body was cut short.', param: null };
  }
}

const problem = (message: string, param: string | null, code: OpenAiErrorCode = 'invalid_request'): RequestProblem => ({ code, message, param });

function textChars(v: unknown): number {
  if (typeof v === 'string') return v.length;
  if (Array.isArray(v)) return v.reduce<number>((n, p) => n + (typeof p === 'string' ? p.length : typeof p === 'number' ? 4 : typeof (p as { text?: unknown } | null)?.text === 'string' ? (p as { text: string }).text.length : Array.isArray(p) ? p.length * 4 : 0), 0);
  return 0;
}

function positiveInt(v: unknown): boolean {
  return typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
}

/**
 * Checks a body of `/v1/chat/completions` (`chat`) or `/v1/completions`. The Content-Type was
 * checked before (`application/json` only, by the request guard in server.ts): unlike the
 * engines, which read any body as JSON, the gateway refuses the form and text bodies that any web
 * page can send without a preflight (`curl` needs `-H 'Content-Type: application/json'`).
 */
export function checkCompletionRequest(raw: Buffer, chat: boolean): CompletionRequest | RequestProblem {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch (e) {
    return problem(`We could not parse the JSON body of your request: ${(e as Error).message}`, null, 'invalid_json');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return problem('The request body must be a JSON object.', null);
  const b = parsed as Record<string, unknown>;
  if (typeof b.model !== 'string' || b.model === '') return problem("'model' is required and must be a non-empty string.", 'model');
  let chars = 0;
  if (chat) {
    if (!Array.isArray(b.messages) || b.messages.length === 0) return problem("'messages' must be a non-empty array.", 'messages');
    for (const [i, m] of (b.messages as unknown[]).entries()) {
      if (typeof m !== 'object' || m === null || typeof (m as { role?: unknown }).role !== 'string') return problem(`'messages[${i}]' must be an object with a string 'role'.`, `messages[${i}]`);
      const content = (m as { content?: unknown }).content;
      if (content !== undefined && content !== null && typeof content !== 'string' && !Array.isArray(content)) return problem(`'messages[${i}].content' must be a string or an array of parts.`, `messages[${i}].content`);
      chars += textChars(content) + 16;
    }
  } else {
    const p = b.prompt;
    const ok = typeof p === 'string' || (Array.isArray(p) && p.length > 0 && p.every((x) => typeof x === 'string' || typeof x === 'number' || Array.isArray(x)));
    if (!ok) return problem("'prompt' must be a string or an array of strings or token ids.", 'prompt');
    chars = textChars(p);
  }
  if (b.stream !== undefined && b.stream !== null && typeof b.stream !== 'boolean') return problem("'stream' must be a boolean.", 'stream');
  const so = b.stream_options;
  if (so !== undefined && so !== null && (typeof so !== 'object' || Array.isArray(so))) return problem("'stream_options' must be an object.", 'stream_options');
  const includeUsage = (so as { include_usage?: unknown } | null | undefined)?.include_usage;
  if (includeUsage !== undefined && includeUsage !== null && typeof includeUsage !== 'boolean') return problem("'stream_options.include_usage' must be a boolean.", 'stream_options.include_usage');
  for (const k of ['max_tokens', 'max_completion_tokens', 'n']) {
    if (b[k] !== undefined && b[k] !== null && !positiveInt(b[k])) return problem(`'${k}' must be a positive integer.`, k);
  }
  const max = (b.max_completion_tokens ?? b.max_tokens) as number | null | undefined;
  const n = (b.n as number | null | undefined) ?? 1;
  return {
    body: b,
    model: b.model,
    stream: b.stream === true,
    clientWantsUsage: includeUsage === true,
    promptTokensEstimate: Math.max(1, Math.ceil(chars / 4)),
    maxTokens: max === null || max === undefined ? null : max * n,
  };
}
