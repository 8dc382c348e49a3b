/**
 * The read contract of Infersight's quality routes (issue 18), beside the diagnosis routes' wire
 * types: `GET /api/v1/quality/samples`, `/samples/{id}`, `/drift` and `/status`. These are the
 * JSON the server writes (times in Unix seconds, durations in seconds, as every Infersight API
 * time); the UI reads them. Every text (prompt, response, a judge's reasoning) is a JSON string
 * that a reader shows as text, never as markup. docs/api.md describes the routes.
 */

/** One sampled request/response pair (src/quality's `SampledPair`), after redaction. */
export interface SampledPairWire {
  readonly id: string;
  /** Unix seconds. */
  readonly time: number;
  readonly endpoint: string;
  readonly component: string;
  readonly model: string;
  readonly prompt: string;
  readonly response: string;
  readonly status: number;
  readonly finishReason: string | null;
  readonly promptTokens: number | null;
  readonly completionTokens: number | null;
  readonly wantJson: boolean;
  readonly ttftSeconds: number | null;
  readonly e2eSeconds: number;
}

/** One evaluation of a pair: a stage-1 check or a judge's rubric. */
export interface EvaluationWire {
  readonly stage: 1 | 2;
  /** `stage1:<check>` or `judge:<rubric>`. */
  readonly evaluator: string;
  readonly dimension: string | null;
  /** In [0, 1]; null when the evaluation failed. */
  readonly score: number | null;
  readonly flag: string | null;
  readonly detail: string;
  readonly error: string | null;
  readonly durationSeconds: number;
  readonly judgeTokens: { readonly input: number; readonly output: number } | null;
  /** Unix seconds. */
  readonly time: number;
}

/** A pair with its evaluations. */
export interface SampleWire {
  readonly pair: SampledPairWire;
  readonly evaluations: readonly EvaluationWire[];
}

/** The `data` of `GET /api/v1/quality/samples`: newest first. */
export interface QualitySamplesData {
  readonly samples: readonly SampleWire[];
}

/** One drift event (src/quality's `DriftEvent`), times in Unix seconds. */
export interface DriftEventWire {
  readonly id: string;
  readonly model: string;
  readonly component: string;
  /** `{kind: 'score', dimension}` or `{kind: 'input', feature}`. */
  readonly subject: { readonly kind: 'score'; readonly dimension: string } | { readonly kind: 'input'; readonly feature: string };
  readonly test: string;
  readonly statistic: number;
  readonly threshold: number;
  readonly onset: number;
  readonly detected: number;
  readonly summary: string;
}

/** The `data` of `GET /api/v1/quality/drift`: oldest onset first. */
export interface QualityDriftData {
  readonly events: readonly DriftEventWire[];
}

/** The `data` of `GET /api/v1/quality/status`. */
export interface QualityStatusData {
  /** The sample store: its backend and size (`oldest` in Unix seconds, null when empty). */
  readonly store: { readonly kind: string; readonly pairs: number; readonly evaluations: number; readonly bytes: number; readonly oldest: number | null };
  /** The evaluation pipeline's counters as it reports them (queue length, drops, judge budget left); null when none runs. */
  readonly pipeline: Readonly<Record<string, unknown>> | null;
  /** The share of the gateway's samples handed to the pipeline. */
  readonly sampling: number;
  /** The stage-2 judge (null: stage 1 only) and the share of pairs it sees. */
  readonly judge: { readonly model: string; readonly baseURL: string; readonly share: number; readonly tokenBudgetPerHour: number } | null;
  readonly retention: { readonly maxAgeSeconds: number; readonly maxBytes: number };
  /** Whether drift detection runs. */
  readonly drift: boolean;
}
