import { isStaleNaN, type Labels, type UnixMs } from '../../../model/index.js';
import { StorageError, StorageErrorCode, type Appendable, type Appender, type SeriesRef } from '../../../storage/index.js';

/** One stored series. Sample values live in object properties, which keep the stale NaN's bits. */
export interface StoredSeries {
  labels: Labels;
  samples: { tMs: UnixMs; value: number }[];
}

/**
 * An in-memory `Appendable` with the TSDB's ordering rules (out-of-order and duplicate samples
 * are refused at `append`), recording every commit. For the scrape tests.
 */
export class MemoryAppendable implements Appendable {
  readonly series = new Map<string, StoredSeries>();
  /** The number of commits, and of rollbacks. */
  commits = 0;
  rollbacks = 0;
  /** Make the next commits fail (a storage outage). */
  failCommits = false;

  appender(): Appender {
    const staged: { labels: Labels; tMs: UnixMs; value: number }[] = [];
    const newest = new Map<string, { tMs: UnixMs; value: number }>();
    let closed = false;
    const check = () => {
      if (closed) throw new StorageError(StorageErrorCode.APPENDER_CLOSED, 'appender closed');
    };
    return {
      append: (_ref: SeriesRef, labels: Labels, tMs: UnixMs, value: number): SeriesRef => {
        check();
        if (labels.metricName === '') throw new StorageError(StorageErrorCode.INVALID_LABELS, 'no metric name');
        const key = labels.key();
        const last = newest.get(key) ?? this.series.get(key)?.samples.at(-1);
        if (last !== undefined && tMs < last.tMs) throw new StorageError(StorageErrorCode.OUT_OF_ORDER_SAMPLE, 'out of order sample');
        if (last?.tMs === tMs) {
          if (Object.is(last.value, value) || (isStaleNaN(last.value) && isStaleNaN(value))) return 1;
          throw new StorageError(StorageErrorCode.DUPLICATE_SAMPLE_FOR_TIMESTAMP, 'duplicate sample for timestamp');
        }
        staged.push({ labels, tMs, value });
        newest.set(key, { tMs, value });
        return 1;
      },
      commit: () => {
        check();
        closed = true;
        if (this.failCommits) return Promise.reject(new StorageError(StorageErrorCode.UNAVAILABLE, 'storage unavailable'));
        for (const s of staged) {
          const key = s.labels.key();
          let series = this.series.get(key);
          if (series === undefined) this.series.set(key, (series = { labels: s.labels, samples: [] }));
          series.samples.push({ tMs: s.tMs, value: s.value });
        }
        this.commits++;
        return Promise.resolve();
      },
      rollback: () => {
        check();
        closed = true;
        this.rollbacks++;
      },
    };
  }

  /** The series whose labels include all of `match` (a `__name__` included), sorted by labels. */
  find(match: Record<string, string>): StoredSeries[] {
    return [...this.series.values()]
      .filter((s) => Object.entries(match).every(([n, v]) => s.labels.get(n) === v))
      .sort((a, b) => a.labels.compare(b.labels));
  }

  /** The samples of the one series matching `match`, as `[tMs, value | 'stale']`. */
  samples(match: Record<string, string>): [UnixMs, number | 'stale'][] {
    const found = this.find(match);
    if (found.length !== 1) throw new Error(`expected one series for ${JSON.stringify(match)}, found ${found.length}`);
    return found[0].samples.map((s) => [s.tMs, isStaleNaN(s.value) ? 'stale' : s.value]);
  }
}
