/**
 * Public surface of `src/query`: the `QueryClient` contract, Prometheus' HTTP API types and the
 * fetch-based `HttpQueryClient`. Runs in browsers and Node; imports only `src/model` types.
 */
export type { LabelOptions, MetadataOptions, QueryClient, QueryOptions, QueryResponse, RequestOptions, SeriesOptions } from './client.js';
export { QueryClientError, errorTypeForHttpStatus, httpStatusForErrorType, isQueryClientError } from './errors.js';
export {
  formatDurationParam,
  formatSampleValue,
  formatScalarValue,
  formatTimeParam,
  formatTimestampJson,
  msToUnixSeconds,
  parseSampleValue,
  samplePair,
  unixSecondsToMs,
} from './format.js';
export { HttpQueryClient, type HttpQueryClientOptions } from './http-client.js';
export {
  ERROR_TYPES,
  type ApiFailure,
  type ApiResponse,
  type ApiSuccess,
  type ErrorType,
  type InstantQueryData,
  type InstantSample,
  type MetadataData,
  type Metric,
  type MetricMetadata,
  type QueryStatsWire,
  type RangeQueryData,
  type RangeSeries,
  type SamplePair,
} from './wire.js';
