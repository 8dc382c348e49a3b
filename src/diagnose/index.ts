export { CAUSE_IDS, SYMPTOMS } from './types.js';
export type { Cause, CauseId, DiagnoseRequest, Diagnoser, Diagnosis, Evidence, Insight, Scope, Symptom } from './types.js';
export { createDiagnoser, type DiagnoserOptions } from './diagnoser.js';
export { DETECTORS } from './detectors/index.js';
export type { Detector, Finding, Reading } from './detector.js';
export { DEFAULT_WINDOWS, type WindowOptions } from './window.js';
export { SYMPTOM_QUERIES } from './symptoms.js';
export {
  CAUSE_CONFIDENCE_METRIC,
  INSIGHT_OPEN_METRIC,
  InsightRunner,
  symptomQuery,
  type InsightRunnerOptions,
  type InsightSample,
  type InsightSink,
  type SymptomRule,
} from './online/index.js';
