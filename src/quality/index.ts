/**
 * Public surface of `src/quality`: score ingest (the quality namespace's only way in), the sample
 * store, the two evaluation stages, drift detection.
 */
export { QUALITY_DIMENSIONS, STAGE1_FLAGS } from './types.js';
export type {
  DriftEvent,
  DriftSubject,
  Evaluation,
  Judge,
  JudgeVerdict,
  QualityDimension,
  QualityInputProblem,
  QualityScore,
  Rubric,
  SampleFilter,
  SampleRecord,
  SampleStore,
  SampleStoreStats,
  SampledPair,
  ScoreIngest,
  ScoreIngestResult,
  Stage1Flag,
} from './types.js';
export {
  DEFAULT_FIND_LIMIT,
  MAX_FIND_LIMIT,
  MAX_TEXT_CHARS,
  SCHEMA_VERSION,
  SampleStoreInputError,
  SampleStoreSchemaError,
  SampleStoreWriteError,
  openSampleStore,
  pgliteDataDir,
  type SampleStoreOptions,
} from './store/index.js';
export { DEFAULT_REDACTION_RULES, RedactionRuleError, compileRedaction, type RedactionRule } from './redact.js';
