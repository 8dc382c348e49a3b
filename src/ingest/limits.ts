/** Limits every ingest receiver enforces on one request. */
export interface IngestLimits {
  /** Largest body, compressed as sent and again after decompression, in bytes (413 above it). */
  readonly maxBodyBytes: number;
  /** Most series one request may write (after OTLP translation); 0 disables the check. */
  readonly maxSeriesPerRequest: number;
  /**
   * Most series one metric name may have among those the receivers wrote within
   * `cardinalityWindowMs`; a request that would create more is refused. 0 disables the check.
   */
  readonly maxSeriesPerMetric: number;
  /**
   * Most series, all metric names together, that the receivers may have written within
   * `cardinalityWindowMs` (the active series of remote write and OTLP); a request that would
   * create more is refused, so distinct metric names cannot get around `maxSeriesPerMetric`.
   * 0 disables the check.
   */
  readonly maxSeries: number;
  /** How long a series counts towards `maxSeriesPerMetric` and `maxSeries` after its last sample. */
  readonly cardinalityWindowMs: number;
  /** How far ahead of the clock a sample may be (Prometheus' remote write receiver: 10 minutes). */
  readonly maxAheadMs: number;
  /** Most labels of one series, `__name__` included (VictoriaMetrics' `-maxLabelsPerTimeseries`); 0 disables. */
  readonly maxLabelsPerSeries: number;
  /** Longest label name in UTF-8 bytes (VictoriaMetrics' `-maxLabelNameLen`); 0 disables. */
  readonly maxLabelNameBytes: number;
  /** Longest label value in UTF-8 bytes (VictoriaMetrics' `-maxLabelValueLen`); 0 disables. */
  readonly maxLabelValueBytes: number;
  /**
   * Memory each receiver's series cache may take, by its own estimate (labels, key and
   * bookkeeping). Past it the least recently used half is dropped; a dropped series costs one
   * label decode when it comes back.
   */
  readonly seriesCacheBytes: number;
}

/**
 * 32 MiB bodies; 100k series per request and per metric, 500k series in all (over the last
 * hour); samples at most 10 minutes ahead; 64 labels per series, names up to 256 bytes, values up
 * to 4 KiB; 256 MiB per receiver series cache. docs/ingest.md explains each choice.
 */
export const DEFAULT_INGEST_LIMITS: IngestLimits = {
  maxBodyBytes: 32 * 1024 * 1024,
  maxSeriesPerRequest: 100_000,
  maxSeriesPerMetric: 100_000,
  maxSeries: 500_000,
  cardinalityWindowMs: 60 * 60 * 1000,
  maxAheadMs: 10 * 60 * 1000,
  maxLabelsPerSeries: 64,
  maxLabelNameBytes: 256,
  maxLabelValueBytes: 4096,
  seriesCacheBytes: 256 * 1024 * 1024,
};
