import { ArraySeriesIterator, type Labels, type Matcher, type UnixMs } from '../../model/index.js';
import { ArraySeriesSet, type Querier, type Queryable, type Series } from '../../storage/index.js';

/**
 * The storage promqltest scripts load into: an in-memory `Queryable` of float series. The promql
 * module may not import the TSDB (docs/architecture.md), and the scripts need nothing of it but samples at
 * arbitrary millisecond timestamps (from 0), the stale marker kept bit-exact, and `clear`.
 *
 * Values live in `Float64Array`s, which keep the stale marker's NaN payload. Samples of one series
 * are kept sorted by timestamp; writing a timestamp that already holds a sample replaces it.
 * Queriers follow the `Querier` contract of src/storage (series sorted by labels, only series with
 * samples in the range, iterators limited to the range). They see the data as it is when `select`
 * runs; appending while a querier is open is allowed, as no script does it during a query.
 */
export class MemoryStorage implements Queryable {
  private readonly series = new Map<string, MemorySeries>();
  private sorted: MemorySeries[] | null = null;

  /** Adds one sample (value copied bit-exactly). */
  add(labels: Labels, tMs: UnixMs, value: number): void {
    let s = this.series.get(labels.key());
    if (s === undefined) {
      s = new MemorySeries(labels);
      this.series.set(labels.key(), s);
      this.sorted = null;
    }
    s.add(tMs, value);
  }

  /** Removes every series. */
  clear(): void {
    this.series.clear();
    this.sorted = null;
  }

  /** The number of series held. */
  get seriesCount(): number {
    return this.series.size;
  }

  querier(minTMs: UnixMs, maxTMs: UnixMs): Querier {
    this.sorted ??= [...this.series.values()].sort((a, b) => a.labels.compare(b.labels));
    const all = this.sorted;
    const inRange = (matchers: readonly Matcher[] | undefined): { s: MemorySeries; lo: number; hi: number }[] => {
      const out: { s: MemorySeries; lo: number; hi: number }[] = [];
      for (const s of all) {
        if (matchers !== undefined && !matchers.every((m) => m.matches(s.labels.get(m.name)))) continue;
        const [lo, hi] = s.bounds(minTMs, maxTMs);
        if (lo < hi) out.push({ s, lo, hi });
      }
      return out;
    };
    return {
      select(matchers) {
        const series: Series[] = inRange(matchers).map(({ s, lo, hi }) => {
          const t = s.t.subarray(lo, hi);
          const v = s.v.subarray(lo, hi);
          return { labels: s.labels, iterator: () => new ArraySeriesIterator(t, v) };
        });
        return new ArraySeriesSet(series);
      },
      labelNames(matchers) {
        const names = new Set<string>();
        for (const { s } of inRange(matchers)) s.labels.forEach((n) => names.add(n));
        return [...names].sort();
      },
      labelValues(name, matchers) {
        const values = new Set<string>();
        for (const { s } of inRange(matchers)) if (s.labels.has(name)) values.add(s.labels.get(name));
        return [...values].sort();
      },
      close() {
        // Nothing to release.
      },
    };
  }
}

/** One series: parallel typed arrays of timestamps and values, sorted by timestamp. */
class MemorySeries {
  t = new Float64Array(16);
  v = new Float64Array(16);
  private n = 0;

  constructor(readonly labels: Labels) {}

  add(tMs: number, value: number): void {
    // Loads write in time order, so the common case appends at the end.
    let i = this.n;
    while (i > 0 && this.t[i - 1] >= tMs) i--;
    if (i < this.n && this.t[i] === tMs) {
      this.v[i] = value;
      return;
    }
    if (this.n === this.t.length) {
      const t = new Float64Array(this.n * 2);
      const v = new Float64Array(this.n * 2);
      t.set(this.t);
      v.set(this.v);
      this.t = t;
      this.v = v;
    }
    this.t.copyWithin(i + 1, i, this.n);
    this.v.copyWithin(i + 1, i, this.n);
    this.t[i] = tMs;
    this.v[i] = value;
    this.n++;
  }

  /** Index bounds `[lo, hi)` of the samples with `minT <= t <= maxT`. */
  bounds(minTMs: number, maxTMs: number): [number, number] {
    return [this.lowerBound(minTMs, false), this.lowerBound(maxTMs, true)];
  }

  private lowerBound(tMs: number, inclusive: boolean): number {
    let lo = 0;
    let hi = this.n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.t[mid] < tMs || (inclusive && this.t[mid] === tMs)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
