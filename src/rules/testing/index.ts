/** Test doubles and spec builders shared by the tests of `src/rules` (they may not import the engine or the TSDB). */
export { RecordingAppendable, ScriptedQueryClient, vectorResult, type InstantAnswer, type RecordedSample } from './doubles.js';
export { alertingSpec, groupSpec, recordingSpec } from './specs.js';
