export { CAUSE_IDS, SYMPTOMS } from './types.js';
export type { Cause, CauseId, DiagnoseRequest, Diagnoser, Diagnosis, Evidence, Insight, Scope, Symptom } from './types.js';
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
