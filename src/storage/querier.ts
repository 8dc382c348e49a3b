import type { Labels, Matcher, SeriesIterator, UnixMs } from '../model/index.js';

/** Optional facts about the query a `select` serves; a storage may use them to read less. */
export interface SelectHints {
  /** Earliest timestamp the caller needs (inclusive). */
  startMs?: UnixMs;
  /** Latest timestamp the caller needs (inclusive). */
  endMs?: UnixMs;
  /** The query's step, for range queries. */
  stepMs?: UnixMs;
  /** The PromQL function that consumes the series, if any (e.g. `rate`). */
  func?: string;
  /** The range of a range selector, if any. */
  rangeMs?: UnixMs;
  /** When true the caller only needs the labels (series endpoint); iterators may be empty. */
  labelsOnly?: boolean;
}

/** One series of a result: its labels and a way to read its samples. */
export interface Series {
  readonly labels: Labels;
  /**
   * Returns a cursor over this series' samples within the querier's time range. Passing the
   * previous iterator lets an implementation reuse it (and its buffers) instead of allocating.
   */
  iterator(reuse?: SeriesIterator): SeriesIterator;
}

/**
 * A cursor over the series of a `select`, sorted by labels (`Labels.compare`), each label set once.
 * `next()` advances; `at()` returns the current series (owned by the set, valid until `next`);
 * `err()` reports what ended iteration early; `warnings()` lists non-fatal problems.
 */
export interface SeriesSet {
  next(): boolean;
  at(): Series;
  err(): Error | null;
  warnings(): readonly string[];
}

/**
 * A read view of a storage over a fixed time range `[minTMs, maxTMs]` (both inclusive).
 *
 * Contract:
 * - `select(matchers)` returns every series whose labels satisfy all matchers (Prometheus
 *   semantics: an absent label has the value ''), sorted by labels, and that has at least one
 *   sample in the range. Any matcher list is accepted (an empty list, or one whose matchers all
 *   match '', selects every series); refusing such selectors is PromQL's job, not storage's.
 *   Iterators yield only samples inside the range, in increasing timestamp order.
 * - `labelNames(matchers?)` / `labelValues(name, matchers?)` return sorted, de-duplicated strings
 *   from series with data in the range (restricted to those matching `matchers` when given).
 * - The view is a snapshot in spirit: samples committed after it was opened may or may not appear,
 *   but a series never shows half a commit.
 * - `close()` releases resources (file handles, pinned blocks). Series and iterators must not be
 *   used after it. Calling it twice is harmless.
 * - Queriers are cheap to open; open one per query. All methods are synchronous: the embedded
 *   store reads its files synchronously, the way Prometheus reads through mmap.
 */
export interface Querier {
  select(matchers: readonly Matcher[], hints?: SelectHints): SeriesSet;
  labelNames(matchers?: readonly Matcher[]): string[];
  labelValues(name: string, matchers?: readonly Matcher[]): string[];
  close(): void;
}

/** Something that can be read: the embedded TSDB, a fan-out, a test fixture. */
export interface Queryable {
  /** Opens a querier over `[minTMs, maxTMs]`. Throws `ERR_STORAGE_CLOSED` after close. */
  querier(minTMs: UnixMs, maxTMs: UnixMs): Querier;
}
