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
  /** How long a series counts towards `maxSeriesPerMetric` after its last sample. */
  readonly cardinalityWindowMs: number;
  /** How far ahead of the clock a sample may be (Prometheus' remote write receiver: 10 minutes). */
  readonly maxAheadMs: number;
}

/** 32 MiB bodies, 100k series per request and per metric (over the last hour), samples at most 10 minutes ahead. */
export const DEFAULT_INGEST_LIMITS: IngestLimits = {
  maxBodyBytes: 32 * 1024 * 1024,
  maxSeriesPerRequest: 100_000,
  maxSeriesPerMetric: 100_000,
  cardinalityWindowMs: 60 * 60 * 1000,
  maxAheadMs: 10 * 60 * 1000,
};
