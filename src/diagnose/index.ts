export { CAUSE_IDS, SYMPTOMS } from './types.js';
export type { Cause, CauseId, DiagnoseRequest, Diagnoser, Diagnosis, Evidence, Insight, Scope, Symptom } from './types.js';
