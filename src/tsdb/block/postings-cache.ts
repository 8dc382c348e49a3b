/**
 * The cached answers of `label!=""` and `label=~".+"`: the postings of every series that has a
 * label at all, by label name. Without an equality matcher that narrows the candidates first,
 * such a matcher costs the union of every value's postings (for `instance` or `pod`, one list
 * per target), again on every refresh of a dashboard; with the cache it costs a lookup. Used by
 * the block postings selection (immutable: entries never go stale) and by the head's postings
 * (which add each new series' ref to the entries of its label names).
 */
import type { Matcher } from '../../model/index.js';

/** Whether `m` means "the label is present": `name!=""` or `name=~".+"`. */
export function isNonEmptyMatcher(m: Matcher): boolean {
  return (m.type === '!=' && m.value === '') || (m.type === '=~' && m.value === '.+');
}

/** Refs the cache holds at most, over all its entries (4 or 8 bytes each). */
export const NON_EMPTY_CACHE_MAX_REFS = 1 << 21;

/** Label names the cache holds at most. */
export const NON_EMPTY_CACHE_MAX_NAMES = 64;

/**
 * A bounded map from label name to a sorted postings list, least recently used evicted first,
 * bounded by the total number of refs and the number of names. A list longer than the whole
 * bound is not kept. Lists handed out are the cached ones: callers must not modify them, and
 * `update` changes them in place (the head's lists are valid until its next change anyway).
 */
export class NonEmptyPostingsCache<P extends ArrayLike<number>> {
  private readonly entries = new Map<string, P>();
  private refs = 0;

  /** Creates an empty cache with the given bounds. */
  constructor(
    private readonly maxRefs = NON_EMPTY_CACHE_MAX_REFS,
    private readonly maxNames = NON_EMPTY_CACHE_MAX_NAMES,
  ) {}

  /** The number of names cached. */
  get size(): number {
    return this.entries.size;
  }

  /** The number of refs held over all entries. */
  get totalRefs(): number {
    return this.refs;
  }

  /** The cached postings of series that have label `name`, or undefined; marks it recently used. */
  get(name: string): P | undefined {
    const p = this.entries.get(name);
    if (p !== undefined) {
      this.entries.delete(name);
      this.entries.set(name, p);
    }
    return p;
  }

  /** Whether `name` is cached, without marking it used. */
  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** Caches `postings` for `name`, evicting the least recently used entries past the bounds. */
  set(name: string, postings: P): void {
    this.delete(name);
    if (postings.length > this.maxRefs) return;
    for (const [k, v] of this.entries) {
      if (this.refs + postings.length <= this.maxRefs && this.entries.size < this.maxNames) break;
      this.entries.delete(k);
      this.refs -= v.length;
    }
    this.entries.set(name, postings);
    this.refs += postings.length;
  }

  /**
   * Lets `change` modify the entry of `name` in place (the head adding a new series' ref), then
   * recounts its refs; does nothing when `name` is not cached. Not a use: the order stays.
   */
  update(name: string, change: (postings: P) => void): void {
    const p = this.entries.get(name);
    if (p === undefined) return;
    this.refs -= p.length;
    change(p);
    this.refs += p.length;
    if (this.refs > this.maxRefs) this.delete(name);
  }

  /** Drops the entry of `name`, if any. */
  delete(name: string): void {
    const p = this.entries.get(name);
    if (p === undefined) return;
    this.entries.delete(name);
    this.refs -= p.length;
  }
}
