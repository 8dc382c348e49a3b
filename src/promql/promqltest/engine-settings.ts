import type { EngineOptions } from '../engine/index.js';

/**
 * The engine and parser settings the promqltest files assume (test.go's `NewTestEngine` and
 * `TestParserOpts` at v3.14). Kept as data so that every runner of the scripts — the upstream
 * suite, our own cases, differential runs — builds its engine the same way.
 */
export const TEST_ENGINE_SETTINGS = {
  /** How far back an instant selector looks. */
  lookbackDeltaMs: 5 * 60_000,
  /** `DefaultMaxSamplesPerQuery`. */
  maxSamples: 10_000,
  /** The step of a subquery written without one (`x[5m:]`). */
  noStepSubqueryIntervalMs: 60_000,
  /** test.go's 100 s query timeout. */
  timeoutMs: 100_000,
  enableExperimentalFunctions: true,
  enableDurationExpressions: true,
  enableExtendedRangeSelectors: true,
  enableBinopFillModifiers: true,
  /** `__name__` is dropped at the end of evaluation, not at each function. */
  enableDelayedNameRemoval: true,
} as const satisfies EngineOptions;
