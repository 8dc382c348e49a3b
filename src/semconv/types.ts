/**
 * The shapes of the unified metric catalog. The data lives in the `catalog-*.ts` files; every
 * other artefact (name constants, docs/metrics.md, `/api/v1/metadata`, the normalizer's mapping
 * index) is derived from it.
 */

/** The Prometheus metric types a catalog entry can have. */
export type MetricType = 'counter' | 'gauge' | 'histogram';

/** `stable`: name, unit and labels keep their meaning; `experimental`: may change or go away. */
export type Stability = 'stable' | 'experimental';

/** The catalog's sections, in the order docs/metrics.md lists them. */
export const AREAS = [
  'latency',
  'phases',
  'pressure',
  'kv_cache',
  'tokens',
  'outcomes',
  'spec_decode',
  'cold_start',
  'gpu',
  'frontdoor',
  'fleet',
  'quality',
  'cost',
  'diagnosis',
] as const;

/** One of the catalog's sections. */
export type Area = (typeof AREAS)[number];

/**
 * A metric's unit as Prometheus' metadata API reports it (OpenMetrics `# UNIT`). A non-empty unit
 * is always the end of the metric name (before `_total` for counters); '' is a dimensionless count
 * or a 0/1 state.
 */
export type Unit =
  | 'seconds'
  | 'bytes'
  | 'ratio'
  | 'tokens'
  | 'blocks'
  | 'celsius'
  | 'watts'
  | 'joules'
  | 'hertz'
  | 'bytes_per_second'
  | 'tokens_per_second'
  | 'flops'
  | 'dollars'
  | 'dollars_per_hour'
  | '';

/** Where engine-native series come from: one inference engine, server or exporter each. */
export type SourceId = 'vllm' | 'sglang' | 'tgi' | 'trtllm' | 'trtllm_triton' | 'triton' | 'djl' | 'dcgm' | 'otel';

/**
 * The engine's own type for a source metric. A `summary` maps onto a catalog histogram through
 * its `_sum` and `_count` series only; its quantile series stay under the engine's name.
 */
export type SourceType = 'counter' | 'gauge' | 'histogram' | 'summary';

/** A unit conversion applied to values (and to histogram `le` bounds); see `CONVERSIONS`. */
export type ConversionId =
  | 'none'
  | 'us_to_seconds'
  | 'ms_to_seconds'
  | 'ns_to_seconds'
  | 'mib_to_bytes'
  | 'mb_to_bytes'
  | 'gb_to_bytes'
  | 'percent_to_ratio'
  | 'mj_to_joules'
  | 'mhz_to_hertz';

/** The Infersight component that writes a catalog metric itself (no engine exposes it). */
export type Producer = 'gateway' | 'fleet' | 'quality' | 'cost' | 'diagnose';

/** One engine-native metric that a catalog metric is derived from, with the conversion. */
export interface SourceMetric {
  readonly source: SourceId;
  /** The engine's name as `shared/reference/engine-metrics.tsv` writes it (the family name). */
  readonly metric: string;
  readonly type: SourceType;
  /** Unit conversion; default `none`. */
  readonly convert?: ConversionId;
  /**
   * Only series whose labels have these values map; the selector labels are dropped from the
   * unified series (engines that multiplex several quantities into one metric by a label).
   */
  readonly match?: Readonly<Record<string, string>>;
  /** Constant labels added to the unified series (several engine metrics folded into one). */
  readonly addLabels?: Readonly<Record<string, string>>;
  /** The unified value is this label's value, parsed as a number (info-style gauges). */
  readonly valueFromLabel?: string;
  /**
   * Keep only the identity labels (`IDENTITY_LABELS`) and `dp_rank` on the unified series: for
   * info-style sources whose other labels are configuration fields that vary by version.
   */
  readonly identityLabelsOnly?: boolean;
  /**
   * The name is generic (not prefixed by the engine), so it maps only when the caller's hint
   * names this engine. Always true for sources whose `SourceInfo.needsHint` is set.
   */
  readonly needsHint?: boolean;
  /** For a renamed or removed engine metric: the engine's current name, or 'removed'. */
  readonly replacedBy?: string;
  /** Version history, caveats, the flag that enables the metric. */
  readonly note?: string;
}

/** One metric of the unified catalog. */
export interface MetricSpec {
  /** Prometheus name: `llm_*`, `gpu_*` or `llm_quality_*`, unit suffix, `_total` on counters. */
  readonly name: string;
  readonly type: MetricType;
  readonly unit: Unit;
  /** What it means, in one or two sentences (becomes the HELP text). */
  readonly help: string;
  /** Labels particular to this metric, beyond the identity labels (`IDENTITY_LABELS`). */
  readonly labels: readonly string[];
  readonly stability: Stability;
  /** The engine metrics it is derived from; empty when `producer` writes it. */
  readonly sources: readonly SourceMetric[];
  /** Set when an Infersight component, not an engine, writes the metric. */
  readonly producer?: Producer;
}

/** A catalog metric with its section. */
export interface MetricDef extends MetricSpec {
  readonly area: Area;
}
