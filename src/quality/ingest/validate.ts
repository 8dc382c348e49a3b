/**
 * The validation of a score batch, `{"scores":[{model, component, dimension, score, evaluator,
 * request_id?, time}]}` (time in Unix seconds), against the rules of docs/quality.md: everything
 * is checked before anything is stored, every problem is reported (up to `MAX_PROBLEMS`), and an
 * unknown field is a problem, so a typo (`"dimention"`) is never silently dropped.
 */
import type { UnixMs } from '../../model/index.js';
import { QUALITY_DIMENSIONS, type QualityDimension, type QualityInputProblem, type QualityScore } from '../types.js';
import { QualityInputError, QualityIngestErrorCode } from './errors.js';

/** The most entries one batch may have; a larger one is refused whole (413). */
export const MAX_SCORES_PER_BATCH = 10_000;
/** The largest body `POST /api/v1/quality/scores` reads: 10,000 entries of about 200 bytes, twice over. */
export const MAX_SCORE_BODY_BYTES = 4 * 1024 * 1024;
/** Longest `model`, `component` and `evaluator`, in UTF-16 code units (they become label values or log fields). */
export const MAX_NAME_CHARS = 128;
/** Longest `request_id`. */
export const MAX_REQUEST_ID_CHARS = 256;
/** How far ahead of the server's clock a `time` may be: clock skew between an evaluator and the server. */
export const FUTURE_TOLERANCE_MS = 60_000;
/**
 * How far behind the server's clock a `time` may be. The store's head accepts samples down to half
 * a block range (1 h) behind its newest one, and remote write may move that up to 10 min ahead of
 * now: 30 min stays well inside, so an accepted score is never refused by the store.
 */
export const MAX_SCORE_AGE_MS = 30 * 60_000;
/** The most problems one refusal lists. */
export const MAX_PROBLEMS = 100;

const ENTRY_FIELDS = new Set(['model', 'component', 'dimension', 'score', 'evaluator', 'request_id', 'time']);
const DIMENSIONS: ReadonlySet<string> = new Set(QUALITY_DIMENSIONS);
// C0 and C1 controls and DEL: they would corrupt a log line or the text exposition.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// Those, or a lone surrogate (not well-formed Unicode), in one pass.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const kindOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`);

/** Collects problems up to `MAX_PROBLEMS`. */
class Problems {
  readonly list: QualityInputProblem[] = [];
  add(index: number, field: string, message: string): void {
    if (this.list.length < MAX_PROBLEMS) this.list.push({ index, field, message });
  }
  get full(): boolean {
    return this.list.length >= MAX_PROBLEMS;
  }
}

/**
 * The problem with a label-like string (model, component, evaluator, request_id), or null.
 * `known` holds strings of this batch already found good: a batch repeats a few models,
 * components and evaluators thousands of times.
 */
function nameProblem(v: unknown, maxChars: number, known?: Set<string>): string | null {
  if (typeof v !== 'string') return `must be a string, not ${kindOf(v)}`;
  if (known?.has(v) === true) return null;
  if (v.length === 0) return 'must not be empty';
  if (v.length > maxChars) return `is ${v.length} characters long, more than the limit of ${maxChars}`;
  if (UNSAFE.test(v)) return CONTROL.test(v) ? 'must not contain control characters' : 'is not well-formed Unicode (a lone surrogate)';
  if (known !== undefined && known.size < 1024) known.add(v);
  return null;
}

/** The problem with a score's time in ms against `nowMs`, or null. */
function timeProblem(tMs: number, nowMs: UnixMs): string | null {
  if (tMs > nowMs + FUTURE_TOLERANCE_MS) return `is ${((tMs - nowMs) / 1000).toFixed(3)} s in the future, more than the ${FUTURE_TOLERANCE_MS / 1000} s allowed for clock skew`;
  if (tMs < nowMs - MAX_SCORE_AGE_MS) return `is ${((nowMs - tMs) / 60_000).toFixed(1)} min in the past, more than the ${MAX_SCORE_AGE_MS / 60_000} min the store accepts`;
  return null;
}

/** The problem with a score value, or null. */
function scoreProblem(v: unknown): string | null {
  if (typeof v !== 'number') return `must be a number, not ${kindOf(v)}`;
  if (!Number.isFinite(v) || v < 0 || v > 1) return `${v} is not in [0, 1]`;
  return null;
}

function tooLarge(n: number): QualityInputError {
  return new QualityInputError(QualityIngestErrorCode.BATCH_TOO_LARGE, [
    { index: -1, field: 'scores', message: `${n} entries, more than the limit of ${MAX_SCORES_PER_BATCH} per batch` },
  ]);
}

/**
 * Checks a parsed batch body and returns its scores (times in ms, rounded), or throws
 * `QualityInputError`: `ERR_QUALITY_BATCH_TOO_LARGE` past `MAX_SCORES_PER_BATCH` entries,
 * `ERR_QUALITY_INVALID_SCORES` with every problem otherwise. Reads own properties only, so a
 * `__proto__` key is an unknown field like any other.
 */
