import { codesOf, errorStatus, specsByCode, type ErrorRegistry, type ErrorSpec } from '../model/index.js';

/**
 * The registry of the ingest receivers' stable error codes (remote write, OTLP/HTTP). Each entry
 * carries the HTTP status a receiver answers with, following the write-path rule of
 * docs/errors.md: 4xx when a retry of the same request can never succeed, 5xx when it can.
 * docs/errors.md is generated from it.
 */
export const INGEST_ERRORS = {
  UNSUPPORTED_MEDIA_TYPE: {
    code: 'ERR_INGEST_UNSUPPORTED_MEDIA_TYPE',
    meaning: 'A Content-Type, remote write `proto` or Content-Encoding the receiver does not speak.',
    status: 415,
    errorType: null,
  },
  BODY_TOO_LARGE: {
    code: 'ERR_INGEST_BODY_TOO_LARGE',
    meaning: 'The body, compressed or decompressed, is over `maxBodyBytes` (32 MiB).',
    status: 413,
    errorType: null,
  },
  MALFORMED_REQUEST: {
    code: 'ERR_INGEST_MALFORMED_REQUEST',
    meaning: 'The body does not decompress (gzip).',
    status: 400,
    errorType: null,
  },
  INVALID_SERIES: {
    code: 'ERR_INGEST_INVALID_SERIES',
    meaning:
      'A series has no metric name, an empty or repeated label name (remote write), or an attribute that cannot become a label (OTLP: refused per data point through `partial_success`).',
    status: 400,
    errorType: null,
  },
  INVALID_SAMPLE: {
    code: 'ERR_INGEST_INVALID_SAMPLE',
    meaning: 'A native histogram sample, or a timestamp that is not an integer or more than 10 minutes ahead.',
    status: 400,
    errorType: null,
  },
  LIMIT_EXCEEDED: {
    code: 'ERR_INGEST_LIMIT_EXCEEDED',
    meaning:
      'Over `maxSeriesPerRequest`; a metric over `maxSeriesPerMetric` or all metrics over `maxSeries` series within the cardinality window (the message names the metric); a series over `maxLabelsPerSeries`, `maxLabelNameBytes` or `maxLabelValueBytes` (the message names the label). Refuses the whole request, OTLP included.',
    status: 400,
    errorType: null,
  },
} as const satisfies ErrorRegistry;

/** The codes of `INGEST_ERRORS` by key (`IngestErrorCode.BODY_TOO_LARGE === 'ERR_INGEST_BODY_TOO_LARGE'`). */
export const IngestErrorCode = codesOf(INGEST_ERRORS);

/** One of the codes in `IngestErrorCode`. */
export type IngestErrorCode = (typeof IngestErrorCode)[keyof typeof IngestErrorCode];

const BY_CODE = specsByCode(INGEST_ERRORS);

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

  /** The registry entry of `code`, with the status the receiver answers. */
  get spec(): ErrorSpec {
    return BY_CODE.get(this.code) as ErrorSpec;
  }
}

/**
 * The HTTP status for anything a receiver threw, as its registry entry says: `IngestError`,
 * codec (`WireError`) and storage errors carry their entries (storage's is its write-path
 * status); anything else is 500. No status is chosen here: the registries are the one table.
 */
export function ingestStatusFor(e: unknown): number {
  return errorStatus(e);
}
