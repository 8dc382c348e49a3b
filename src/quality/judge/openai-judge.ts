/**
 * A stage-2 judge at any OpenAI-compatible endpoint, through the official `openai` client: one
 * non-streaming chat completion per pair and rubric (temperature 0, `max_tokens`, JSON mode by
 * default), its answer read strictly (verdict.ts), its token usage taken from the answer. The
 * deadline is kept here with the injected timers, not by the client's own timer, so tests move
 * time by hand; the client makes no retries (a failed call is an evaluation with an error, and
 * the pipeline decides what to do next).
 */
import OpenAI, { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import { mulberry32, systemTimers, type DurationMs, type Timers } from '../../model/index.js';
import type { Judge, JudgeVerdict, Rubric, SampledPair } from '../types.js';
import { JudgeError } from './errors.js';
import { judgeMessages, MAX_JUDGED_CHARS } from './prompt.js';
import { parseVerdict } from './verdict.js';

/** How to reach the judge and how long to wait for it. */
export interface OpenAIJudgeOptions {
  /** The endpoint's base URL including `/v1` (e.g. `http://127.0.0.1:8000/v1`). */
  readonly baseURL: string;
  /** Sent as the bearer token; local endpoints take any (default `none`). */
  readonly apiKey?: string;
  /** The judge model (`infersight-sim-judge` for the simulator's judge). */
  readonly model: string;
  /** The deadline of one call (default 30 s). */
  readonly timeoutMs?: DurationMs;
  /** `max_tokens` of the answer (default 256: a score and a sentence or two). */
  readonly maxOutputTokens?: number;
  /** Ask for `response_format: json_object` (default true; turn off for servers without JSON mode). */
  readonly jsonMode?: boolean;
  /** The most characters of each text sent (default `MAX_JUDGED_CHARS`). */
  readonly maxJudgedChars?: number;
  /** The deadline's timers (default `systemTimers`). */
  readonly timers?: Timers;
  /** A monotonic clock in milliseconds for `durationS` (default `performance.now`). */
  readonly monotonicMs?: () => number;
  /** The seed of the fence nonces (default 1). */
  readonly seed?: number;
  /** The `fetch` the client uses (tests, proxies). */
  readonly fetch?: typeof fetch;
}

const hex = (random: () => number): string => Math.floor(random() * 2 ** 48).toString(16).padStart(12, '0');

/** Maps what the client threw to a `JudgeError`. */
function failure(e: unknown, timedOut: boolean, timeoutMs: number): JudgeError {
  if (e instanceof JudgeError) return e;
  if (timedOut) return new JudgeError('timeout', `the judge did not answer within ${timeoutMs} ms`);
  if (e instanceof APIUserAbortError) return new JudgeError('aborted', 'the judge call was cancelled');
  if (e instanceof APIConnectionError) return new JudgeError('connection', `the judge could not be reached: ${e.message}`);
  if (e instanceof APIError && typeof e.status === 'number') return new JudgeError('http', `the judge answered HTTP ${e.status}: ${e.message.slice(0, 200)}`, e.status);
  if (e instanceof SyntaxError) return new JudgeError('garbage', `the judge's HTTP body is not JSON: ${e.message.slice(0, 120)}`);
  return new JudgeError('connection', `the judge call failed: ${e instanceof Error ? e.message : String(e)}`);
}

/** Creates a judge for `o.model` at `o.baseURL`. */
export function createOpenAIJudge(o: OpenAIJudgeOptions): Judge & { readonly model: string } {
  const timeoutMs = o.timeoutMs ?? 30_000;
  const timers = o.timers ?? systemTimers;
  const mono = o.monotonicMs ?? (() => performance.now());
  const random = mulberry32(o.seed ?? 1);
  const client = new OpenAI({
    baseURL: o.baseURL,
    apiKey: o.apiKey ?? 'none',
    maxRetries: 0,
    // A backstop only: the deadline is ours (above), this catches a timer port that never fires.
    timeout: timeoutMs * 4 + 1000,
    ...(o.fetch === undefined ? {} : { fetch: o.fetch }),
  });
  return {
    model: o.model,
    async judge(pair: SampledPair, rubric: Rubric, signal?: AbortSignal): Promise<JudgeVerdict> {
      const t0 = mono();
      const ac = new AbortController();
      let timedOut = false;
      const cancel = timers.setTimeout(() => {
        timedOut = true;
        ac.abort();
      }, timeoutMs);
      const onAbort = (): void => ac.abort();
      if (signal?.aborted === true) ac.abort();
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        const messages = judgeMessages(pair, rubric, hex(random), o.maxJudgedChars ?? MAX_JUDGED_CHARS);
        const res = await client.chat.completions.create(
          {
            model: o.model,
            messages,
            temperature: 0,
            // `max_tokens`, not `max_completion_tokens`: every OpenAI-compatible server (vLLM, TGI,
            // SGLang, llama.cpp, Ollama) reads it, the newer name only some.
            // eslint-disable-next-line @typescript-eslint/no-deprecated
            max_tokens: o.maxOutputTokens ?? 256,
            ...(o.jsonMode === false ? {} : { response_format: { type: 'json_object' as const } }),
          },
          { signal: ac.signal },
        );
        if (timedOut) throw new JudgeError('timeout', `the judge did not answer within ${timeoutMs} ms`);
        if (typeof res !== 'object' || res === null || !Array.isArray((res as { choices?: unknown }).choices)) throw new JudgeError('garbage', 'the judge answered a body without choices');
        const content = res.choices[0]?.message?.content;
        const v = parseVerdict(content);
        const chars = messages.reduce((n, m) => n + m.content.length, 0);
        // Servers that leave out usage are charged an estimate (four characters a token), so the
        // token budget still holds.
        const input = res.usage?.prompt_tokens ?? Math.ceil(chars / 4);
        const output = res.usage?.completion_tokens ?? Math.ceil((content ?? '').length / 4);
        return { score: v.score, reasoning: v.reasoning, tokens: { input, output }, durationS: Math.max(0, (mono() - t0) / 1000) };
      } catch (e) {
        throw failure(e, timedOut, timeoutMs);
      } finally {
        cancel();
        signal?.removeEventListener('abort', onAbort);
      }
    },
  };
}
