/**
 * What the gateway learns from an answer while passing it through: content chunks and their
 * times (TTFT, inter-chunk gaps), finish reasons, usage, an upstream error event, `[DONE]`, and
 * (for sampled requests) the text. Streaming events go through a byte-level fast path: a plain
 * content chunk is recognised by searching its bytes, without decoding or parsing JSON; anything
 * else (role, finish, usage, error chunks) is parsed.
 */
import { eventData } from './sse.js';

/** What an event was (see `ResponseObserver.onEvent`). */
export type EventKind = 0 | 1 | 2;
/** An event with content (text, reasoning or tool calls). */
export const CONTENT = 1;
/** The usage-only chunk that `stream_options.include_usage` adds. */
export const USAGE_ONLY = 2;
/** Anything else: role-only and finish chunks, `[DONE]`, errors, comments. */
export const OTHER = 0;

/** Token counts of one request. */
export interface Usage {
  readonly promptTokens: number;
  readonly completionTokens: number;
}

// Raw byte patterns that cannot occur inside a JSON string value (quotes there are escaped).
const FINISH_STRING = '"finish_reason":"';
const USAGE_OBJECT = '"usage":{';
const ERROR_KEY = '"error":';
const DONE = '[DONE]';
const CONTENT_KEYS = ['"content":"', '"text":"', '"reasoning_content":"', '"reasoning":"'];
const TOOL_CALLS = '"tool_calls":[';

function nonEmptyString(ev: Buffer, key: string): boolean {
  for (let i = ev.indexOf(key); i !== -1; i = ev.indexOf(key, i + key.length)) {
    if (ev[i + key.length] !== 0x22) return true;
  }
  return false;
}

interface Choice {
  delta?: { content?: unknown; reasoning_content?: unknown; reasoning?: unknown; tool_calls?: unknown };
  message?: { content?: unknown; reasoning_content?: unknown; tool_calls?: unknown };
  text?: unknown;
  finish_reason?: unknown;
}

function choiceText(c: Choice): string {
  const d = c.delta ?? c.message;
  let s = '';
  if (typeof c.text === 'string') s += c.text;
  if (d !== undefined) {
    if (typeof d.reasoning_content === 'string') s += d.reasoning_content;
    if (typeof (d as { reasoning?: unknown }).reasoning === 'string') s += (d as { reasoning: string }).reasoning;
    if (typeof d.content === 'string') s += d.content;
  }
  return s;
}

function hasToolCalls(c: Choice): boolean {
  const d = c.delta ?? c.message;
  return Array.isArray(d?.tool_calls) && d.tool_calls.length > 0;
}

function readUsage(u: unknown): Usage | null {
  if (typeof u !== 'object' || u === null) return null;
  const { prompt_tokens: p, completion_tokens: c } = u as { prompt_tokens?: unknown; completion_tokens?: unknown };
  return typeof p === 'number' && typeof c === 'number' ? { promptTokens: p, completionTokens: c } : null;
}

/** Observes one answer. Times are monotonic milliseconds. */
export class ResponseObserver {
  contentChunks = 0;
  firstContentMs = -1;
  lastContentMs = -1;
  readonly finishReasons: string[] = [];
  usage: Usage | null = null;
  /** The message of an error event or error body from the upstream. */
  upstreamError: string | null = null;
  done = false;
  /** Characters of content seen in parsed chunks and bodies (the estimate of a non-streaming answer without usage). */
  contentChars = 0;
  private readonly parts: string[] | null;

  /** `capture`: keep the text (sampled requests); `onGap`: called with each inter-chunk gap in ms. */
  constructor(
    capture: boolean,
    private readonly onGap: (gapMs: number) => void,
  ) {
    this.parts = capture ? [] : null;
  }

  /** The captured text (sampled requests), else ''. */
  get text(): string {
    return this.parts === null ? '' : this.parts.join('');
  }

  private content(tMs: number): void {
    if (this.contentChunks === 0) this.firstContentMs = tMs;
    else this.onGap(tMs - this.lastContentMs);
    this.lastContentMs = tMs;
    this.contentChunks++;
  }

  /**
   * One SSE event `buf[start, end)` that arrived at `tMs`. Returns what it was: `CONTENT`, a
   * usage-only chunk (`USAGE_ONLY`: no choices, a usage object), or `OTHER`.
   */
  onEvent(buf: Buffer, start: number, end: number, tMs: number): EventKind {
    const ev = buf.subarray(start, end);
    if (this.parts === null && ev.indexOf(FINISH_STRING) === -1 && ev.indexOf(USAGE_OBJECT) === -1 && ev.indexOf(ERROR_KEY) === -1 && ev.indexOf(DONE) === -1) {
      // The fast path: a content (or role-only) chunk.
      let content = ev.indexOf(TOOL_CALLS) !== -1;
      for (let k = 0; !content && k < CONTENT_KEYS.length; k++) content = nonEmptyString(ev, CONTENT_KEYS[k]);
      if (content) this.content(tMs);
      return content ? CONTENT : OTHER;
    }
    const data = eventData(buf, start, end);
    if (data === null) return OTHER;
    if (data.trim() === DONE) {
      this.done = true;
      return OTHER;
    }
    let obj: unknown;
    try {
      obj = JSON.parse(data);
    } catch {
      return OTHER;
    }
    return this.onObject(obj, tMs, true);
  }

  /** A parsed chunk (streaming) or a whole body (non-streaming); returns what it was, as `onEvent`. */
  onObject(obj: unknown, tMs: number, streaming: boolean): EventKind {
    if (typeof obj !== 'object' || obj === null) return OTHER;
    const o = obj as { error?: unknown; choices?: unknown; usage?: unknown };
    if (o.error !== undefined && o.error !== null) {
      const m = (o.error as { message?: unknown }).message;
      this.upstreamError = typeof m === 'string' ? m : JSON.stringify(o.error);
      return OTHER;
    }
    const u = readUsage(o.usage);
    if (u !== null) this.usage = u;
    let content = false;
    if (Array.isArray(o.choices)) {
      for (const c of o.choices as Choice[]) {
        if (typeof c !== 'object' || c === null) continue;
        const t = choiceText(c);
        if (t.length > 0 || hasToolCalls(c)) content = true;
        this.contentChars += t.length;
        if (this.parts !== null && t.length > 0) this.parts.push(t);
        if (typeof c.finish_reason === 'string') this.finishReasons.push(c.finish_reason);
      }
    }
    if (content && streaming) this.content(tMs);
    if (content) return CONTENT;
    return u !== null && Array.isArray(o.choices) && o.choices.length === 0 ? USAGE_ONLY : OTHER;
  }
}
