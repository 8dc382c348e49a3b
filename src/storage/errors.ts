import { codesOf, specsByCode, type ErrorRegistry, type ErrorSpec } from '../model/index.js';

/**
 * The registry of the storage contracts' stable error codes. Every implementation (the embedded
 * TSDB, the remote_write appender) throws `StorageError` with one of these codes. Each entry
 * carries its write-path status (what the remote_write and OTLP receivers answer: 4xx when a
 * retry of the same request can never succeed, 5xx when it can, as Prometheus' receiver) and
 * the query API's `errorType`. docs/errors.md is generated from it.
 */
export const STORAGE_ERRORS = {
  OUT_OF_ORDER_SAMPLE: {
    code: 'ERR_OUT_OF_ORDER_SAMPLE',
    meaning: 'A sample is older than the newest sample of its series, and the store has no out-of-order window.',
    status: 400,
    errorType: 'bad_data',
  },
  DUPLICATE_SAMPLE_FOR_TIMESTAMP: {
    code: 'ERR_DUPLICATE_SAMPLE_FOR_TIMESTAMP',
    meaning:
      'A sample repeats the timestamp of an existing sample with a different value. (The same value at the same timestamp, bit for bit, is accepted and ignored.)',
    status: 400,
    errorType: 'bad_data',
  },
  OUT_OF_BOUNDS: {
    code: 'ERR_OUT_OF_BOUNDS',
    meaning: "A sample is older than the store accepts at all: before the head's minimum valid time (see below).",
    status: 400,
    errorType: 'bad_data',
  },
  TOO_OLD_SAMPLE: {
    code: 'ERR_TOO_OLD_SAMPLE',
    meaning: 'A sample is older than the out-of-order window allows (see below).',
    status: 400,
    errorType: 'bad_data',
  },
  INVALID_LABELS: {
    code: 'ERR_INVALID_LABELS',
    meaning: 'A label set lacks a metric name (an empty set included) or has an empty label name.',
    status: 400,
    errorType: 'bad_data',
    note:
      "Prometheus' remote_write receiver drops series with invalid labels, counts them, and answers 204. We refuse the request instead: a sender that is told learns about the bad series; one that is not loses data silently.",
  },
  INVALID_TIMESTAMP: {
    code: 'ERR_INVALID_TIMESTAMP',
    meaning: 'A timestamp is not a safe integer of milliseconds.',
    status: 400,
    errorType: 'bad_data',
  },
  LIMIT_EXCEEDED: {
    code: 'ERR_LIMIT_EXCEEDED',
    meaning: 'A configured limit (series, samples per request) was exceeded.',
    status: 400,
    errorType: 'execution',
    note: 'Not retried, because the same request would exceed the same limit again. A rate limit, where waiting helps, would get its own code and 429.',
  },
  APPENDER_CLOSED: {
    code: 'ERR_APPENDER_CLOSED',
    meaning: '`append`, `commit` or `rollback` on an appender that was already committed or rolled back: a bug in the caller.',
    status: 500,
    errorType: 'internal',
  },
  STORAGE_CLOSED: {
    code: 'ERR_STORAGE_CLOSED',
    meaning: 'The storage was closed (the process is shutting down).',
    status: 503,
    errorType: 'unavailable',
  },
  CORRUPTION: {
    code: 'ERR_CORRUPTION',
    meaning: 'Data on disk failed a checksum or could not be decoded.',
    status: 500,
    errorType: 'internal',
  },
  UNAVAILABLE: {
    code: 'ERR_STORAGE_UNAVAILABLE',
    meaning: 'The storage cannot serve right now (I/O error, remote end unavailable); a retry can succeed.',
    status: 503,
    errorType: 'unavailable',
  },
} as const satisfies ErrorRegistry;

/** The codes of `STORAGE_ERRORS` by key (`StorageErrorCode.CORRUPTION === 'ERR_CORRUPTION'`). */
export const StorageErrorCode = codesOf(STORAGE_ERRORS);

const BY_CODE = specsByCode(STORAGE_ERRORS);

/** One of the codes in `StorageErrorCode`. */
export type StorageErrorCode = (typeof StorageErrorCode)[keyof typeof StorageErrorCode];

/** An error raised by a storage contract, carrying a stable code. */
export class StorageError extends Error {
  constructor(
    readonly code: StorageErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StorageError';
  }

  /** The registry entry of `code`: its write-path status and query API `errorType`. */
  get spec(): ErrorSpec {
    return BY_CODE.get(this.code) as ErrorSpec;
  }
}

/** Reports whether `err` is a `StorageError` with the given code. */
export function isStorageError(err: unknown, code?: StorageErrorCode): err is StorageError {
  return err instanceof StorageError && (code === undefined || err.code === code);
}
