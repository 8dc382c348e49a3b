/**
 * The contract of src/quality: what the server, the gateway's sample port, the API and the UI
 * read. Quality is its own namespace (`llm_quality_*`) from the door in: scores reach the store
 * only through the quality path (`ScoreIngest`), and a quality series never carries an
 * infrastructure-only label. The module reads metrics only through a `QueryClient` and writes
 * series only through a `SeriesSink` (src/model), which src/server binds to the store; sampled
 * pairs and their evaluations live in a `SampleStore` (SQL: embedded PGlite by default,
 * PostgreSQL when shared).
 */
import type { UnixMs } from '../model/index.js';

/** The judged dimensions, as `llm_quality_score{dimension}` carries them. */
export const QUALITY_DIMENSIONS = ['accuracy', 'relevance', 'safety', 'professional_tone', 'composite'] as const;
export type QualityDimension = (typeof QUALITY_DIMENSIONS)[number];

/** One score, as `POST /api/v1/quality/scores` takes it (`time` in Unix seconds there). */
export interface QualityScore {
  readonly model: string;
  readonly component: string;
  readonly dimension: QualityDimension;
  /** In [0, 1]. */
  readonly score: number;
  /** Who scored it (`stage1`, `judge:<model>`, an external evaluator's name). */
  readonly evaluator: string;
  readonly requestId?: string;
  readonly tMs: UnixMs;
}

/** The answer of an accepted batch. */
export interface ScoreIngestResult {
  readonly accepted: number;
}

/**
 * The quality path into the store: validates a whole batch (range, dimension, time not in the
 * future, labels) and stores all of it or nothing, as `llm_quality_score` (the recent mean per
 * model, component and dimension) and the evaluation counters. Rejects with a `QualityInputError`
 * naming the first bad entry.
 */
export interface ScoreIngest {
  ingest(scores: readonly QualityScore[]): Promise<ScoreIngestResult>;
}

/** Why a batch was refused: the entry's index and field, and a sentence. */
export interface QualityInputProblem {
  readonly index: number;
  readonly field: string;
  readonly message: string;
}

/** One sampled request/response pair, after redaction, as the sample store keeps it. */
export interface SampledPair {
  /** Unique per pair (the gateway's request id, or one the pipeline assigns). */
  readonly id: string;
  readonly tMs: UnixMs;
  readonly endpoint: string;
  readonly component: string;
  readonly model: string;
  /** The prompt as text (chat messages joined, role-prefixed), redacted. */
  readonly prompt: string;
  /** The answer as text, redacted. */
  readonly response: string;
  readonly status: number;
  readonly finishReason: string | null;
  readonly promptTokens: number | null;
  readonly completionTokens: number | null;
  /** Whether the request asked for JSON output (`response_format`). */
  readonly wantJson: boolean;
  /** Seconds, as the gateway measured them (null where not applicable). */
  readonly ttftS: number | null;
  readonly e2eS: number;
}

/** The stage-1 (cheap, every sampled pair) flags. */
export const STAGE1_FLAGS = ['refusal', 'empty', 'truncated', 'invalid_json', 'pii', 'blocklist', 'language_mismatch', 'length_anomaly'] as const;
export type Stage1Flag = (typeof STAGE1_FLAGS)[number];

/** One evaluation of one pair: a stage-1 check or a stage-2 judge's rubric. */
export interface Evaluation {
  readonly pairId: string;
  readonly stage: 1 | 2;
  /** `stage1:<check>` or `judge:<rubric>`. */
  readonly evaluator: string;
  /** The dimension scored (stage 2), or null for a stage-1 flag check. */
  readonly dimension: QualityDimension | null;
  /** In [0, 1] (stage 1: 1 passed, 0 flagged); null when the evaluation failed. */
  readonly score: number | null;
  /** The stage-1 flag raised, if any. */
  readonly flag: Stage1Flag | null;
  /** The judge's reasoning or the check's detail, as text (never rendered as HTML). */
  readonly detail: string;
  /** Why it failed (timeout, garbage answer, HTTP 500), null when it did not. */
  readonly error: string | null;
  readonly durationS: number;
  readonly judgeTokens: { readonly input: number; readonly output: number } | null;
  readonly tMs: UnixMs;
}

