/** Public surface of `src/wire`: codecs only. */
export { TEXT_CONTENT_TYPE, formatTextExposition, type MetricFamily, type MetricType } from './text-format.js';
export { ExpositionLimitError, ExpositionParseError, ExpositionParser, formatFromContentType, parseExposition, type ExpositionFormat, type ExpositionLimits, type FamilyType, type ParsedExemplar, type ParsedFamily, type ParsedSample } from './text-parse.js';
export { WIRE_ERRORS, WireError, WireErrorCode, isWireError } from './errors.js';
export { snappyDecode, snappyDecodedLength, snappyEncode } from './snappy.js';
export {
  REMOTE_WRITE_V1_PROTO,
  decodeRemoteWriteV1,
  decodeRemoteWriteV1Message,
  encodeRemoteWriteV1,
  type RemoteWriteMetadata,
  type RemoteWriteV1Batch,
  type RemoteWriteV1Series,
} from './remote-write-v1.js';
export { REMOTE_WRITE_V2_PROTO, decodeRemoteWriteV2, encodeRemoteWriteV2, type RemoteWriteV2Batch, type RemoteWriteV2Input, type RemoteWriteV2Series } from './remote-write-v2.js';
export * from './otlp.js';
