import type { Labels, UnixMs } from '../model/index.js';

/**
 * An opaque reference to a series inside one storage, returned by `Appender.append`. It lets a
 * producer skip the label lookup on later appends (a scraper caches one per target series).
 * 0 means "no reference": the storage must resolve the series from its labels.
 */
export type SeriesRef = number;

/**
 * A batch of samples on its way into a storage. Obtain one from `Appendable.appender()`.
 *
 * Contract:
 * - `append(ref, labels, tMs, value)` stages one float sample and returns the series' reference.
 *   `ref` is a hint: when it is 0 or unknown to this storage, `labels` decide the series; when it
 *   is a valid reference, an implementation may ignore `labels` (so a caller must never pass a
 *   ref that belongs to other labels). `labels` must contain a non-empty `__name__`.
 * - Ordering: within one series, samples must arrive in increasing timestamp order across all
 *   appenders (Prometheus' rule). A sample older than the newest committed or staged one is
 *   rejected with `ERR_OUT_OF_ORDER_SAMPLE` (or accepted, when the storage has an out-of-order
 *   window that covers it; older than the window gives `ERR_TOO_OLD_SAMPLE`); one with the same
 *   timestamp and a different value with `ERR_DUPLICATE_SAMPLE_FOR_TIMESTAMP`; the same timestamp
 *   and the bit-identical value is silently ignored. A sample older than the storage accepts at
 *   all gives `ERR_OUT_OF_BOUNDS`. Errors are thrown as `StorageError` from `append`; the sample is
 *   not staged and the appender stays usable, so a producer can count the error and go on.
 * - `commit()` makes every staged sample durable and visible to queriers, all together. Once its
 *   promise resolves, the samples survive a crash of the process (see the storage's fsync policy
 *   for power loss). If it rejects, nothing of the batch was written. A sample that became invalid
 *   between `append` and `commit` (another appender committed a newer one) is dropped and counted
 *   by the storage's self-metrics, never written.
 * - `rollback()` discards the staged samples. After `commit` or `rollback` the appender is closed;
 *   further calls throw `ERR_APPENDER_CLOSED`.
 * - Values are copied bit-exactly: the stale NaN marker stays the stale marker.
 * - Concurrency: one appender belongs to one producer; several appenders of one storage may be
 *   open at once and commit in any order. No buffer passed in is retained except `labels`, which
 *   are immutable.
 */
export interface Appender {
  append(ref: SeriesRef, labels: Labels, tMs: UnixMs, value: number): SeriesRef;
  commit(): Promise<void>;
  rollback(): void;
}

/** Something that accepts samples: the embedded TSDB, the remote_write appender, a fan-out. */
export interface Appendable {
  /** Opens a new, empty appender. Throws `ERR_STORAGE_CLOSED` after the storage was closed. */
  appender(): Appender;
}
