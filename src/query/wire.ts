/**
 * The JSON shapes of Prometheus' HTTP API (`/api/v1/*`), as Prometheus, VictoriaMetrics and
 * Infersight send them. Names follow Prometheus' documentation; sample values are strings
 * (`"1.5"`, `"+Inf"`, `"NaN"`) and timestamps are Unix seconds as JSON numbers, exactly as on the
 * wire, so that a result read from a remote server and one computed in process compare equal.
 */

/** Prometheus' `errorType` values, plus `bad_response` for answers that are not the API's JSON. */
export type ErrorType =
  | 'bad_data'
  | 'execution'
  | 'timeout'
  | 'canceled'
  | 'internal'
  | 'unavailable'
  | 'not_found'
  | 'not_acceptable'
  | 'bad_response';

/** Every `ErrorType`, in the order above. */
export const ERROR_TYPES: readonly ErrorType[] = [
  'bad_data',
  'execution',
  'timeout',
  'canceled',
  'internal',
  'unavailable',
  'not_found',
  'not_acceptable',
  'bad_response',
];

/** A label set as the API writes it: `{"__name__":"up","job":"api"}`. */
export type Metric = Record<string, string>;

/** `[<unix seconds>, "<value>"]`: one sample, or the value of a scalar or string result. */
export type SamplePair = [number, string];

/** One element of an instant vector result. */
export interface InstantSample {
  metric: Metric;
  value: SamplePair;
}

/** One series of a matrix result, its samples in increasing time order. */
export interface RangeSeries {
  metric: Metric;
  values: SamplePair[];
}

/** The `stats` object of a query answered with `stats=<anything>` (Prometheus' `stats.QueryStats`). */
export interface QueryStatsWire {
  timings: {
    evalTotalTime: number;
    resultSortTime: number;
    queryPreparationTime: number;
    innerEvalTime: number;
    execQueueTime: number;
    execTotalTime: number;
  };
  samples: {
    totalQueryableSamples: number;
    peakSamples: number;
  };
}

/** The `data` of `/api/v1/query`: one of the four result types. */
export type InstantQueryData = (
  | { resultType: 'vector'; result: InstantSample[] }
  | { resultType: 'matrix'; result: RangeSeries[] }
  | { resultType: 'scalar'; result: SamplePair }
  | { resultType: 'string'; result: SamplePair }
) & { stats?: QueryStatsWire };

/** The `data` of `/api/v1/query_range`: always a matrix. */
export interface RangeQueryData {
  resultType: 'matrix';
  result: RangeSeries[];
  stats?: QueryStatsWire;
}

/** One entry of `/api/v1/metadata` (`type` is `counter`, `gauge`, `histogram`, `summary`, `unknown`, ...). */
export interface MetricMetadata {
  type: string;
  help: string;
  unit: string;
}

/** The `data` of `/api/v1/metadata`: metric name to its (usually one) metadata entries. */
export type MetadataData = Record<string, MetricMetadata[]>;

/** A successful API answer. `warnings` and `infos` are absent when empty. */
export interface ApiSuccess<T> {
  status: 'success';
  data: T;
  warnings?: string[];
  infos?: string[];
}

/** A failed API answer; the HTTP status follows `errorType` (see docs/api.md). */
export interface ApiFailure {
  status: 'error';
  errorType: ErrorType;
  error: string;
  data?: unknown;
  warnings?: string[];
  infos?: string[];
}

/** Any API answer. */
export type ApiResponse<T> = ApiSuccess<T> | ApiFailure;
