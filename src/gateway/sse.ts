/**
 * Incremental server-sent-events framing for pass-through. `SseFramer.push(chunk)` returns the
 * bytes that end on an event boundary, unchanged (the chunk itself when it ends on one: no copy),
 * and keeps the unfinished tail for the next chunk; each complete event is handed to a callback
 * first. A partial event is never forwarded: a client cannot act on half an event, and holding it
 * means a failed stream can always be closed with a well-formed error event.
 *
 * Events end at a blank line; lines end in LF or CRLF (a lone CR, legal but unused by any engine,
 * is not treated as a line end).
 */

const LF = 0x0a;
const CR = 0x0d;

/** Receives one complete event: `buf[start, end)`, the blank line included. */
export type SseEventHandler = (buf: Buffer, start: number, end: number) => void;

/** Frames an SSE byte stream into whole events. */
export class SseFramer {
  private pending: Buffer | null = null;
  /** Where the scan for the next line end resumes inside `pending`. */
  private scanFrom = 0;
  private lineStart = 0;

  /** `maxEventBytes`: an unfinished event longer than this makes `push` throw. */
  constructor(private readonly maxEventBytes = 16 * 1024 * 1024) {}

  /** Bytes held back (an unfinished event). */
  get pendingBytes(): number {
    return this.pending === null ? 0 : this.pending.length;
  }

  /**
   * Adds a chunk; calls `onEvent` for every event it completes, in order, and returns the bytes
   * to forward now (possibly empty).
   */
  push(chunk: Buffer, onEvent: SseEventHandler): Buffer {
    const buf = this.pending === null ? chunk : Buffer.concat([this.pending, chunk]);
    let eventStart = 0;
    let lineStart = this.pending === null ? 0 : this.lineStart;
    let i = buf.indexOf(LF, this.pending === null ? 0 : this.scanFrom);
    while (i !== -1) {
      const blank = i === lineStart || (i === lineStart + 1 && buf[lineStart] === CR);
      lineStart = i + 1;
      if (blank) {
        // A blank line right at an event's start (a stray separator) is handed on as an empty event.
        onEvent(buf, eventStart, i + 1);
        eventStart = i + 1;
      }
      i = buf.indexOf(LF, i + 1);
    }
    if (eventStart === buf.length) {
      this.pending = null;
      this.scanFrom = 0;
      this.lineStart = 0;
      return buf;
    }
    const rest = buf.subarray(eventStart);
    if (rest.length > this.maxEventBytes) throw new Error(`an SSE event exceeds ${this.maxEventBytes} bytes`);
    this.pending = rest;
    this.scanFrom = rest.length;
    this.lineStart = lineStart - eventStart;
    return buf.subarray(0, eventStart);
  }

  /** At the end of the stream: the unfinished tail (empty when none), which is dropped from the framer. */
  takeRest(): Buffer {
    const rest = this.pending ?? Buffer.alloc(0);
    this.pending = null;
    this.scanFrom = 0;
    this.lineStart = 0;
    return rest;
  }
}

/** The joined `data:` field values of the event `buf[start, end)` (one leading space stripped), or null when it has none. */
export function eventData(buf: Buffer, start: number, end: number): string | null {
  let out: string | null = null;
  let s = start;
  while (s < end) {
    let e = buf.indexOf(LF, s);
    if (e === -1 || e > end) e = end;
    let lineEnd = e;
    if (lineEnd > s && buf[lineEnd - 1] === CR) lineEnd--;
    // "data:" is 0x64 0x61 0x74 0x61 0x3a
    if (lineEnd - s >= 5 && buf[s] === 0x64 && buf[s + 1] === 0x61 && buf[s + 2] === 0x74 && buf[s + 3] === 0x61 && buf[s + 4] === 0x3a) {
      const v0 = buf[s + 5] === 0x20 ? s + 6 : s + 5;
      const v = buf.toString('utf8', v0, lineEnd);
      out = out === null ? v : `${out}\n${v}`;
    }
    s = e + 1;
  }
  return out;
}

/** `buf` without the byte ranges `[s0, e0, s1, e1, ...]` (sorted, inside `buf`). */
export function cut(buf: Buffer, ranges: readonly number[]): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (let i = 0; i < ranges.length; i += 2) {
    if (ranges[i] >= buf.length) break;
    parts.push(buf.subarray(at, ranges[i]));
    at = ranges[i + 1];
  }
  parts.push(buf.subarray(Math.min(at, buf.length)));
  return Buffer.concat(parts);
}
