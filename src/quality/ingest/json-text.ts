/**
 * Reading a score batch's body text: `JSON.parse`, then one linear pass that refuses what
 * `JSON.parse` lets through silently, a key repeated within one object (the last one would win,
 * so `{"score":0.1,"score":5}` would hide a bad value from a reader of the log) and nesting deeper
 * than a batch ever needs.
 */
import type { QualityInputProblem } from '../types.js';
import { QualityInputError, QualityIngestErrorCode } from './errors.js';

/** The deepest nesting of objects and arrays a body may have: a batch needs 3 (`{scores: [{…}]}`). */
export const MAX_JSON_DEPTH = 8;

/** Parses `text` as a score batch's JSON; throws `QualityInputError` (`ERR_QUALITY_INVALID_SCORES`) when it is not JSON, repeats a key or nests too deep. */
export function parseScoreBatchJson(text: string): unknown {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw invalid({ index: -1, field: '', message: `the body is not JSON: ${(e as Error).message}` });
  }
  const problem = structureProblem(text);
  if (problem !== null) throw invalid(problem);
  return json;
}

function invalid(p: QualityInputProblem): QualityInputError {
  return new QualityInputError(QualityIngestErrorCode.INVALID_SCORES, [p]);
}

/** A frame of the scan: an object's keys so far (null for an array) and whether a key comes next. */
interface Frame {
  readonly keys: Set<string> | null;
  expectKey: boolean;
}

/**
 * The first repeated key or too deep nesting in `text`, which must be valid JSON (so the scan
 * need not check the grammar). Strings are skipped with `indexOf`, not character by character.
 */
function structureProblem(text: string): QualityInputProblem | null {
  const stack: Frame[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (stack.length >= MAX_JSON_DEPTH) return { index: -1, field: '', message: `the body nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels` };
      stack.push({ keys: c === 0x7b ? new Set() : null, expectKey: c === 0x7b });
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1];
      if (top.keys !== null) top.expectKey = true;
    } else if (c === 0x22 /* " */) {
      const end = stringEnd(text, i);
      const top = stack[stack.length - 1] as Frame | undefined;
      if (top?.keys != null && top.expectKey) {
        const raw = text.slice(i + 1, end);
        const key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
        if (top.keys.has(key)) return { index: -1, field: '', message: `the key ${JSON.stringify(key.slice(0, 64))} appears twice in one object` };
        top.keys.add(key);
        top.expectKey = false;
      }
      i = end;
    }
  }
  return null;
}

/** The index of the quote that closes the string opening at `start`. */
function stringEnd(text: string, start: number): number {
  let j = start;
  for (;;) {
    j = text.indexOf('"', j + 1);
    // An odd number of backslashes before it escapes the quote.
    let k = j - 1;
    while (text.charCodeAt(k) === 0x5c) k--;
    if ((j - 1 - k) % 2 === 0) return j;
  }
}