/** A filter of the sample browser (`/api/v1/quality/samples`). */
export interface SampleFilter {
  readonly model?: string;
  readonly component?: string;
  readonly dimension?: QualityDimension;
  /** Only pairs with a score on `dimension` (any dimension when absent) at most / at least this. */
  readonly maxScore?: number;
  readonly minScore?: number;
  readonly flag?: Stage1Flag;
  readonly startMs?: UnixMs;
  readonly endMs?: UnixMs;
  /** At most this many (newest first); the store caps it. */
  readonly limit?: number;
}

/** A pair with its evaluations, as the browser shows it. */
export interface SampleRecord {
  readonly pair: SampledPair;
  readonly evaluations: readonly Evaluation[];
}

/** How big the store is. */
export interface SampleStoreStats {
  readonly pairs: number;
  readonly evaluations: number;
  /** Bytes the stored texts and rows take, as the database reports them. */
  readonly bytes: number;
  readonly oldestMs: UnixMs | null;
}

/**
 * The sample store: the same contract (and the same test suite) over the embedded database and
 * over PostgreSQL. Writes are transactions: a batch is stored whole or not at all.
 */
export interface SampleStore {
  /** Which backend (`pglite`, `postgres`), for the status page and the logs. */
  readonly kind: string;
  /** Creates or upgrades the schema (numbered migrations, recorded in the database). */
  migrate(): Promise<void>;
  putPairs(pairs: readonly SampledPair[]): Promise<void>;
  putEvaluations(evaluations: readonly Evaluation[]): Promise<void>;
  find(filter: SampleFilter): Promise<SampleRecord[]>;
  get(id: string): Promise<SampleRecord | null>;
  stats(): Promise<SampleStoreStats>;
  /** Deletes pairs older than `maxAgeMs` before `nowMs`, then the oldest until under `maxBytes`; resolves with the pairs deleted. */
  enforceRetention(nowMs: UnixMs, limits: { readonly maxAgeMs: number; readonly maxBytes: number }): Promise<number>;
  close(): Promise<void>;
}

/** A judge's rubric, as data (docs/quality.md lists the defaults). */
export interface Rubric {
  readonly id: string;
  readonly dimension: QualityDimension;
  /** The instruction the judge gets; `{{prompt}}` and `{{response}}` are replaced by the pair's texts. */
  readonly instruction: string;
}

/** What a judge answered for one pair and rubric. */
export interface JudgeVerdict {
  readonly score: number;
  readonly reasoning: string;
  readonly tokens: { readonly input: number; readonly output: number };
  readonly durationS: number;
}

/** A stage-2 judge at an OpenAI-compatible endpoint. Rejects on timeout, a non-2xx answer or an answer it cannot read. */
export interface Judge {
  /** The judge model's name, for the evaluator label `judge:<model>` (the pipeline's default when absent: `judge`). */
  readonly model?: string;
  judge(pair: SampledPair, rubric: Rubric, signal?: AbortSignal): Promise<JudgeVerdict>;
}

/** What a drift detector watches. */
export type DriftSubject =
  | { readonly kind: 'score'; readonly dimension: QualityDimension }
  | { readonly kind: 'input'; readonly feature: 'prompt_length' | 'output_length' | 'language' | Stage1Flag };

/** A drift event: a change detected on a model's scores or inputs, with its onset. */
export interface DriftEvent {
  readonly id: string;
  readonly model: string;
  readonly component: string;
  readonly subject: DriftSubject;
  /** The test that fired (`page-hinkley`, `cusum`, `psi`, `ks`) and its statistic against its threshold. */
  readonly test: 'page-hinkley' | 'cusum' | 'psi' | 'ks';
  readonly statistic: number;
  readonly threshold: number;
  /** When the change began (the detector's estimate) and when it was detected. */
  readonly onsetMs: UnixMs;
  readonly detectedMs: UnixMs;
  /** Baseline and recent means (or distributions' summaries) in words. */
  readonly summary: string;
}
