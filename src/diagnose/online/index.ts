/**
 * The online part of diagnosis: symptoms watched every tick, insights opened and resolved, their
 * causes from the `Diagnoser`, and their `llm_diagnosis_*` series. Imports only model, query and
 * semconv (and the diagnose contract), as all of src/diagnose.
 */
export { InsightRunner, scopeSelector, type InsightRunnerOptions } from './runner.js';
export { CAUSE_CONFIDENCE_METRIC, CAUSES_AS_SERIES, INSIGHT_OPEN_METRIC, InsightSeries, type InsightSample, type InsightSink } from './series.js';
export { BASELINE_WINDOW, DEFAULT_SYMPTOM_RULES, SCOPE_LABELS, SLO_BURN_EXPR, TPS_SYMPTOM_RULE, crosses, scopeMatchers, sloSymptom, symptomQuery, type SymptomRule } from './symptoms.js';
export { InsightTracker, insightId, scopeKey, type Observation, type TickChanges, type TrackedInsight, type TrackerOptions } from './tracker.js';
