/**
 * The ports and options of the quality pipeline (pipeline.ts): what it needs of the metrics
 * writer and the store, how it is tuned, and what it reports about itself.
 */
import type { Clock, Logger } from '../model/index.js';
import type { LengthTrackerOptions, Stage1Options } from './stage1/index.js';
import type { EvaluationRecord } from './ingest/index.js';
import type { Judge, QualityScore, Rubric, SampleStore } from './types.js';

/** One evaluation as the metrics writer records it: the writer's own type (src/quality/ingest). */
export type { EvaluationRecord } from './ingest/index.js';

/**
 * What the pipeline needs of the one writer of the quality series (src/quality/ingest's
 * `QualityMetrics` has this shape): `recordScores` resolves once stored; `recordEvaluation` may
 * batch (then `flush` writes, and `drain` calls it).
 */
export interface PipelineMetrics {
  recordScores(scores: readonly QualityScore[]): Promise<void>;
  recordEvaluation(e: EvaluationRecord): void | Promise<void>;
  flush?(): Promise<void>;
}

/** How a `QualityPipeline` is built. */
export interface QualityPipelineOptions {
  readonly store: Pick<SampleStore, 'putPairs' | 'putEvaluations'>;
  readonly metrics: PipelineMetrics;
  /** The stage-2 judge, or null for stage 1 only. */
  readonly judge: Judge | null;
  readonly rubrics: readonly Rubric[];
  /** The share of pairs sent to the judge, each for every rubric (0..1). */
  readonly judgeShare: number;
  /** Judge calls in flight at most. */
  readonly maxConcurrency: number;
  /** Judge tokens (input + output) per clock hour; a call that would exceed it is skipped and counted. */
  readonly tokenBudgetPerHour: number;
  /** Applied to the prompt and the answer before anything is stored (`compileRedaction`, src/model). */
  readonly redact: (text: string) => string;
  readonly clock: Clock;
  /** Uniform in [0, 1): the judge's sub-sample and the pair ids' prefix. */
  readonly random: () => number;
  /** The stage-1 options (blocklist, allowed PII kinds, language confidence). */
  readonly stage1?: Omit<Stage1Options, 'lengths' | 'tMs' | 'monotonicMs'>;
  /** The length baselines' window and threshold. */
  readonly lengths?: LengthTrackerOptions;
  /** Samples waiting at most; beyond, `accept` drops and counts (default 10,000). */
  readonly maxQueue?: number;
  /** Judge calls waiting at most; beyond, they are dropped and counted (default 1,000). */
  readonly maxJudgeQueue?: number;
  /** Pairs (and judge results) per store transaction at most (default 256). */
  readonly batchSize?: number;
  /** The judge's `max_tokens`, for the budget's estimate of a call before it is made (default 256). */
  readonly judgeOutputTokens?: number;
  readonly logger?: Logger;
  /** A monotonic clock in milliseconds for durations (default `performance.now`). */
  readonly monotonicMs?: () => number;
}

/** What the pipeline has done since it started. */
export interface QualityPipelineStats {
  readonly accepted: number;
  /** Samples refused because the queue was full, or after `close`. */
  readonly dropped: number;
  readonly queued: number;
  readonly pairsStored: number;
  readonly stage1Evaluations: number;
  readonly stage1Flags: number;
  /** Judge calls queued, made, succeeded, failed. */
  readonly judgeQueued: number;
  readonly judgeCalls: number;
  readonly judged: number;
  readonly judgeErrors: number;
  /** Judge calls skipped over the hourly token budget, dropped from a full judge queue, or cancelled by `close`. */
  readonly judgeSkippedBudget: number;
  readonly judgeDropped: number;
  readonly judgeInFlight: number;
  readonly judgeTokensThisHour: number;
  /** Store writes that failed (a full disk, a lost connection): their rows are lost, the pipeline goes on. */
  readonly storeErrors: number;
  readonly metricsErrors: number;
}
