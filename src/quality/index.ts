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
// Score ingest (src/quality/ingest): the batch format, the one writer of the quality series.
export * from './ingest/index.js';

// Evaluation: stage 1, the judge, the pipeline.
export { compileBlocklist, LengthTracker, runStage1, STAGE1_CHECKS, type Blocklist, type Stage1Options } from './stage1/index.js';
export { createOpenAIJudge, DEFAULT_RUBRICS, JudgeError, parseRubricsFile, type JudgeFailure, type OpenAIJudgeOptions } from './judge/index.js';
export { QualityPipeline, type PipelineMetrics, type QualityPipelineOptions, type QualityPipelineStats } from './pipeline.js';
export { toSampledPair, type SampleInput } from './sample-input.js';
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

// Drift (src/quality/drift): Page–Hinkley on scores, PSI and KS on inputs, the runner.
export { DRIFT_EVENT_METRIC, DRIFT_SCORE_METRIC, DriftRunner, type DriftParams, type DriftRunnerOptions, type TrackedDriftEvent } from './drift/index.js';
