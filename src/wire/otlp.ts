import { create, fromBinary, fromJson, toBinary, toJsonString, type JsonValue, type MessageInitShape } from '@bufbuild/protobuf';
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { WireError, WireErrorCode, errorMessage } from './errors.js';
import { decodeOtlpMetricsFast } from './otlp-decode.js';
import type { OtlpMetricsRequest } from './otlp-view.js';
import {
  ExportMetricsServiceRequestSchema,
  ExportMetricsServiceResponseSchema,
  type ExportMetricsServiceRequest,
} from './gen/opentelemetry/proto/collector/metrics/v1/metrics_service_pb.js';

/** The two OTLP/HTTP payload encodings: binary protobuf and protobuf's JSON mapping. */
export type OtlpEncoding = 'protobuf' | 'json';

/** OTLP/HTTP content types for each encoding. */
export const OTLP_CONTENT_TYPES: Readonly<Record<OtlpEncoding, string>> = {
  protobuf: 'application/x-protobuf',
  json: 'application/json',
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes an OTLP `ExportMetricsServiceRequest` (uncompressed) into the fields a receiver reads
 * (`OtlpMetricsRequest`). Protobuf goes through the fast wire walker (`otlp-decode.ts`), JSON
 * through the generated classes. JSON follows the OTLP/JSON rules
 * that protobuf's JSON mapping allows: lowerCamelCase or original field names, enums as numbers,
 * 64-bit integers as strings or numbers, unknown fields ignored (OTLP requires receivers to skip
 * them). Trace and span ids are hex in OTLP/JSON but base64 in protobuf's mapping; they only sit
 * in exemplars, which Infersight ignores, and hex digits are valid base64, so they decode without
 * error to meaningless bytes. Throws `WireError` `ERR_WIRE_PROTOBUF` or `ERR_WIRE_JSON`.
 */
export function decodeOtlpMetrics(body: Uint8Array, encoding: OtlpEncoding): OtlpMetricsRequest {
  if (encoding === 'protobuf') return decodeOtlpMetricsFast(body);
  return decodeOtlpMetricsMessage(body, encoding);
}

/**
 * Decodes into the generated message classes (the JSON path of `decodeOtlpMetrics`, and a
 * second, independent reading of protobuf bodies for tests). Throws like `decodeOtlpMetrics`.
 */
export function decodeOtlpMetricsMessage(body: Uint8Array, encoding: OtlpEncoding): ExportMetricsServiceRequest {
  if (encoding === 'protobuf') {
    try {
      return fromBinary(ExportMetricsServiceRequestSchema, body, { readUnknownFields: false });
    } catch (e) {
      throw new WireError(WireErrorCode.PROTOBUF, `protobuf: invalid ExportMetricsServiceRequest: ${errorMessage(e)}`, { cause: e });
    }
  }
  let json: JsonValue;
  try {
    json = JSON.parse(utf8.decode(body)) as JsonValue;
  } catch (e) {
    throw new WireError(WireErrorCode.JSON, `json: invalid OTLP/JSON body: ${errorMessage(e)}`, { cause: e });
  }
  try {
    return fromJson(ExportMetricsServiceRequestSchema, json, { ignoreUnknownFields: true });
  } catch (e) {
    throw new WireError(WireErrorCode.JSON, `json: invalid ExportMetricsServiceRequest: ${errorMessage(e)}`, { cause: e });
  }
}

/** The fields of an `ExportMetricsServiceRequest` to encode (the generated message's init shape). */
export type OtlpMetricsInit = MessageInitShape<typeof ExportMetricsServiceRequestSchema>;

/** Encodes an `ExportMetricsServiceRequest` (for tests and future senders). */
export function encodeOtlpMetrics(init: OtlpMetricsInit, encoding: OtlpEncoding): Uint8Array {
  const msg = create(ExportMetricsServiceRequestSchema, init);
  if (encoding === 'protobuf') return toBinary(ExportMetricsServiceRequestSchema, msg);
  return new TextEncoder().encode(toJsonString(ExportMetricsServiceRequestSchema, msg));
}

/**
 * Encodes the `ExportMetricsServiceResponse` of a successful export: empty, or with
 * `partial_success` when some data points were rejected (OTLP's way to say "do not retry these").
 */
export function encodeOtlpMetricsResponse(encoding: OtlpEncoding, rejected?: { readonly dataPoints: number; readonly message: string }): Uint8Array {
  const msg = create(ExportMetricsServiceResponseSchema, {
    partialSuccess: rejected === undefined ? undefined : { rejectedDataPoints: BigInt(rejected.dataPoints), errorMessage: rejected.message },
  });
  if (encoding === 'protobuf') return toBinary(ExportMetricsServiceResponseSchema, msg);
  return new TextEncoder().encode(toJsonString(ExportMetricsServiceResponseSchema, msg));
}

/** `google.rpc.Code` values an OTLP error answer uses. */
export const RPC_CODE = { INVALID_ARGUMENT: 3, INTERNAL: 13, UNAVAILABLE: 14 } as const;

/**
 * Encodes the `google.rpc.Status` message that OTLP/HTTP requires as the body of every 4xx and
 * 5xx answer, in the request's encoding (OTLP specification, "Failures"): `code` and `message`,
 * no details. Written by hand (two fields) rather than generated for one message.
 */
export function encodeOtlpStatus(encoding: OtlpEncoding, code: number, message: string): Uint8Array {
  if (encoding === 'json') return new TextEncoder().encode(JSON.stringify({ code, message }));
  const w = new BinaryWriter();
  if (code !== 0) w.tag(1, WireType.Varint).int32(code);
  if (message !== '') w.tag(2, WireType.LengthDelimited).string(message);
  return w.finish();
}

export type {
  ExportMetricsServiceRequest,
  ExportMetricsServiceResponse,
} from './gen/opentelemetry/proto/collector/metrics/v1/metrics_service_pb.js';
export { AggregationTemporality, DataPointFlags } from './gen/opentelemetry/proto/metrics/v1/metrics_pb.js';
export type {
  OtlpAnyValue,
  OtlpHistogramPoint,
  OtlpKeyValue,
  OtlpMetricView,
  OtlpMetricsRequest,
  OtlpNumberPoint,
  OtlpSummaryPoint,
} from './otlp-view.js';
