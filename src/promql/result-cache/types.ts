/** What changed in the store after a mark, as the cache's change feed reports it. */
export interface ChangeFeedChanges {
  /** The lowest timestamp (ms) of a sample committed after the mark; +Infinity when none. May be lower than the truth, never higher. */
  readonly minTMs: number;
  /** Samples below this time (ms) may have been deleted after the mark; -Infinity when none were. */
  readonly deletedBeforeMs: number;
  /** Whether the store moved samples between its parts (a head cut) after the mark: a read that straddled it may have missed some. */
  readonly headCut: boolean;
}

/**
 * The port through which the result cache learns what changed in the store it caches answers
 * of (the embedded TSDB's `Db.changes` fits it; `src/server` binds the two).
 *
 * Contract: `seq()` is a number that grows with every change (a commit, a deletion, a head cut),
 * noted once the change is visible to queriers (or in the same synchronous turn), so a reader that
 * takes `seq()` before it reads treats everything after as possibly unseen. `since(seq)` answers
 * conservatively for any `seq` it returned: a bound may only be wider than the truth. Both are
 * synchronous and cheap (called once per cached lookup).
 */
export interface ChangeFeed {
  seq(): number;
  since(seq: number): ChangeFeedChanges;
}

/** The cache's counters for `/metrics`. */
export interface ResultCacheStats {
  /** Estimated bytes held, and the budget. */
  readonly bytes: number;
  readonly maxBytes: number;
  readonly entries: number;
  /** Range queries answered wholly from the cache. */
  readonly hits: number;
  /** Range queries of which only some steps were computed (the rest came from the cache). */
  readonly partialHits: number;
  /** Range queries computed in full although they could have used the cache (nothing usable was there). */
  readonly misses: number;
  /** Range queries that skipped the cache: asked to (`nocache`, `stats=all`) or not cacheable (`@`, …). */
  readonly bypasses: number;
  /** Lookups that found an entry of which some steps no longer held after changes in the store. */
  readonly invalidations: number;
  /** Entries dropped to stay within the byte budget. */
  readonly evictions: number;
}
