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
