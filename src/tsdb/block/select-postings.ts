/**
 * Resolves label matchers to the sorted ids of the series that satisfy all of them, using the
 * block's postings (Prometheus' `PostingsForMatchers`, simplified):
 *
 * - a matcher that does not match '' needs the label: it contributes the union of the postings
 *   of its matching values, and these sets are intersected;
 * - a matcher that matches '' (`!=`, `!~`, `=""`, `=~".*"`, ...) selects series without the label
 *   too, so it is applied by subtracting the postings of the values it does *not* match;
 * - with no matcher of the first kind, the start set is every series.
 *
 * `=` and alternations of literals look their values up directly (`Matcher.setMatches`); a regex
 * with a literal prefix scans only the values with that prefix; any other regex scans the label's
 * values once, calling `matches` per distinct value (never per series). `label!=""` and
 * `label=~".+"` (every value) are cached per block by label name (`postings-cache.ts`): a block
 * never changes, so the union of every value's postings is computed once.
 */
import type { Matcher } from '../../model/index.js';
import type { IndexReader } from './index-reader.js';
import { isNonEmptyMatcher, NonEmptyPostingsCache } from './postings-cache.js';
import { EMPTY_POSTINGS, intersectPostings, subtractPostings, unionPostings } from './postings.js';

/** The `label!=""` answers of each open block's index; dropped with the reader. */
const nonEmptyCaches = new WeakMap<IndexReader, NonEmptyPostingsCache<Uint32Array>>();

/** Returns the ids of the series of `index` that satisfy every matcher, ascending. */
export function selectPostings(index: IndexReader, matchers: readonly Matcher[]): Uint32Array {
  const positives: Matcher[] = [];
  const negatives: Matcher[] = [];
  for (const m of matchers) if (!m.matchesAll) (m.matches('') ? negatives : positives).push(m);

  let result: Uint32Array | null = null;
  // Cheapest first: exact lookups before scans, so an empty intersection stops early.
  positives.sort((a, b) => cost(a) - cost(b));
  for (const m of positives) {
    const p = postingsMatching(index, m, true);
    result = result === null ? p : intersectPostings(result, p);
    if (result.length === 0) return EMPTY_POSTINGS;
  }
  result ??= index.allPostings();
  for (const m of negatives) {
    if (result.length === 0) break;
    const p = postingsMatching(index, m, false);
    result = subtractPostings(result, p);
  }
  return result;
}

function cost(m: Matcher): number {
  if (m.setMatches !== undefined) return 0;
  return m.prefix !== '' ? 1 : 2;
}

/**
 * The union of the postings of the values of `m.name` for which `m.matches(value) === want`.
 * Series without the label are never included.
 */
function postingsMatching(index: IndexReader, m: Matcher, want: boolean): Uint32Array {
  const n = index.nameIndex(m.name);
  if (n < 0) return EMPTY_POSTINGS;
  if (want && isNonEmptyMatcher(m)) return nonEmptyPostings(index, n, m.name);
  const lists: Uint32Array[] = [];
  if (want && m.setMatches !== undefined) {
    for (const v of m.setMatches) {
      const k = index.findValue(n, v);
      if (k >= 0) lists.push(index.postings(k));
    }
    return unionPostings(lists);
  }
  let from = index.valuesStart(n);
  const end = index.valuesEnd(n);
  const prefix = want ? m.prefix : '';
  if (prefix !== '') from = index.lowerBoundValue(n, prefix);
  for (let k = from; k < end; k++) {
    const v = index.value(k);
    if (prefix !== '' && !v.startsWith(prefix)) break;
    if (m.matches(v) === want) lists.push(index.postings(k));
  }
  return unionPostings(lists);
}

/** The postings of every series of `index` that has label `name` (name index `n`), cached. */
function nonEmptyPostings(index: IndexReader, n: number, name: string): Uint32Array {
  let cache = nonEmptyCaches.get(index);
  if (cache === undefined) nonEmptyCaches.set(index, (cache = new NonEmptyPostingsCache()));
  const cached = cache.get(name);
  if (cached !== undefined) return cached;
  const lists: Uint32Array[] = [];
  for (let k = index.valuesStart(n); k < index.valuesEnd(n); k++) if (index.value(k) !== '') lists.push(index.postings(k));
  const all = unionPostings(lists);
  cache.set(name, all);
  return all;
}
