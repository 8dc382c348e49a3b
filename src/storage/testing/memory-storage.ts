/**
 * The reference in-memory storage for tests: one `Appendable` and `Queryable` that follows the
 * contracts as the embedded TSDB does (it runs `runAppenderSuite` and `runQuerierSuite`), with
 * what tests of producers and decorators read back (committed samples in order, every sample
 * handed to `append`, commit and rollback counts) and fault injection. Not for production: no
 * compression, no limits, no persistence.
 */
import { ArraySeriesIterator, isStaleNaN, type Labels, type Matcher, type Sample, type UnixMs } from '../../model/index.js';
import type { Appendable, Appender, SeriesRef } from '../appender.js';
import { StorageError, StorageErrorCode } from '../errors.js';
import type { Querier, Queryable, Series } from '../querier.js';
import { ArraySeriesSet } from '../series-set.js';

/** One sample with its series' labels, as `MemoryStorage.committed` and `appended` list them. */
export interface StoredSample {
  readonly labels: Labels;
  readonly tMs: UnixMs;
  readonly value: number;
}

/** One stored series. Sample objects, not a number[]: object properties keep NaN payloads (the stale marker). */
export interface StoredSeries {
  readonly ref: SeriesRef;
  readonly labels: Labels;
  readonly samples: Sample[];
}

const view = new DataView(new ArrayBuffer(8));
function bitsOf(v: number): bigint {
  view.setFloat64(0, v);
  return view.getBigUint64(0);
}
/** Whether two values are the same sample value, NaN payloads included (an identical repeat). */
const sameBits = (a: number, b: number): boolean => Object.is(a, b) || (a !== a && b !== b && bitsOf(a) === bitsOf(b));

/**
 * The reference storage. Appenders validate like the TSDB's: a metric name, integer timestamps,
 * out-of-order and duplicate samples refused at `append` (an identical repeat is ignored), and at
 * commit a sample that a concurrent commit made out of order is dropped while the rest is
 * written. Refs are stable per series for the storage's lifetime.
 */
export class MemoryStorage implements Appendable, Queryable {
  private readonly byKey = new Map<string, StoredSeries>();
  private readonly byRef: StoredSeries[] = [];
  /** Every sample handed to `append` with a valid series and timestamp, in order, committed, refused or not (what a decorator sent). */
  readonly appended: StoredSample[] = [];
  /** Every committed sample in commit order (what reached the storage). */
  readonly committed: StoredSample[] = [];
  /** Successful commits, and rollbacks. */
  commits = 0;
  rollbacks = 0;
  /** Set to make `appender()` throw a `StorageError` with this code (a store that cannot take writes). */
  failOpen: StorageErrorCode | null = null;
  private failCode: StorageErrorCode | null = null;
  private failLeft = 0;

  /**
   * Makes the next `times` commits (every one when omitted) reject with `code` and write nothing;
   * `null` ends a failure.
   */
  failCommits(code: StorageErrorCode | null, times = Infinity): void {
    this.failCode = code;
    this.failLeft = code === null ? 0 : times;
  }

  appender(): Appender {
    if (this.failOpen !== null) throw new StorageError(this.failOpen, 'memory storage: refusing appenders');
    return new MemoryAppender(this);
  }

  querier(minTMs: UnixMs, maxTMs: UnixMs): Querier {
    const inRange = (matchers: readonly Matcher[] | undefined): { labels: Labels; samples: Sample[] }[] => this.read(matchers ?? [], minTMs, maxTMs);
    return {
      select: (matchers) =>
        new ArraySeriesSet(
          inRange(matchers).map((s): Series => {
            const t = Float64Array.from(s.samples, (x) => x.tMs);
            const v = new Float64Array(s.samples.length);
            s.samples.forEach((x, i) => (v[i] = x.value));
            return { labels: s.labels, iterator: () => new ArraySeriesIterator(t, v) };
          }),
        ),
      labelNames: (matchers) => {
        const names = new Set<string>();
        for (const s of inRange(matchers)) s.labels.forEach((n) => names.add(n));
        return [...names].sort();
      },
      labelValues: (name, matchers) => {
        const values = new Set<string>();
        for (const s of inRange(matchers)) if (s.labels.has(name)) values.add(s.labels.get(name));
        return [...values].sort();
      },
      close: () => undefined,
    };
  }

  /** Committed series matching all `matchers` with their samples in [minTMs, maxTMs], sorted by labels. */
  read(matchers: readonly Matcher[], minTMs: number, maxTMs: number): { labels: Labels; samples: Sample[] }[] {
    return [...this.byKey.values()]
      .filter((s) => s.samples.length > 0 && matchers.every((m) => m.matches(s.labels.get(m.name))))
      .map((s) => ({ labels: s.labels, samples: s.samples.filter((x) => x.tMs >= minTMs && x.tMs <= maxTMs) }))
      .filter((s) => s.samples.length > 0)
      .sort((a, b) => a.labels.compare(b.labels));
  }

