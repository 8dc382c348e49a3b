import { isStorageError, StorageErrorCode } from '../storage/index.js';
import { isWireError, WireErrorCode } from '../wire/index.js';

/**
 * Stable error codes of the ingest receivers (remote write, OTLP/HTTP). Each maps to the HTTP
 * status a receiver answers with (`ingestStatusFor`), following the write-path rule of
 * docs/errors.md: 4xx when a retry of the same request can never succeed, 5xx when it can.
 */
export const IngestErrorCode = {
  /** Content-Type or Content-Encoding the receiver does not speak (415). */
  UNSUPPORTED_MEDIA_TYPE: 'ERR_INGEST_UNSUPPORTED_MEDIA_TYPE',
  /** The body, compressed or decompressed, is larger than the configured limit (413). */
  BODY_TOO_LARGE: 'ERR_INGEST_BODY_TOO_LARGE',
  /** The body does not decode (bad snappy, gzip, protobuf or JSON) (400). */
  MALFORMED_REQUEST: 'ERR_INGEST_MALFORMED_REQUEST',
  /** A series' labels are invalid: no metric name, an empty or duplicate label name, a name OTLP translation cannot build (400). */
  INVALID_SERIES: 'ERR_INGEST_INVALID_SERIES',
  /** A sample Infersight cannot store: a native histogram, a timestamp that is not an integer or too far in the future (400). */
  INVALID_SAMPLE: 'ERR_INGEST_INVALID_SAMPLE',
  /** A request over the series-per-request limit, or a metric over the per-metric series limit (400). */
  LIMIT_EXCEEDED: 'ERR_INGEST_LIMIT_EXCEEDED',
} as const;

/** One of the codes in `IngestErrorCode`. */
export type IngestErrorCode = (typeof IngestErrorCode)[keyof typeof IngestErrorCode];

/** A refused ingest request, carrying a stable code. */
export class IngestError extends Error {
  /** Creates the error; the message is sent to the client as the response body. */
  constructor(
    readonly code: IngestErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'IngestError';
  }
}

const STATUS: Readonly<Record<IngestErrorCode, number>> = {
  ERR_INGEST_UNSUPPORTED_MEDIA_TYPE: 415,
  ERR_INGEST_BODY_TOO_LARGE: 413,
  ERR_INGEST_MALFORMED_REQUEST: 400,
  ERR_INGEST_INVALID_SERIES: 400,
  ERR_INGEST_INVALID_SAMPLE: 400,
  ERR_INGEST_LIMIT_EXCEEDED: 400,
};

/** Storage codes that a retry cannot fix: Prometheus answers 400 for these so senders drop the batch. */
const STORAGE_BAD_REQUEST = new Set<string>([
  StorageErrorCode.OUT_OF_ORDER_SAMPLE,
  StorageErrorCode.DUPLICATE_SAMPLE_FOR_TIMESTAMP,
  StorageErrorCode.OUT_OF_BOUNDS,
  StorageErrorCode.TOO_OLD_SAMPLE,
  StorageErrorCode.INVALID_LABELS,
  StorageErrorCode.INVALID_TIMESTAMP,
  StorageErrorCode.LIMIT_EXCEEDED,
]);

/**
 * The HTTP status for anything a receiver threw: `IngestError` by its code; codec errors 400
 * (413 over a size limit); storage errors as docs/errors.md's write-path column says (400 for
 * sample and label errors, 503 when the store is closed or unavailable, 500 otherwise); anything
 * else 500.
 */
export function ingestStatusFor(e: unknown): number {
  if (e instanceof IngestError) return STATUS[e.code];
  if (isWireError(e)) return e.code === WireErrorCode.TOO_LARGE ? 413 : 400;
  if (isStorageError(e)) {
    if (STORAGE_BAD_REQUEST.has(e.code)) return 400;
    if (e.code === StorageErrorCode.STORAGE_CLOSED || e.code === StorageErrorCode.UNAVAILABLE) return 503;
    return 500;
  }
  return 500;
}
