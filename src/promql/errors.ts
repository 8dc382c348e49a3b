import { codesOf, type ErrorRegistry } from '../model/index.js';

/**
 * The registry of PromQL's stable error codes (docs/errors.md is generated from it). Evaluation
 * errors carry Prometheus' `errorType` (`QueryError`) instead of a code, as Prometheus' do.
 */
export const PROMQL_ERRORS = {
  PARSE: {
    code: 'ERR_PROMQL_PARSE',
    meaning:
      "`ParseError` from `parseExpr`: the query is not valid PromQL (text as Prometheus', e.g. `1:5: parse error: unexpected <op:+>`, with a position and `render()` for a caret view).",
    status: 400,
    errorType: 'bad_data',
  },
} as const satisfies ErrorRegistry;

/** The codes of `PROMQL_ERRORS` by key. */
export const PromqlErrorCode = codesOf(PROMQL_ERRORS);

/**
 * The `errorType` values of Prometheus' HTTP API that a query can end with, and the error class
 * the engine throws. The server maps `errorType` to the HTTP status as Prometheus does
 * (`bad_data` 400, `execution` 422, `timeout`/`unavailable` 503, `canceled` 499, `internal` 500).
 */
export type QueryErrorType = 'bad_data' | 'execution' | 'timeout' | 'canceled' | 'internal' | 'unavailable';

/** A query failed; `message` uses Prometheus' wording where it has one. */
export class QueryError extends Error {
  constructor(
    readonly errorType: QueryErrorType,
    message: string,
  ) {
    super(message);
    this.name = 'QueryError';
  }
}

/** Prometheus' text for exceeding the sample limit (`ErrTooManySamples`). */
export function tooManySamplesError(where: string): QueryError {
  return new QueryError('execution', `query processing would load too many samples into memory in ${where}`);
}