  /** The committed series whose labels include all of `match` (a `__name__` included), sorted by labels. */
  find(match: Readonly<Record<string, string>>): StoredSeries[] {
    return [...this.byKey.values()]
      .filter((s) => s.samples.length > 0 && Object.entries(match).every(([n, v]) => s.labels.get(n) === v))
      .sort((a, b) => a.labels.compare(b.labels));
  }

  /** The samples of the one committed series matching `match`, as `[tMs, value | 'stale']`; throws unless exactly one matches. */
  samples(match: Readonly<Record<string, string>>): [UnixMs, number | 'stale'][] {
    const found = this.find(match);
    if (found.length !== 1) throw new Error(`expected one series for ${JSON.stringify(match)}, found ${found.length}`);
    return found[0].samples.map((s) => [s.tMs, isStaleNaN(s.value) ? 'stale' : s.value]);
  }

  /** The latest value of each committed series named `name` whose labels include `match`, summed over them. */
  latest(name: string, match: Readonly<Record<string, string>> = {}): number {
    let sum = 0;
    for (const s of this.find({ ...match, __name__: name })) sum += s.samples[s.samples.length - 1].value;
    return sum;
  }

  /** The committed samples in commit order as `labels @tMs=value` lines (a NaN prints as `stale`). */
  lines(): string[] {
    return this.committed.map((s) => `${s.labels.toString()} @${s.tMs}=${Number.isNaN(s.value) ? 'stale' : s.value}`);
  }

  /** Every committed series as a `labels value` line (the value of its last sample), sorted by labels. */
  dump(): string[] {
    return this.read([], Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER).map((s) => `${s.labels.toString()} ${s.samples[s.samples.length - 1].value}`);
  }

  /** Removes every series and sample (counters and recorded samples included). */
  clear(): void {
    this.byKey.clear();
    this.byRef.length = 0;
    this.appended.length = 0;
    this.committed.length = 0;
    this.commits = 0;
    this.rollbacks = 0;
  }

  /** @internal The series for `ref` or `labels`, created on first sight. */
  seriesFor(ref: SeriesRef, labels: Labels): StoredSeries {
    const known = ref > 0 ? this.byRef[ref - 1] : undefined;
    if (known !== undefined) return known;
    if (labels.metricName === '') throw new StorageError(StorageErrorCode.INVALID_LABELS, 'memory storage: labels have no metric name');
    let s = this.byKey.get(labels.key());
    if (s === undefined) {
      s = { ref: this.byRef.length + 1, labels, samples: [] };
      this.byKey.set(labels.key(), s);
      this.byRef.push(s);
    }
    return s;
  }

  /** @internal Writes a committed batch, or rejects it whole when a commit failure is set. */
  write(staged: readonly { s: StoredSeries; sample: Sample }[]): void {
    if (this.failCode !== null && this.failLeft > 0) {
      const code = this.failCode;
      if (--this.failLeft === 0) this.failCode = null;
      throw new StorageError(code, `memory storage: commit failed (${code})`);
    }
    for (const { s, sample } of staged) {
      const last = s.samples.at(-1);
      if (last !== undefined && sample.tMs <= last.tMs) continue; // made invalid by a concurrent commit: dropped, as the TSDB does
      s.samples.push(sample);
      this.committed.push({ labels: s.labels, tMs: sample.tMs, value: sample.value });
    }
    this.commits++;
  }
}

class MemoryAppender implements Appender {
  private closed = false;
  private readonly staged: { s: StoredSeries; sample: Sample }[] = [];
  private readonly last = new Map<StoredSeries, Sample>();

  constructor(private readonly storage: MemoryStorage) {}

  append(ref: SeriesRef, labels: Labels, tMs: UnixMs, value: number): SeriesRef {
    this.checkOpen();
    if (!Number.isSafeInteger(tMs)) throw new StorageError(StorageErrorCode.INVALID_TIMESTAMP, `memory storage: bad timestamp ${tMs}`);
    const s = this.storage.seriesFor(ref, labels);
    this.storage.appended.push({ labels: s.labels, tMs, value });
    const last = this.last.get(s) ?? s.samples.at(-1);
    if (last !== undefined) {
      if (tMs === last.tMs) {
        if (sameBits(value, last.value)) return s.ref;
        throw new StorageError(StorageErrorCode.DUPLICATE_SAMPLE_FOR_TIMESTAMP, `memory storage: duplicate sample for timestamp ${tMs} of ${s.labels.toString()}`);
      }
      if (tMs < last.tMs) throw new StorageError(StorageErrorCode.OUT_OF_ORDER_SAMPLE, `memory storage: out of order sample at ${tMs} for ${s.labels.toString()}`);
    }
    const sample = { tMs, value };
    this.staged.push({ s, sample });
    this.last.set(s, sample);
    return s.ref;
  }

  commit(): Promise<void> {
    try {
      this.checkOpen();
      this.closed = true;
      this.storage.write(this.staged);
      return Promise.resolve();
    } catch (e) {
      return Promise.reject(e);
    }
  }

  rollback(): void {
    this.checkOpen();
    this.closed = true;
    this.storage.rollbacks++;
  }

  private checkOpen(): void {
    if (this.closed) throw new StorageError(StorageErrorCode.APPENDER_CLOSED, 'memory storage: appender already committed or rolled back');
  }
}
