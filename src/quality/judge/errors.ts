/**
 * Why a judge call failed. The pipeline turns each into an evaluation with `error` set (the
 * reason and the message) and counts it in `llm_quality_evaluation_errors_total`; none of them
 * stops the pipeline.
 */

/** The kinds of judge failure. */
export const JUDGE_FAILURES = ['timeout', 'aborted', 'http', 'connection', 'garbage', 'out_of_range'] as const;
export type JudgeFailure = (typeof JUDGE_FAILURES)[number];

/** A judge call that produced no verdict: `reason` says which way it failed. */
export class JudgeError extends Error {
  constructor(
    readonly reason: JudgeFailure,
    message: string,
    /** The HTTP status, for `http`. */
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'JudgeError';
  }
}
