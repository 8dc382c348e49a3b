import type { Clock } from '../model/index.js';
import type { Appendable } from '../storage/index.js';
import type { CardinalityTracker } from './cardinality.js';
import { IngestError, IngestErrorCode } from './errors.js';
import type { IngestLimits } from './limits.js';
import { describeSeries, type SeriesEntry } from './series.js';

let nextBatchId = 1;

/**
 * The samples of one request, fully decoded and validated before anything reaches storage, so
 * that a refused request leaves nothing behind. `write` appends them in one appender and
 * commits, or rolls everything back.
 */
export class SampleBatch {
  private readonly id = nextBatchId++;
  private entries: SeriesEntry[] = [];
  private tMs: number[] = [];
  // A Float64Array, not number[]: V8 may quiet NaN payloads in plain arrays, which would turn a
  // stale marker into an ordinary NaN.
  private values = new Float64Array(1024);
  /** The distinct series of the batch, in first-seen order. */
  readonly series: SeriesEntry[] = [];

  /** Adds one sample. */
  add(entry: SeriesEntry, tMs: number, value: number): void {
    if (entry.batchMark !== this.id) {
      entry.batchMark = this.id;
      this.series.push(entry);
    }
    const n = this.entries.length;
    if (n === this.values.length) {
      const grown = new Float64Array(n * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[n] = value;
    this.entries.push(entry);
    this.tMs.push(tMs);
  }

  /** The number of samples. */
  get size(): number {
    return this.entries.length;
  }

  /**
   * Checks the request against the limits and every timestamp against the clock: an integer
   * number of milliseconds, at most `maxAheadMs` in the future (Prometheus' receiver refuses
   * samples more than 10 minutes ahead, since one would stall the head for every other series).
   * Then asks the cardinality tracker. Throws `IngestError`.
   */
  validate(limits: IngestLimits, tracker: CardinalityTracker, nowMs: number): void {
    if (limits.maxSeriesPerRequest > 0 && this.series.length > limits.maxSeriesPerRequest) {
      throw new IngestError(IngestErrorCode.LIMIT_EXCEEDED, `too many series in one request: ${this.series.length}, the limit is ${limits.maxSeriesPerRequest}`);
    }
    const maxT = nowMs + limits.maxAheadMs;
    for (let i = 0; i < this.tMs.length; i++) {
      const t = this.tMs[i];
      if (!Number.isSafeInteger(t)) {
        throw new IngestError(IngestErrorCode.INVALID_SAMPLE, `invalid timestamp ${t} for ${describeSeries(this.entries[i].labels)}: not an integer number of milliseconds`);
      }
      if (t > maxT) {
        throw new IngestError(IngestErrorCode.INVALID_SAMPLE, `sample for ${describeSeries(this.entries[i].labels)} at ${t} is more than ${limits.maxAheadMs / 1000}s in the future (now ${nowMs})`);
      }
    }
    tracker.check(this.series, nowMs);
  }

  /**
   * Appends every sample and commits. On any error the appender is rolled back (when `append`
   * threw) or the commit failed as a whole, so nothing of the batch is visible; the error is
   * rethrown for the caller to map onto a status.
   */
  async write(appendable: Appendable): Promise<void> {
    if (this.entries.length === 0) return;
    const app = appendable.appender();
    const { entries, tMs, values } = this;
    try {
      for (let i = 0; i < entries.length; i++) {
        const e = entries[i];
        e.ref = app.append(e.ref, e.labels, tMs[i], values[i]);
      }
    } catch (e) {
      app.rollback();
      throw e;
    }
    await app.commit();
  }
}

/** Runs `validate`, `write` and the tracker's `record` in order: the common tail of every receiver. */
export async function writeBatch(batch: SampleBatch, deps: { appendable: Appendable; limits: IngestLimits; tracker: CardinalityTracker; clock: Clock }): Promise<void> {
  const nowMs = deps.clock();
  batch.validate(deps.limits, deps.tracker, nowMs);
  await batch.write(deps.appendable);
  deps.tracker.record(batch.series, nowMs);
}
