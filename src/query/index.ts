/**
 * Public surface of `src/query`: the `QueryClient` contract, Prometheus' HTTP API types and the
 * fetch-based `HttpQueryClient`. Runs in browsers and Node; imports only `src/model` types.
 */
export type { LabelOptions, MetadataOptions, QueryClient, QueryOptions, QueryResponse, RequestOptions, SeriesOptions } from './client.js';
export { ERROR_TYPE_MEANINGS, QueryClientError, errorTypeForHttpStatus, httpStatusForErrorType, isQueryClientError } from './errors.js';
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
export { HttpRulesClient, type RulesClient, type RulesOptions } from './rules-client.js';
export {
  HttpDiagnosisClient,
  type CauseWire,
  type DiagnosisClient,
  type DiagnosisData,
  type DiagnosisOptions,
  type EvidenceWire,
  type InsightWire,
  type InsightsData,
  type InsightsOptions,
} from './diagnosis-client.js';
export type { DriftEventWire, EvaluationWire, QualityDriftData, QualitySamplesData, QualityStatusData, SampleWire, SampledPairWire } from './quality-wire.js';
export {
  HttpCostClient,
  type BenchmarkWire,
  type BoundVerdictWire,
  type CostCatalogData,
  type CostClient,
  type CostComponentWire,
  type CostFindingWire,
  type CostSummaryData,
  type CostSummaryOptions,
  type InstancePriceWire,
} from './cost-client.js';
export type { TransportOptions } from './http-transport.js';
export {
  ERROR_TYPES,
  type ActiveAlert,
  type ActiveTarget,
  type AlertRuleState,
  type AlertingRule,
  type AlertsData,
  type ApiFailure,
  type ApiResponse,
  type ApiSuccess,
  type DroppedTarget,
  type ErrorType,
  type InstantQueryData,
  type InstantSample,
  type MetadataData,
  type Metric,
  type MetricMetadata,
  type QueryStatsWire,
  type RangeQueryData,
  type RangeSeries,
  type RecordingRule,
  type Rule,
  type RuleGroup,
  type RuleHealth,
  type RulesData,
  type SamplePair,
  type TargetDiscovery,
  type TargetHealth,
  type TargetMetadata,
} from './wire.js';
