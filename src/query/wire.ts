/**
 * The JSON shapes of Prometheus' HTTP API (`/api/v1/*`), as Prometheus, VictoriaMetrics and
 * Infersight send them. Names follow Prometheus' documentation; sample values are strings
 * (`"1.5"`, `"+Inf"`, `"NaN"`) and timestamps are Unix seconds as JSON numbers, exactly as on the
 * wire, so that a result read from a remote server and one computed in process compare equal.
 */
import type { PrometheusErrorType } from '../model/index.js';

/** Prometheus' `errorType` values (`src/model`'s `PrometheusErrorType`), plus `bad_response` for answers that are not the API's JSON. */
export type ErrorType = PrometheusErrorType | 'bad_response';

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

/** A rule's health after its last evaluation: `unknown` before the first one. */
export type RuleHealth = 'ok' | 'err' | 'unknown';

/** An alerting rule's state: the worst state of its alerts, `inactive` when it has none. */
export type AlertRuleState = 'firing' | 'pending' | 'inactive';

/** One active alert, as `/api/v1/alerts` and the `alerts` of an alerting rule write it. */
export interface ActiveAlert {
  /** The alert's labels: the series' labels, the rule's (expanded) labels and `alertname`. */
  labels: Metric;
  /** The expanded annotations. */
  annotations: Metric;
  state: 'firing' | 'pending';
  /** RFC 3339 with nanoseconds: when the alert first went pending. */
  activeAt?: string;
  /** The expression's value, as Go's `%e` writes it (`"9.7e-01"`). */
  value: string;
  /** RFC 3339: since when a firing alert has been kept firing without a result (`keep_firing_for`; Prometheus 2.45+). */
  keepFiringSince?: string;
}

/** An alerting rule in `/api/v1/rules`. Durations are seconds as JSON numbers. */
export interface AlertingRule {
  type: 'alerting';
  name: string;
  query: string;
  state: AlertRuleState;
  /** `for`, seconds. */
  duration: number;
  /** `keep_firing_for`, seconds (Prometheus 2.42+). */
  keepFiringFor?: number;
  /** The rule's label templates (unexpanded). */
  labels: Metric;
  /** The rule's annotation templates (unexpanded). */
  annotations: Metric;
  alerts: ActiveAlert[];
  health: RuleHealth;
  /** Absent when the last evaluation succeeded. */
  lastError?: string;
  /** Seconds. */
  evaluationTime: number;
  /** RFC 3339; `0001-01-01T00:00:00Z` before the first evaluation. */
  lastEvaluation: string;
}

/** A recording rule in `/api/v1/rules`. */
export interface RecordingRule {
  type: 'recording';
  /** The recorded metric name (`record:`). */
  name: string;
  query: string;
  /** Absent when the rule has none. */
  labels?: Metric;
  health: RuleHealth;
  lastError?: string;
  evaluationTime: number;
  lastEvaluation: string;
}

/** Either kind of rule. */
export type Rule = AlertingRule | RecordingRule;

/** One rule group in `/api/v1/rules`, identified by `file` and `name`. */
export interface RuleGroup {
  name: string;
  /** The rule file, as the configuration names it. */
  file: string;
  rules: Rule[];
  /** Evaluation interval, seconds. */
  interval: number;
  /** 0: no limit. */
  limit: number;
  evaluationTime: number;
  lastEvaluation: string;
}

/** The `data` of `/api/v1/rules`. With `type=alert` (or `record`) every group is listed, with only that kind of rule. */
export interface RulesData {
  groups: RuleGroup[];
}

/** The `data` of `/api/v1/alerts`: the pending and firing alerts of every rule. */
export interface AlertsData {
  alerts: ActiveAlert[];
}

/** A scrape target's health as `/api/v1/targets` writes it. */
export type TargetHealth = 'up' | 'down' | 'unknown';

/**
 * One active target of `/api/v1/targets` (Prometheus' `Target`). Infersight writes every field,
 * as Prometheus 2.42 does; `globalUrl`, `scrapeInterval` and `scrapeTimeout` are optional for
 * readers because older Prometheus versions and some compatible servers leave them out.
 */
export interface ActiveTarget {
  discoveredLabels: Metric;
  labels: Metric;
  scrapePool: string;
  scrapeUrl: string;
  globalUrl?: string;
  lastError: string;
  /** RFC 3339; Go's zero time (`0001-01-01T00:00:00Z`) before the first scrape. */
  lastScrape: string;
  /** Seconds. */
  lastScrapeDuration: number;
  health: TargetHealth;
  /** A Prometheus duration (`15s`). */
  scrapeInterval?: string;
  /** A Prometheus duration (`10s`). */
  scrapeTimeout?: string;
}

/** One target relabeling dropped, in `/api/v1/targets`. */
export interface DroppedTarget {
  discoveredLabels: Metric;
}

/** The `data` of `/api/v1/targets` (Prometheus' `TargetDiscovery`). */
export interface TargetDiscovery {
  activeTargets: ActiveTarget[];
  droppedTargets: DroppedTarget[];
}

/** One entry of the `data` of `/api/v1/targets/metadata`; `metric` only when the request named none. */
export interface TargetMetadata {
  target: Metric;
  metric?: string;
  type: string;
  help: string;
  unit: string;
}
