import type { Labels } from '../../model/index.js';

/** One series of a cached range result: its final labels and its points, in time order. */
export interface CachedSeries {
  readonly metric: Labels;
  readonly t: Float64Array;
  readonly f: Float64Array;
}

/**
 * A cached range result: the answer at every step `firstMs, firstMs + stepMs, …, lastMs` of one
 * key, computed from the store as it was at change-feed sequence `mark` (every change after
 * `mark` counts against it, even one the evaluation already saw).
 */
export interface CacheEntry {
  readonly key: string;
  readonly firstMs: number;
  readonly lastMs: number;
  readonly stepMs: number;
  /** Sorted as the engine sorts a range result (by labels). */
  readonly series: readonly CachedSeries[];
  readonly warnings: readonly string[];
  readonly infos: readonly string[];
  readonly mark: number;
  /** What the entry costs in memory, estimated (`entryBytes`). */
  readonly bytes: number;
}

/** Fixed cost assumed for an entry and for each series (objects, arrays, the key), in bytes. */
const ENTRY_OVERHEAD_BYTES = 256;
const SERIES_OVERHEAD_BYTES = 160;

/**
 * An estimate of an entry's heap: 16 bytes a point (two float64 columns), the label strings at
 * two bytes a character, and fixed overheads. It bounds the cache's size, so it errs high.
 */
export function entryBytes(key: string, series: readonly CachedSeries[], notes: readonly string[]): number {
  let bytes = ENTRY_OVERHEAD_BYTES + 2 * key.length;
  for (const n of notes) bytes += 2 * n.length + 32;
  for (const s of series) bytes += SERIES_OVERHEAD_BYTES + 16 * s.t.length + 2 * s.metric.key().length;
  return bytes;
}

/**
 * Entries by key, least recently used first, holding at most `maxBytes` (estimated). One entry a
 * key; `set` replaces. An entry larger than a quarter of the budget is not kept: it would push
 * out everything else for one query.
 */
export class EntryStore {
  private readonly entries = new Map<string, CacheEntry>();
  private totalBytes = 0;
  /** Entries dropped to stay within the budget. */
  evictions = 0;

  constructor(readonly maxBytes: number) {}

  /** The entry of `key`, now the most recently used; undefined when none. */
  get(key: string): CacheEntry | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, e);
    return e;
  }

  /** Stores `e` under its key (replacing any entry there), then evicts down to the budget. */
  set(e: CacheEntry): void {
    this.delete(e.key);
    if (e.bytes > this.maxBytes / 4) return;
    this.entries.set(e.key, e);
    this.totalBytes += e.bytes;
    for (const [k, old] of this.entries) {
      if (this.totalBytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.totalBytes -= old.bytes;
      this.evictions++;
    }
  }

  /** Drops the entry of `key`, if any. */
  delete(key: string): void {
    const old = this.entries.get(key);
    if (old === undefined) return;
    this.entries.delete(key);
    this.totalBytes -= old.bytes;
  }

  get bytes(): number {
    return this.totalBytes;
  }

  get size(): number {
    return this.entries.size;
  }
}