export function validateScoreBatch(json: unknown, nowMs: UnixMs): QualityScore[] {
  const problems = new Problems();
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new QualityInputError(QualityIngestErrorCode.INVALID_SCORES, [{ index: -1, field: '', message: `the body must be a JSON object {"scores":[…]}, not ${kindOf(json)}` }]);
  }
  for (const k of Object.keys(json)) if (k !== 'scores') problems.add(-1, k.slice(0, 64), 'unknown field (the body has only "scores")');
  const entries = Object.hasOwn(json, 'scores') ? (json as { scores: unknown }).scores : undefined;
  if (!Array.isArray(entries)) {
    problems.add(-1, 'scores', entries === undefined ? 'is missing' : `must be an array, not ${kindOf(entries)}`);
    throw new QualityInputError(QualityIngestErrorCode.INVALID_SCORES, problems.list);
  }
  if (entries.length > MAX_SCORES_PER_BATCH) throw tooLarge(entries.length);
  const out: QualityScore[] = [];
  const known = new Set<string>();
  for (let i = 0; i < entries.length && !problems.full; i++) {
    const s = entryOf(entries[i], i, nowMs, problems, known);
    if (s !== null) out.push(s);
  }
  if (problems.list.length > 0) throw new QualityInputError(QualityIngestErrorCode.INVALID_SCORES, problems.list);
  return out;
}

function entryOf(e: unknown, i: number, nowMs: UnixMs, problems: Problems, known: Set<string>): QualityScore | null {
  if (typeof e !== 'object' || e === null || Array.isArray(e)) {
    problems.add(i, '', `must be an object, not ${kindOf(e)}`);
    return null;
  }
  const before = problems.list.length;
  const r = e as Record<string, unknown>;
  for (const k of Object.keys(r)) if (!ENTRY_FIELDS.has(k)) problems.add(i, k.slice(0, 64), 'unknown field');
  // Own properties only: JSON.parse never sets a prototype, but a caller's object might have one.
  const get = (k: string): unknown => (Object.hasOwn(r, k) ? r[k] : undefined);
  const model = get('model');
  const component = get('component');
  const dimension = get('dimension');
  const value = get('score');
  const evaluator = get('evaluator');
  const requestId = get('request_id');
  const time = get('time');
  const add = (field: string, p: string | null): void => {
    if (p !== null) problems.add(i, field, p);
  };
  add('model', model === undefined ? 'is missing' : nameProblem(model, MAX_NAME_CHARS, known));
  add('component', component === undefined ? 'is missing' : nameProblem(component, MAX_NAME_CHARS, known));
  if (!(typeof dimension === 'string' && DIMENSIONS.has(dimension))) {
    add('dimension', dimension === undefined ? 'is missing' : `must be one of ${QUALITY_DIMENSIONS.join(', ')}, not ${typeof dimension === 'string' ? JSON.stringify(dimension.slice(0, 64)) : kindOf(dimension)}`);
  }
  add('score', value === undefined ? 'is missing' : scoreProblem(value));
  add('evaluator', evaluator === undefined ? 'is missing' : nameProblem(evaluator, MAX_NAME_CHARS, known));
  if (requestId !== undefined) add('request_id', nameProblem(requestId, MAX_REQUEST_ID_CHARS));
  let tMs = 0;
  if (time === undefined) add('time', 'is missing');
  else if (typeof time !== 'number' || !Number.isFinite(time)) add('time', `must be Unix seconds (a number), not ${typeof time === 'number' ? time : kindOf(time)}`);
  else add('time', timeProblem((tMs = Math.round(time * 1000)), nowMs));
  if (problems.list.length > before) return null;
  const s: QualityScore = { model: model as string, component: component as string, dimension: dimension as QualityDimension, score: value as number, evaluator: evaluator as string, tMs };
  return requestId === undefined ? s : { ...s, requestId: requestId as string };
}

/**
 * Checks scores that did not come through `validateScoreBatch` (another path into `ScoreIngest`)
 * against the same rules; throws `QualityInputError` listing the problems.
 */
export function checkScores(scores: readonly QualityScore[], nowMs: UnixMs): void {
  if (scores.length > MAX_SCORES_PER_BATCH) throw tooLarge(scores.length);
  const problems = new Problems();
  const known = new Set<string>();
  for (let i = 0; i < scores.length && !problems.full; i++) {
    const s = scores[i];
    const add = (field: string, p: string | null): void => {
      if (p !== null) problems.add(i, field, p);
    };
    add('model', nameProblem(s.model, MAX_NAME_CHARS, known));
    add('component', nameProblem(s.component, MAX_NAME_CHARS, known));
    if (!DIMENSIONS.has(s.dimension)) add('dimension', `must be one of ${QUALITY_DIMENSIONS.join(', ')}`);
    add('score', scoreProblem(s.score));
    add('evaluator', nameProblem(s.evaluator, MAX_NAME_CHARS, known));
    if (s.requestId !== undefined) add('request_id', nameProblem(s.requestId, MAX_REQUEST_ID_CHARS));
    add('time', Number.isSafeInteger(s.tMs) ? timeProblem(s.tMs, nowMs) : 'must be an integer number of milliseconds');
  }
  if (problems.list.length > 0) throw new QualityInputError(QualityIngestErrorCode.INVALID_SCORES, problems.list);
}
