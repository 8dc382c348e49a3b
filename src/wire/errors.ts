/**
 * Stable error codes of the binary codecs (snappy, protobuf, OTLP JSON). A codec throws
 * `WireError`; the module that called it decides what the failure means (the ingest receivers
 * answer 400 for every one of them). The table in docs/errors.md lists them.
 */
export const WireErrorCode = {
  /** The bytes are not a valid snappy block. */
  SNAPPY: 'ERR_WIRE_SNAPPY',
  /** The bytes do not decode as the expected protobuf message. */
  PROTOBUF: 'ERR_WIRE_PROTOBUF',
  /** The text is not valid JSON, or not the expected message in protobuf's JSON mapping. */
  JSON: 'ERR_WIRE_JSON',
  /** The decoded payload would be larger than the caller's limit. */
  TOO_LARGE: 'ERR_WIRE_TOO_LARGE',
} as const;

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
}

/** Reports whether `err` is a `WireError` (with the given code, when one is passed). */
export function isWireError(err: unknown, code?: WireErrorCode): err is WireError {
  return err instanceof WireError && (code === undefined || err.code === code);
}

/** The message of anything thrown, for wrapping third-party errors. */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
