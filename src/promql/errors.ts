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
