/**
 * Public surface of the promqltest runner: Prometheus' PromQL script tests (`load`/`eval`) run
 * against any `QueryEngine`. See README.md.
 */
export { almostEqual, compareResult, DEFAULT_EPSILON } from './compare.js';
export { embeddedEngineDeps } from './embedded.js';
export { TEST_ENGINE_SETTINGS } from './engine-settings.js';
export { MemoryStorage } from './memory-storage.js';
export { runScript, runScriptText, type EvalRecord, type EvalStatus, type RunOptions, type RunnerDeps } from './runner.js';
export { ScriptError, parseScript, type Command, type EvalCommand, type LoadCommand, type Script } from './script.js';
export { expandSeriesValues, parseSeriesLine, type SequenceValue } from './series-notation.js';
