/**
 * Delta-to-cumulative conversion for OTLP sums and histograms, so that delta streams become
 * ordinary Prometheus counters and classic histograms (as the OpenTelemetry Collector's
 * `deltatocumulative` processor does, and Prometheus behind its `otlp-deltatocumulative` flag).
 *
 * State is kept per output series. Changes are staged in a `DeltaTxn` and applied only once the
 * request's samples are committed, so a refused request leaves the running totals untouched
 * (and the sender's retry is counted once). Callers must not run two transactions at once.
 */

interface SumState {
  total: number;
  timeNs: bigint;
  seenMs: number;
}

interface HistogramState {
  bounds: readonly number[];
  buckets: number[];
  count: number;
  sum: number;
  timeNs: bigint;
  seenMs: number;
}

/** The cumulative view of a delta histogram point. */
export interface CumulativeHistogram {
  readonly buckets: readonly number[];
  readonly count: number;
  readonly sum: number;
}

/** Running totals of every delta series seen, forgotten after `ttlMs` without a point. */
export class DeltaAccumulator {
  /** @internal */ readonly sums = new Map<string, SumState>();
  /** @internal */ readonly histograms = new Map<string, HistogramState>();
  private lastSweepMs = -Infinity;

  constructor(private readonly ttlMs: number) {}

  /** Starts staging changes. */
  begin(nowMs: number): DeltaTxn {
    return new DeltaTxn(this, nowMs);
  }

  /** The number of series with state. */
  get size(): number {
    return this.sums.size + this.histograms.size;
  }

  /** @internal Drops state not updated within the TTL (at most every tenth of it). */
  sweep(nowMs: number): void {
    if (nowMs - this.lastSweepMs < this.ttlMs / 10) return;
    this.lastSweepMs = nowMs;
    const cutoff = nowMs - this.ttlMs;
    for (const [k, s] of this.sums) if (s.seenMs < cutoff) this.sums.delete(k);
    for (const [k, s] of this.histograms) if (s.seenMs < cutoff) this.histograms.delete(k);
  }
}

function sameBounds(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Staged changes of one request; `commit` applies them. */
export class DeltaTxn {
  private readonly sums = new Map<string, SumState | null>();
  private readonly histograms = new Map<string, HistogramState | null>();

  constructor(
    private readonly acc: DeltaAccumulator,
    private readonly nowMs: number,
  ) {}

  private sumState(key: string): SumState | undefined {
    const staged = this.sums.get(key);
    return staged === null ? undefined : (staged ?? this.acc.sums.get(key));
  }

  private histogramState(key: string): HistogramState | undefined {
    const staged = this.histograms.get(key);
    return staged === null ? undefined : (staged ?? this.acc.histograms.get(key));
  }

  /**
   * Adds a delta sum point; returns the cumulative value to write, or null when the point is not
   * newer than the last one of its series (a repeat, say a retried export: dropped, not counted twice).
   */
  addSum(key: string, timeNs: bigint, delta: number): number | null {
    const prev = this.sumState(key);
    if (prev !== undefined && timeNs <= prev.timeNs) return null;
    const total = (prev?.total ?? 0) + delta;
    this.sums.set(key, { total, timeNs, seenMs: this.nowMs });
    return total;
  }

  /**
   * Adds a delta histogram point (per-bucket counts, not cumulative over `le`); returns the
   * cumulative histogram, or null for a point that is not newer than the last one. Changed bucket
   * bounds start the series over.
   */
  addHistogram(key: string, timeNs: bigint, bounds: readonly number[], counts: readonly number[], count: number, sum: number): CumulativeHistogram | null {
    let prev = this.histogramState(key);
    if (prev !== undefined && timeNs <= prev.timeNs) return null;
    if (prev !== undefined && (!sameBounds(prev.bounds, bounds) || prev.buckets.length !== counts.length)) prev = undefined;
    const buckets = counts.map((c, i) => c + (prev?.buckets[i] ?? 0));
    const next: HistogramState = { bounds, buckets, count: count + (prev?.count ?? 0), sum: sum + (prev?.sum ?? 0), timeNs, seenMs: this.nowMs };
    this.histograms.set(key, next);
    return next;
  }

  /** Forgets a series (its point had no recorded value: the stream ended). */
  reset(key: string): void {
    this.sums.set(key, null);
    this.histograms.set(key, null);
  }

  /** Reports whether anything was staged. */
  get empty(): boolean {
    return this.sums.size === 0 && this.histograms.size === 0;
  }

  /** Applies the staged changes. */
  commit(): void {
    for (const [k, s] of this.sums) {
      if (s === null) this.acc.sums.delete(k);
      else this.acc.sums.set(k, s);
    }
    for (const [k, s] of this.histograms) {
      if (s === null) this.acc.histograms.delete(k);
      else this.acc.histograms.set(k, s);
    }
    this.acc.sweep(this.nowMs);
  }
}
