import { IngestError, IngestErrorCode } from './errors.js';
import type { SeriesEntry } from './series.js';

/**
 * Counts, per metric name, the series the ingest receivers wrote within a sliding window, and
 * refuses a request that would push a metric past `maxSeriesPerMetric`, or all metrics together
 * past `maxSeries` (the global active-series limit: without it, a sender gets around the
 * per-metric limit with distinct metric names). 0 disables a limit. Series are kept as
 * 32-bit label hashes with a last-seen time (a collision can only undercount). One tracker is
 * shared by every receiver of a server, since they write into the same store. Not thread-safe;
 * Node has one.
 */
export class CardinalityTracker {
  private readonly byMetric = new Map<string, Map<number, number>>();
  private lastSweepMs = -Infinity;
  private total = 0;

  constructor(
    private readonly maxSeriesPerMetric: number,
    private readonly windowMs: number,
    private readonly maxSeries = 0,
  ) {}

  private get off(): boolean {
    return this.maxSeriesPerMetric <= 0 && this.maxSeries <= 0;
  }

  /** Reports whether `entry` is surely counted already (seen within half a window): the fast path. */
  private fresh(entry: SeriesEntry, nowMs: number): boolean {
    return nowMs - entry.touchedMs < this.windowMs / 2;
  }

  /**
   * Throws `IngestError` `ERR_INGEST_LIMIT_EXCEEDED` when writing `entries` (distinct series)
   * would make any metric exceed the per-metric limit, or the series of all metrics the global
   * one. Changes nothing: call `record` after the write.
   */
  check(entries: readonly SeriesEntry[], nowMs: number): void {
    if (this.off) return;
    this.sweep(nowMs);
    let added: Map<string, number> | undefined;
    let addedTotal = 0;
    for (const e of entries) {
      if (this.fresh(e, nowMs)) continue;
      const name = e.metricName;
      const known = this.byMetric.get(name);
      if (known?.has(e.hash) === true) continue;
      addedTotal++;
      if (this.maxSeries > 0 && this.total + addedTotal > this.maxSeries) {
        throw new IngestError(
          IngestErrorCode.LIMIT_EXCEEDED,
          `global series limit exceeded: the receivers would have more than ${this.maxSeries} active series (${this.total} written in the last ${Math.round(this.windowMs / 60_000)}m, this request adds at least ${addedTotal}; maxSeries, --ingest.max-series)`,
        );
      }
      if (this.maxSeriesPerMetric <= 0) continue;
      added ??= new Map();
      const n = (added.get(name) ?? 0) + 1;
      added.set(name, n);
      const total = (known?.size ?? 0) + n;
      if (total > this.maxSeriesPerMetric) {
        throw new IngestError(
          IngestErrorCode.LIMIT_EXCEEDED,
          `per-metric series limit exceeded: metric ${JSON.stringify(name)} would have more than ${this.maxSeriesPerMetric} series (${known?.size ?? 0} written in the last ${Math.round(this.windowMs / 60_000)}m, this request adds at least ${n})`,
        );
      }
    }
  }

  /** Counts `entries` as written at `nowMs`. */
  record(entries: readonly SeriesEntry[], nowMs: number): void {
    if (this.off) return;
    // Re-touch a series only once per eighth of a window: a Map write per sample is not free.
    const staleBefore = nowMs - this.windowMs / 8;
    for (const e of entries) {
      if (e.touchedMs >= staleBefore) continue;
      let known = this.byMetric.get(e.metricName);
      if (known === undefined) this.byMetric.set(e.metricName, (known = new Map<number, number>()));
      const before = known.size;
      known.set(e.hash, nowMs);
      this.total += known.size - before;
      e.touchedMs = nowMs;
    }
  }

  /** The number of series counted for `metricName` now. */
  seriesOf(metricName: string): number {
    return this.byMetric.get(metricName)?.size ?? 0;
  }

  /** The number of series counted for all metrics together now (the active series). */
  get activeSeries(): number {
    return this.total;
  }

  private sweep(nowMs: number): void {
    if (nowMs - this.lastSweepMs < this.windowMs / 8) return;
    this.lastSweepMs = nowMs;
    const cutoff = nowMs - this.windowMs;
    for (const [name, series] of this.byMetric) {
      for (const [hash, seenMs] of series) {
        if (seenMs < cutoff) {
          series.delete(hash);
          this.total--;
        }
      }
      if (series.size === 0) this.byMetric.delete(name);
    }
  }
}
