/**
 * Score ingest, the quality namespace's way in: the batch format and its validation, the one
 * writer of the `llm_quality_*` series, and the `ScoreIngest` over it.
 */
export { QUALITY_INGEST_ERRORS, QualityIngestErrorCode, QualityInputError, describeProblem } from './errors.js';
export { MAX_JSON_DEPTH, parseScoreBatchJson } from './json-text.js';
export {
  FUTURE_TOLERANCE_MS,
  MAX_NAME_CHARS,
  MAX_PROBLEMS,
  MAX_REQUEST_ID_CHARS,
  MAX_SCORES_PER_BATCH,
  MAX_SCORE_AGE_MS,
  MAX_SCORE_BODY_BYTES,
  checkScores,
  validateScoreBatch,
} from './validate.js';
export { DEFAULT_QUALITY_HALF_LIFE_MS } from './score-means.js';
export { DEFAULT_MAX_QUALITY_SERIES, QualityMetrics, type EvaluationRecord, type QualityMetricsOptions, type QualityMetricsStats } from './metrics.js';
export { createScoreIngest } from './ingest.js';
