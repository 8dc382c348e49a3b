/**
 * Reads a judge's answer strictly: one JSON object `{"score": 0..1, "reasoning": "..."}` and
 * nothing else (one surrounding ```json fence is tolerated, because models add it even in JSON
 * mode). Prose around the object, other keys, a score outside [0, 1] (a judge answering on a
 * 1–10 scale) or a non-string reasoning are refused with the reason, never guessed at.
 */
import { JudgeError } from './errors.js';

/** The most characters of reasoning kept (a judge that rambles is cut, not refused). */
export const MAX_REASONING_CHARS = 2000;

/** Parses the judge's message content into a score and reasoning, or throws a `JudgeError` (`garbage` or `out_of_range`). */
export function parseVerdict(content: string | null | undefined): { readonly score: number; readonly reasoning: string } {
  if (typeof content !== 'string' || content.trim() === '') throw new JudgeError('garbage', 'the judge answered no content');
  let text = content.trim();
  if (text.startsWith('```')) {
    const nl = text.indexOf('\n');
    if (nl < 0 || !text.endsWith('```') || text.length < nl + 4) throw new JudgeError('garbage', 'the judge answered an unclosed code fence');
    text = text.slice(nl + 1, -3).trim();
  }
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new JudgeError('garbage', `the judge's answer is not JSON: ${JSON.stringify(text.slice(0, 80))}`);
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new JudgeError('garbage', 'the judge answered JSON that is not an object');
  const o = v as Record<string, unknown>;
  const extra = Object.keys(o).filter((k) => k !== 'score' && k !== 'reasoning');
  if (extra.length > 0) throw new JudgeError('garbage', `the judge's answer has unexpected keys: ${extra.slice(0, 5).join(', ')}`);
  if (typeof o.score !== 'number' || !Number.isFinite(o.score)) throw new JudgeError('garbage', `the judge's score is not a number: ${JSON.stringify(o.score ?? null).slice(0, 40)}`);
  if (o.score < 0 || o.score > 1) throw new JudgeError('out_of_range', `the judge's score ${o.score} is outside [0, 1]`);
  if (typeof o.reasoning !== 'string') throw new JudgeError('garbage', "the judge's reasoning is not a string");
  return { score: o.score, reasoning: o.reasoning.length > MAX_REASONING_CHARS ? `${o.reasoning.slice(0, MAX_REASONING_CHARS)}…` : o.reasoning };
}
