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
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

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

/** The problem with a label-like string (model, component, evaluator, request_id), or null. */
function nameProblem(v: unknown, maxChars: number): string | null {
  if (typeof v !== 'string') return `must be a string, not ${kindOf(v)}`;
  if (v.length === 0) return 'must not be empty';
  if (v.length > maxChars) return `is ${v.length} characters long, more than the limit of ${maxChars}`;
  if (CONTROL.test(v)) return 'must not contain control characters';
  if (LONE_SURROGATE.test(v)) return 'is not well-formed Unicode (a lone surrogate)';
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
  for (let i = 0; i < entries.length && !problems.full; i++) {
    const s = entryOf(entries[i], i, nowMs, problems);
    if (s !== null) out.push(s);
  }
  if (problems.list.length > 0) throw new QualityInputError(QualityIngestErrorCode.INVALID_SCORES, problems.list);
  return out;
}

function entryOf(e: unknown, i: number, nowMs: UnixMs, problems: Problems): QualityScore | null {
  if (typeof e !== 'object' || e === null || Array.isArray(e)) {
    problems.add(i, '', `must be an object, not ${kindOf(e)}`);
    return null;
  }
  const before = problems.list.length;
  for (const k of Object.keys(e)) if (!ENTRY_FIELDS.has(k)) problems.add(i, k.slice(0, 64), 'unknown field');
  const get = (k: string): unknown => (Object.hasOwn(e, k) ? (e as Record<string, unknown>)[k] : undefined);
  const required = (k: string, check: (v: unknown) => string | null): void => {
    const v = get(k);
    const p = v === undefined ? 'is missing' : check(v);
    if (p !== null) problems.add(i, k, p);
  };
  required('model', (v) => nameProblem(v, MAX_NAME_CHARS));
  required('component', (v) => nameProblem(v, MAX_NAME_CHARS));
  required('dimension', (v) => (typeof v === 'string' && DIMENSIONS.has(v) ? null : `must be one of ${QUALITY_DIMENSIONS.join(', ')}, not ${typeof v === 'string' ? JSON.stringify(v.slice(0, 64)) : kindOf(v)}`));
  required('score', scoreProblem);
  required('evaluator', (v) => nameProblem(v, MAX_NAME_CHARS));
  const requestId = get('request_id');
  if (requestId !== undefined) {
    const p = nameProblem(requestId, MAX_REQUEST_ID_CHARS);
    if (p !== null) problems.add(i, 'request_id', p);
  }
  let tMs = 0;
  required('time', (v) => {
    if (typeof v !== 'number' || !Number.isFinite(v)) return `must be Unix seconds (a number), not ${typeof v === 'number' ? v : kindOf(v)}`;
    tMs = Math.round(v * 1000);
    return timeProblem(tMs, nowMs);
  });
  if (problems.list.length > before) return null;
  const r = e as { model: string; component: string; dimension: QualityDimension; score: number; evaluator: string };
  return { model: r.model, component: r.component, dimension: r.dimension, score: r.score, evaluator: r.evaluator, ...(requestId === undefined ? {} : { requestId: requestId as string }), tMs };
}

/**
 * Checks scores that did not come through `validateScoreBatch` (another path into `ScoreIngest`)
 * against the same rules; throws `QualityInputError` listing the problems.
 */
export function checkScores(scores: readonly QualityScore[], nowMs: UnixMs): void {
  if (scores.length > MAX_SCORES_PER_BATCH) throw tooLarge(scores.length);
  const problems = new Problems();
  scores.forEach((s, i) => {
    for (const [field, p] of [
      ['model', nameProblem(s.model, MAX_NAME_CHARS)],
      ['component', nameProblem(s.component, MAX_NAME_CHARS)],
      ['dimension', DIMENSIONS.has(s.dimension) ? null : `must be one of ${QUALITY_DIMENSIONS.join(', ')}`],
      ['score', scoreProblem(s.score)],
      ['evaluator', nameProblem(s.evaluator, MAX_NAME_CHARS)],
      ['request_id', s.requestId === undefined ? null : nameProblem(s.requestId, MAX_REQUEST_ID_CHARS)],
      ['time', Number.isSafeInteger(s.tMs) ? timeProblem(s.tMs, nowMs) : 'must be an integer number of milliseconds'],
    ] as const) {
      if (p !== null) problems.add(i, field, p);
    }
  });
  if (problems.list.length > 0) throw new QualityInputError(QualityIngestErrorCode.INVALID_SCORES, problems.list);
}
