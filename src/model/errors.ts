/**
 * The shape of every module's error registry (`src/<module>/errors.ts`): each stable `ERR_…` code
 * is one entry that carries, with the code, what it means, the HTTP status a request refused
 * with it gets, and the Prometheus `errorType` the query API answers with, as Fastify's
 * `createError(code, message, statusCode)` keeps code and status together. docs/errors.md is
 * generated from the registries (scripts/gen-errors-doc.ts), and no code outside a registry
 * picks a status for a code: an error carries its entry's status (`errorStatus`).
 */

/** The `errorType` values Prometheus' HTTP API answers with (`src/query`'s `ErrorType` adds `bad_response`). */
export type PrometheusErrorType = 'bad_data' | 'execution' | 'timeout' | 'canceled' | 'internal' | 'unavailable' | 'not_found' | 'not_acceptable';

/** One registered error code. */
export interface ErrorSpec {
  /** The stable code, `ERR_…`. A released code keeps its meaning. */
  readonly code: `ERR_${string}`;
  /** What the code means, in one or two sentences (docs/errors.md's "meaning" column). */
  readonly meaning: string;
  /**
   * The HTTP status of a request refused with this code where the code is raised: the write path
   * for storage codes (remote_write, OTLP), the endpoint's own for the others. `null` when no
   * HTTP answer carries the code (a configuration error ends the command).
   */
  readonly status: number | null;
  /**
   * The query API's `errorType` (its status follows from it, as in Prometheus' `respondError`),
   * or `null` when the code never reaches the query API.
   */
  readonly errorType: PrometheusErrorType | null;
  /** A footnote for docs/errors.md: why the status differs from what one might expect. */
  readonly note?: string;
}

/** A module's registry: its codes by a short upper-case key (`OUT_OF_ORDER_SAMPLE`). */
export type ErrorRegistry = Readonly<Record<string, ErrorSpec>>;

/** The codes of a registry by key: `codesOf(STORAGE_ERRORS).OUT_OF_ORDER_SAMPLE === 'ERR_OUT_OF_ORDER_SAMPLE'`. */
export type ErrorCodes<R extends ErrorRegistry> = { readonly [K in keyof R]: R[K]['code'] };

/** The `{ KEY: code }` object of a registry, for code that compares codes (`e.code === StorageErrorCode.CORRUPTION`). */
export function codesOf<R extends ErrorRegistry>(registry: R): ErrorCodes<R> {
  return Object.fromEntries(Object.entries(registry).map(([k, spec]) => [k, spec.code])) as ErrorCodes<R>;
}

/** The entries of a registry by code. */
export function specsByCode(registry: ErrorRegistry): ReadonlyMap<string, ErrorSpec> {
  return new Map(Object.values(registry).map((spec) => [spec.code, spec]));
}

/** An error that carries its registry entry (every registered module error class does). */
export interface CodedError extends Error {
  /** The registry entry of the error's code. */
  readonly spec: ErrorSpec;
}

/** Reports whether `e` is an error carrying a registry entry. */
export function isCodedError(e: unknown): e is CodedError {
  if (!(e instanceof Error)) return false;
  const spec = (e as Partial<CodedError>).spec;
  return typeof spec === 'object' && spec !== null && typeof spec.code === 'string';
}

/**
 * The HTTP status of anything thrown, read from its registry entry: the entry's status for a
 * registered error that has one, `fallback` (500: a bug, or a failure no registry names) otherwise.
 */
export function errorStatus(e: unknown, fallback = 500): number {
  return isCodedError(e) && e.spec.status !== null ? e.spec.status : fallback;
}
