/**
 * The stable codes of a refused score batch (`POST /api/v1/quality/scores`, `ScoreIngest`), with
 * the status the route answers; docs/errors.md is generated from this registry.
 */
import { codesOf, specsByCode, type ErrorRegistry, type ErrorSpec } from '../../model/index.js';
import type { QualityInputProblem } from '../types.js';

/** The registry of score ingest's error codes. */
export const QUALITY_INGEST_ERRORS = {
  INVALID_SCORES: {
    code: 'ERR_QUALITY_INVALID_SCORES',
    meaning:
      'A score batch that is not JSON, has a repeated key or unknown field, or an entry with a bad model, component, dimension, score (not in [0, 1]), evaluator or time (more than 60 s ahead or 30 min behind); the answer lists the problems and nothing of the batch is stored.',
    status: 400,
    errorType: 'bad_data',
  },
  BATCH_TOO_LARGE: {
    code: 'ERR_QUALITY_BATCH_TOO_LARGE',
    meaning: 'A score batch with more than 10,000 entries, or a body over 4 MiB.',
    status: 413,
    errorType: 'bad_data',
  },
  TOO_MANY_SERIES: {
    code: 'ERR_QUALITY_TOO_MANY_SERIES',
    meaning: 'A batch that would take the quality series past their limit of distinct model, component and dimension triples (10,000 by default).',
    status: 400,
    errorType: 'bad_data',
  },
} as const satisfies ErrorRegistry;

/** The codes of `QUALITY_INGEST_ERRORS` by key. */
export const QualityIngestErrorCode = codesOf(QUALITY_INGEST_ERRORS);

/** One of the codes in `QualityIngestErrorCode`. */
export type QualityIngestErrorCode = (typeof QualityIngestErrorCode)[keyof typeof QualityIngestErrorCode];

const BY_CODE = specsByCode(QUALITY_INGEST_ERRORS);

/**
 * A refused score batch: every problem found (up to `MAX_PROBLEMS`), each with the entry's index
 * (-1 for the batch as a whole), the field and a sentence. The message is the first problem's.
 */
export class QualityInputError extends Error {
  constructor(
    readonly code: QualityIngestErrorCode,
    readonly problems: readonly QualityInputProblem[],
  ) {
    super(problems.length === 0 ? 'invalid score batch' : describeProblem(problems[0]) + (problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''));
    this.name = 'QualityInputError';
  }

  /** The registry entry of `code`: the status the route answers. */
  get spec(): ErrorSpec {
    return BY_CODE.get(this.code) as ErrorSpec;
  }
}

/** `scores[3].score: …`, or the message alone for the batch as a whole. */
export function describeProblem(p: QualityInputProblem): string {
  if (p.index < 0) return p.field === '' ? p.message : `${p.field}: ${p.message}`;
  return `scores[${p.index}]${p.field === '' ? '' : `.${p.field}`}: ${p.message}`;
}
