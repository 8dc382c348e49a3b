import type { Labels, Matcher, Sample } from '../../model/index.js';
import { StorageError, StorageErrorCode, type Appendable, type Appender, type SeriesRef } from '../../storage/index.js';

interface MemSeries {
  readonly ref: SeriesRef;
  readonly labels: Labels;
  /** Sample objects, not a number[]: object properties keep NaN payloads (the stale marker). */
  readonly samples: Sample[];
}

const sameBits = (a: number, b: number): boolean => Object.is(a, b) || (a !== a && b !== b && bitsOf(a) === bitsOf(b));
const view = new DataView(new ArrayBuffer(8));
function bitsOf(v: number): bigint {
  view.setFloat64(0, v);
  return view.getBigUint64(0);
}

/**
 * A small in-memory storage for tests of `Appendable` decorators: it validates like the embedded
 * TSDB (out-of-order, duplicates, identical repeats, label and timestamp checks, commit-time
 * re-validation) without a disk. Not for production.
 */
export class MemoryStorage implements Appendable {
  private readonly byKey = new Map<string, MemSeries>();
  private readonly byRef: MemSeries[] = [];
  /** Every sample handed to `append` in order, committed or not (what a decorator sent). */
  readonly appended: { labels: Labels; tMs: number; value: number }[] = [];

  appender(): Appender {
    return new MemoryAppender(this);
  }

  /** The series for `ref` or `labels`, created on first sight. */
  series(ref: SeriesRef, labels: Labels): MemSeries {
    const byRef = this.byRef[ref - 1] as MemSeries | undefined;
    if (ref > 0 && byRef !== undefined) return byRef;
    if (labels.metricName === '') throw new StorageError(StorageErrorCode.INVALID_LABELS, 'labels have no metric name');
    let s = this.byKey.get(labels.key());
    if (s === undefined) {
      s = { ref: this.byRef.length + 1, labels, samples: [] };
      this.byKey.set(labels.key(), s);
      this.byRef.push(s);
    }
    return s;
  }

  /** Committed series matching all `matchers` with their samples in [minTMs, maxTMs], sorted by labels. */
  read(matchers: Matcher[], minTMs: number, maxTMs: number): { labels: Labels; samples: Sample[] }[] {
    return [...this.byKey.values()]
      .filter((s) => s.samples.length > 0 && matchers.every((m) => m.matches(s.labels.get(m.name))))
      .map((s) => ({ labels: s.labels, samples: s.samples.filter((x) => x.tMs >= minTMs && x.tMs <= maxTMs) }))
      .filter((s) => s.samples.length > 0)
      .sort((a, b) => a.labels.compare(b.labels));
  }

  /** Every committed sample as `labels value` lines (the value of the last sample), sorted. */
  dump(): string[] {
    return this.read([], Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER).map((s) => `${s.labels.toString()} ${s.samples[s.samples.length - 1].value}`);
  }
}

class MemoryAppender implements Appender {
  private closed = false;
  private readonly staged: { s: MemSeries; sample: Sample }[] = [];
  private readonly last = new Map<MemSeries, Sample>();

  constructor(private readonly storage: MemoryStorage) {}

  append(ref: SeriesRef, labels: Labels, tMs: number, value: number): SeriesRef {
    this.checkOpen();
    if (!Number.isSafeInteger(tMs)) throw new StorageError(StorageErrorCode.INVALID_TIMESTAMP, `bad timestamp ${tMs}`);
    const s = this.storage.series(ref, labels);
    this.storage.appended.push({ labels: s.labels, tMs, value });
    const last: Sample | undefined = this.last.get(s) ?? s.samples.at(-1);
    if (last !== undefined) {
      if (tMs === last.tMs) {
        if (sameBits(value, last.value)) return s.ref;
        throw new StorageError(StorageErrorCode.DUPLICATE_SAMPLE_FOR_TIMESTAMP, `duplicate sample at ${tMs}`);
      }
      if (tMs < last.tMs) throw new StorageError(StorageErrorCode.OUT_OF_ORDER_SAMPLE, `out of order sample at ${tMs}`);
    }
    const sample = { tMs, value };
    this.staged.push({ s, sample });
    this.last.set(s, sample);
    return s.ref;
  }

  async commit(): Promise<void> {
    this.checkOpen();
    this.closed = true;
    for (const { s, sample } of this.staged) {
      const last = s.samples[s.samples.length - 1] as Sample | undefined;
      if (last === undefined || sample.tMs > last.tMs) s.samples.push(sample); // else: made invalid meanwhile, dropped
    }
  }

  rollback(): void {
    this.checkOpen();
    this.closed = true;
  }

  private checkOpen(): void {
    if (this.closed) throw new StorageError(StorageErrorCode.APPENDER_CLOSED, 'appender already committed or rolled back');
  }
}
