import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONTENT, OTHER, ResponseObserver, USAGE_ONLY } from './observe.js';
import { SseFramer, eventData } from './sse.js';

const chunk = (content: string | null, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', choices: [{ index: 0, delta: content === null ? {} : { content }, finish_reason: finish }] })}\n\n`;
const STREAM = [
  `data: ${JSON.stringify({ id: 'x', choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] })}\n\n`,
  chunk('Hello'),
  chunk(' "world"\n\n'),
  chunk(null, 'stop'),
  `data: ${JSON.stringify({ id: 'x', choices: [], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } })}\n\n`,
  'data: [DONE]\n\n',
].join('');

/** Feeds `text` split at `cuts` and returns what the framer forwarded and the events it saw. */
function feed(text: string, cuts: number[]): { out: string; events: string[] } {
  const f = new SseFramer();
  const buf = Buffer.from(text);
  const bounds = [0, ...cuts.filter((c) => c > 0 && c < buf.length).sort((a, b) => a - b), buf.length];
  let out = '';
  const events: string[] = [];
  for (let i = 0; i + 1 < bounds.length; i++) {
    out += f.push(buf.subarray(bounds[i], bounds[i + 1]), (b, s, e) => events.push(b.toString('utf8', s, e))).toString('utf8');
  }
  out += f.takeRest().toString('utf8');
  return { out, events };
}

describe('SseFramer', () => {
  it('forwards whole events unchanged, however the bytes are split', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: STREAM.length }), { maxLength: 12 }), (cuts) => {
        const { out, events } = feed(STREAM, cuts);
        expect(out).toBe(STREAM);
        expect(events).toHaveLength(6);
        expect(events.join('')).toBe(STREAM);
      }),
    );
  });

  it('returns the same buffer when a chunk ends on an event boundary, and holds a partial event back', () => {
    const f = new SseFramer();
    const a = Buffer.from(chunk('a'));
    expect(f.push(a, () => undefined)).toBe(a);
    const part = Buffer.from('data: {"choices"');
    expect(f.push(part, () => undefined).length).toBe(0);
    expect(f.pendingBytes).toBe(part.length);
    expect(f.push(Buffer.from(':[]}\n\n'), () => undefined).toString()).toBe('data: {"choices":[]}\n\n');
  });

  it('handles CRLF line ends, a CRLF split between chunks, comments and multi-line data', () => {
    const text = ': keep-alive\r\n\r\nevent: message\r\ndata: {"a":\r\ndata: 1}\r\n\r\n';
    for (let cut = 0; cut <= text.length; cut++) {
      const { out, events } = feed(text, [cut]);
      expect(out).toBe(text);
      expect(events).toHaveLength(2);
      const b = Buffer.from(events[1]);
      expect(eventData(b, 0, b.length)).toBe('{"a":\n1}');
    }
  });

  it('refuses an event that grows past its limit', () => {
    const f = new SseFramer(10);
    expect(() => f.push(Buffer.from('data: 0123456789abcdef'), () => undefined)).toThrow(/exceeds 10 bytes/);
  });
});

describe('ResponseObserver', () => {
  const observe = (text: string, capture: boolean) => {
    const gaps: number[] = [];
    const o = new ResponseObserver(capture, (g) => gaps.push(g));
    const kinds: number[] = [];
    let t = 100;
    feed(text, []).events.forEach((e) => {
      const b = Buffer.from(e);
      kinds.push(o.onEvent(b, 0, b.length, (t += 10)));
    });
    return { o, gaps, kinds };
  };

  it.each([false, true])('classifies the events of a stream (capture %s)', (capture) => {
    const { o, gaps, kinds } = observe(STREAM, capture);
    expect(kinds).toEqual([OTHER, CONTENT, CONTENT, OTHER, USAGE_ONLY, OTHER]);
    expect(o.contentChunks).toBe(2);
    expect(o.firstContentMs).toBe(120);
    expect(gaps).toEqual([10]);
    expect(o.finishReasons).toEqual(['stop']);
    expect(o.usage).toEqual({ promptTokens: 3, completionTokens: 2 });
    expect(o.done).toBe(true);
    expect(o.text).toBe(capture ? 'Hello "world"\n\n' : '');
  });

  it('sees content in legacy completions, reasoning and tool-call chunks, and errors', () => {
    const ev = [
      `data: ${JSON.stringify({ choices: [{ index: 0, text: 'Once', finish_reason: null }] })}\n\n`,
      `data: ${JSON.stringify({ choices: [{ index: 0, delta: { reasoning_content: 'hmm' }, finish_reason: null }] })}\n\n`,
      `data: ${JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{' } }] }, finish_reason: null }] })}\n\n`,
      `data: ${JSON.stringify({ choices: [{ index: 0, text: '', finish_reason: 'length' }] })}\n\n`,
      `data: ${JSON.stringify({ error: { message: 'boom', type: 'x', code: 500 } })}\n\n`,
    ].join('');
    const { o, kinds } = observe(ev, false);
    expect(kinds).toEqual([CONTENT, CONTENT, CONTENT, OTHER, OTHER]);
    expect(o.finishReasons).toEqual(['length']);
    expect(o.upstreamError).toBe('boom');
  });

  it('reads a whole non-streaming body', () => {
    const o = new ResponseObserver(true, () => undefined);
    o.onObject({ choices: [{ index: 0, message: { role: 'assistant', content: 'four words right here' }, finish_reason: 'stop' }], usage: { prompt_tokens: 9, completion_tokens: 4 } }, 5, false);
    expect(o.text).toBe('four words right here');
    expect(o.contentChars).toBe(21);
    expect(o.contentChunks).toBe(0);
    expect(o.usage).toEqual({ promptTokens: 9, completionTokens: 4 });
  });
});
