/**
 * Stable error codes of the storage contracts. Every implementation (the embedded TSDB, the
 * remote_write appender) throws `StorageError` with one of these codes; the HTTP layer maps
 * them onto Prometheus' `errorType` values. The table in docs/errors.md lists them.
 */
export const StorageErrorCode = {
  /** A sample is older than the newest sample of its series (and outside any out-of-order window). */
  OUT_OF_ORDER_SAMPLE: 'ERR_OUT_OF_ORDER_SAMPLE',
  /** A sample repeats the timestamp of an existing one with a different value. */
  DUPLICATE_SAMPLE_FOR_TIMESTAMP: 'ERR_DUPLICATE_SAMPLE_FOR_TIMESTAMP',
  /** A sample is older than what the store still accepts (before the head's minimum valid time). */
  OUT_OF_BOUNDS: 'ERR_OUT_OF_BOUNDS',
  /** A sample is older than the out-of-order window allows. */
  TOO_OLD_SAMPLE: 'ERR_TOO_OLD_SAMPLE',
  /** A label set lacks a metric name or has an empty label name. */
  INVALID_LABELS: 'ERR_INVALID_LABELS',
  /** A timestamp is not a safe integer. */
  INVALID_TIMESTAMP: 'ERR_INVALID_TIMESTAMP',
  /** The appender was already committed or rolled back. */
  APPENDER_CLOSED: 'ERR_APPENDER_CLOSED',
  /** The storage was closed. */
  STORAGE_CLOSED: 'ERR_STORAGE_CLOSED',
  /** A limit (series, samples per request) was exceeded. */
  LIMIT_EXCEEDED: 'ERR_LIMIT_EXCEEDED',
  /** Data on disk failed a checksum or could not be decoded. */
  CORRUPTION: 'ERR_CORRUPTION',
  /** The storage cannot take writes right now (I/O error, remote unavailable); a retry can succeed. */
  UNAVAILABLE: 'ERR_STORAGE_UNAVAILABLE',
} as const;

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
}

/** Reports whether `err` is a `StorageError` with the given code. */
export function isStorageError(err: unknown, code?: StorageErrorCode): err is StorageError {
  return err instanceof StorageError && (code === undefined || err.code === code);
}
