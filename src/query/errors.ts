import type { ErrorType } from './wire.js';

/**
 * A `QueryClient` call failed. `errorType` is Prometheus' vocabulary and is what callers match on:
 *
 * - `bad_data`: the request can never succeed (a query that does not parse, a bad parameter);
 * - `execution`: the query parsed but failed while running (too many samples, a bad regex at
 *   evaluation, a many-to-many match);
 * - `timeout` / `canceled`: the query ran out of time, or the caller aborted it;
 * - `unavailable`: the backend cannot answer now (not ready, unreachable); a retry may succeed;
 * - `internal`: a bug or corruption on the backend's side;
 * - `not_found` / `not_acceptable`: HTTP-level refusals;
 * - `bad_response`: the backend answered something that is not Prometheus' API JSON.
 *
 * `message` follows Prometheus' wording where Prometheus has one and may change; `httpStatus` is
 * the status the HTTP API answers (or answered) with.
 */
export class QueryClientError extends Error {
  /** Creates the error; `httpStatus` defaults to the status Prometheus uses for `errorType`. */
  constructor(
    readonly errorType: ErrorType,
    message: string,
    readonly httpStatus: number = httpStatusForErrorType(errorType),
    /** Warnings the backend sent along with the error. */
    readonly warnings: readonly string[] = [],
  ) {
    super(message);
    this.name = 'QueryClientError';
  }
}

/** Reports whether `e` is a `QueryClientError` (also one from another copy of this module, by name and shape). */
export function isQueryClientError(e: unknown): e is QueryClientError {
  if (e instanceof QueryClientError) return true;
  return e instanceof Error && e.name === 'QueryClientError' && typeof (e as Partial<Record<'errorType', unknown>>).errorType === 'string';
}

/**
 * The HTTP status Prometheus' API answers for an `errorType` (`respondError` in
 * web/api/v1/api.go): bad_data 400, execution 422, canceled 499, timeout and unavailable 503,
 * not_found 404, not_acceptable 406, anything else 500.
 */
export function httpStatusForErrorType(t: ErrorType): number {
  switch (t) {
    case 'bad_data':
      return 400;
    case 'execution':
      return 422;
    case 'canceled':
      return 499;
    case 'timeout':
    case 'unavailable':
      return 503;
    case 'not_found':
      return 404;
    case 'not_acceptable':
      return 406;
    case 'internal':
    case 'bad_response':
      return 500;
  }
}

/**
 * The `errorType` to assume for an HTTP error status when the body does not name one of
 * Prometheus' types (VictoriaMetrics writes the status code there; proxies send HTML):
 * 400 bad_data, 404 not_found, 406 not_acceptable, 422 execution, 499 canceled, 503 and 429
 * unavailable, 504 timeout, other 5xx internal, other 4xx bad_data.
 */
export function errorTypeForHttpStatus(status: number): ErrorType {
  switch (status) {
    case 404:
      return 'not_found';
    case 406:
      return 'not_acceptable';
    case 422:
      return 'execution';
    case 499:
      return 'canceled';
    case 429:
    case 502:
    case 503:
      return 'unavailable';
    case 504:
      return 'timeout';
    default:
      return status >= 500 ? 'internal' : 'bad_data';
  }
}

/**
 * What each `errorType` means as Infersight uses it: the query API's part of the error registry
 * (its statuses are `httpStatusForErrorType`'s). docs/errors.md is generated from it.
 */
export const ERROR_TYPE_MEANINGS: Readonly<Record<ErrorType, string>> = {
  bad_data:
    "the request can never succeed: a parameter Prometheus' rules refuse, a query that does not parse or type-check, a selector whose matchers all match the empty string, a query or body over the API's limits",
  execution: 'the query parsed but failed while running (sample limit, many-to-many matching, `ERR_LIMIT_EXCEEDED`)',
  canceled: 'the caller aborted (`signal`), or the HTTP client went away',
  timeout: 'the query ran out of time (`timeout` parameter, engine timeout)',
  unavailable: 'the backend cannot answer now: the store is replaying its WAL or closed, a remote server is unreachable; a retry can succeed',
  internal: '`ERR_CORRUPTION`, `ERR_APPENDER_CLOSED` or a bug',
  not_found: 'an HTTP-level refusal: no such route',
  not_acceptable: 'an HTTP-level refusal: no acceptable representation',
  bad_response: "client side only: a server answered something that is not Prometheus' API JSON",
};
