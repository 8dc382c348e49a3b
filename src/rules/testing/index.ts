/** Test doubles, spec builders and a one-group harness shared by the tests of `src/rules` (they may not import the engine or the TSDB). */
export { RecordingAppendable, ScriptedQueryClient, vectorResult, type InstantAnswer, type RecordedSample } from './doubles.js';
export { alertingSpec, groupSpec, recordingSpec } from './specs.js';
export { STEP, T0, oneGroup, seriesScript } from './one-group.js';
