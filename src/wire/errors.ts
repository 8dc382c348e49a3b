import { codesOf, specsByCode, type ErrorRegistry, type ErrorSpec } from '../model/index.js';

/**
 * The registry of the binary codecs' stable error codes (snappy, protobuf, OTLP JSON). A codec
 * throws `WireError`; each entry's status is what a receiver answers when its decoding fails (the
 * ingest receivers: 413 over a size limit, 400 for every other one). docs/errors.md is generated
 * from it.
 */
export const WIRE_ERRORS = {
  SNAPPY: {
    code: 'ERR_WIRE_SNAPPY',
    meaning: 'Not a valid snappy block (checked before decompressing).',
    status: 400,
    errorType: null,
  },
  PROTOBUF: {
    code: 'ERR_WIRE_PROTOBUF',
    meaning:
      'Not a valid `prometheus.WriteRequest`, `io.prometheus.write.v2.Request` or `ExportMetricsServiceRequest` (also: a symbol reference out of range, an odd number of label references, a label name or value, attribute, metric name or unit that is not valid UTF-8: the message names it).',
    status: 400,
    errorType: null,
  },
  JSON: {
    code: 'ERR_WIRE_JSON',
    meaning: "Not valid UTF-8 JSON, or not an `ExportMetricsServiceRequest` in protobuf's JSON mapping.",
    status: 400,
    errorType: null,
  },
  TOO_LARGE: {
    code: 'ERR_WIRE_TOO_LARGE',
    meaning: "The decoded size would be over the caller's limit (checked before allocating).",
    status: 413,
    errorType: null,
  },
} as const satisfies ErrorRegistry;

/** The codes of `WIRE_ERRORS` by key (`WireErrorCode.SNAPPY === 'ERR_WIRE_SNAPPY'`). */
export const WireErrorCode = codesOf(WIRE_ERRORS);

const BY_CODE = specsByCode(WIRE_ERRORS);

/** One of the codes in `WireErrorCode`. */
export type WireErrorCode = (typeof WireErrorCode)[keyof typeof WireErrorCode];

/** A codec failure, carrying a stable code. */
export class WireError extends Error {
  /** Creates the error; `message` says what was wrong with the input, for people. */
  constructor(
    readonly code: WireErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'WireError';
  }

  /** The registry entry of `code`, with the status a receiver answers. */
  get spec(): ErrorSpec {
    return BY_CODE.get(this.code) as ErrorSpec;
  }
}

/** Reports whether `err` is a `WireError` (with the given code, when one is passed). */
export function isWireError(err: unknown, code?: WireErrorCode): err is WireError {
  return err instanceof WireError && (code === undefined || err.code === code);
}

/** The message of anything thrown, for wrapping third-party errors. */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
