/**
 * The answer's shape: empty, truncated (the engine's `length` finish, or a text cut in the middle
 * of a sentence, a JSON value or a code block) and invalid JSON when JSON was asked for. Plain
 * scans, linear in the text.
 */
import { isSpace, trimmedEnd, trimmedStart } from './text.js';

/** Where a JSON text stops being complete, as `jsonOpenAtEnd` finds it. */
export type JsonEnd = 'complete' | 'open-string' | 'open-structure';

/**
 * Walks a JSON-looking text once, tracking strings and bracket depth: whether it ends inside a
 * string or with brackets still open (a value cut off), or closed (which says nothing of its
 * validity; `JSON.parse` judges that).
 */
export function jsonOpenAtEnd(text: string, start = 0, end = text.length): JsonEnd {
  let depth = 0;
  let inString = false;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped unit
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 || c === 91) depth++;
    else if ((c === 125 || c === 93) && depth > 0) depth--;
  }
  return inString ? 'open-string' : depth > 0 ? 'open-structure' : 'complete';
}

/** The span of a JSON answer: the text inside one ```json fence when the model wrapped it in one, else the trimmed text. */
export function jsonSpan(text: string): { readonly start: number; readonly end: number; readonly fenced: boolean } {
  const start = trimmedStart(text);
  const end = trimmedEnd(text);
  if (text.startsWith('```', start)) {
    const nl = text.indexOf('\n', start);
    const close = text.lastIndexOf('```', end);
    if (nl >= 0 && close > nl) return { start: nl + 1, end: close, fenced: true };
  }
  return { start, end, fenced: false };
}

/** Whether the text has only whitespace (zero-width characters included). */
export function isBlank(text: string): boolean {
  return trimmedStart(text) === text.length;
}

// What a finished sentence, list or block may end with: terminal punctuation (Latin, CJK,
// Arabic, Devanagari), closing quotes and brackets, markup and code ends, emphasis marks.
const ENDINGS = new Set('.!?…。！？｡؟।॥"\'”’»)]}>`*_|~;:'.split('').map((s) => s.charCodeAt(0)));

/** Counts non-overlapping occurrences of ``` in the text. */
function fences(text: string): number {
  let n = 0;
  for (let i = text.indexOf('```'); i >= 0; i = text.indexOf('```', i + 3)) n++;
  return n;
}

/**
 * Why an answer looks cut off, or null: the finish reason `length`; an open ``` block; a JSON
 * answer ending inside a string or with brackets open; and, only when no finish reason was
 * recorded (a stream that stopped without one), a last character that cannot end a sentence.
 * An answer the engine finished with `stop` is not judged on its last character: lists, code
 * and short answers end without a full stop all the time.
 */
export function truncation(text: string, finishReason: string | null): string | null {
  if (finishReason === 'length') return 'finish_reason length: the answer hit max_tokens';
  const end = trimmedEnd(text);
  if (end === 0) return null;
  if (fences(text) % 2 === 1) return 'a ``` code block is not closed';
  const start = trimmedStart(text);
  const first = text.charCodeAt(start);
  if (first === 123 || first === 91) {
    const open = jsonOpenAtEnd(text, start, end);
    if (open !== 'complete') return `the JSON answer ends inside ${open === 'open-string' ? 'a string' : 'an object or array'}`;
    return null;
  }
  if (finishReason === null) {
    const last = text.charCodeAt(end - 1);
    if (!ENDINGS.has(last) && !isSpace(last) && !(last >= 0xd800 && last <= 0xdfff)) return 'no finish reason, and the answer stops mid-sentence';
  }
  return null;
}

/** Why an answer that should be JSON is not (null: it parses), after removing one ```json fence. */
export function invalidJson(text: string): string | null {
  const span = jsonSpan(text);
  if (span.end <= span.start) return 'JSON was asked for; the answer is empty';
  try {
    JSON.parse(text.slice(span.start, span.end));
    return null;
  } catch (e) {
    const open = jsonOpenAtEnd(text, span.start, span.end);
    return `JSON was asked for; the answer does not parse (${open === 'complete' ? (e as Error).message.slice(0, 120) : 'cut off'})`;
  }
}
