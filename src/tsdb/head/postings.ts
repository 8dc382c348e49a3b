import type { Labels, Matcher } from '../../model/index.js';
import { lowerBound } from '../block/postings.js';
import { isNonEmptyMatcher, NonEmptyPostingsCache } from '../block/postings-cache.js';

/** Up to this many candidates, `select` checks labels rather than building postings unions. */
const FILTER_MAX_REFS = 8192;

/**
 * The head's inverted index: for every label name and value, the sorted list of series refs
 * that carry it. Refs are handed out in increasing order, so appending keeps every list sorted
 * without a sort. Deleting (after garbage collection) rebuilds only the touched lists.
 */
export class MemPostings {
  private readonly byName = new Map<string, Map<string, number[]>>();
  private readonly all: number[] = [];
  /** `label!=""` answers by label name; `add` keeps them current, `delete` drops touched ones. */
  private readonly nonEmpty = new NonEmptyPostingsCache<number[]>();

  /**
   * Indexes a new series. Refs usually arrive in increasing order (a push); a WAL replay can add
   * them out of order (series are logged when first committed, not when created), and then the
   * ref is inserted at its sorted place.
   */
  add(ref: number, labels: Labels): void {
    insertSorted(this.all, ref);
    for (let i = 0; i < labels.size; i++) {
      const name = labels.nameAt(i);
      let values = this.byName.get(name);
      if (values === undefined) {
        values = new Map();
        this.byName.set(name, values);
      }
      const value = labels.valueAt(i);
      const list = values.get(value);
      if (list === undefined) values.set(value, [ref]);
      else insertSorted(list, ref);
      if (value !== '' && this.nonEmpty.size > 0 && this.nonEmpty.has(name)) this.nonEmpty.update(name, (l) => insertSorted(l, ref));
    }
  }

  /** Removes series from the index. */
  delete(refs: ReadonlySet<number>, labelsOf: (ref: number) => Labels): void {
    if (refs.size === 0) return;
    const touched = new Map<string, Set<string>>();
    for (const ref of refs) {
      const labels = labelsOf(ref);
      for (let i = 0; i < labels.size; i++) {
        const name = labels.nameAt(i);
        let set = touched.get(name);
        if (set === undefined) touched.set(name, (set = new Set()));
        set.add(labels.valueAt(i));
      }
    }
    for (const [name, values] of touched) {
      this.nonEmpty.delete(name);
      const byValue = this.byName.get(name);
      if (byValue === undefined) continue;
      for (const value of values) {
        const kept = (byValue.get(value) ?? []).filter((r) => !refs.has(r));
        if (kept.length === 0) byValue.delete(value);
        else byValue.set(value, kept);
      }
      if (byValue.size === 0) this.byName.delete(name);
    }
    const keptAll = this.all.filter((r) => !refs.has(r));
    this.all.length = 0;
    for (const r of keptAll) this.all.push(r);
  }

  /** Sorted label names present in the index. */
  labelNames(): string[] {
    return [...this.byName.keys()].sort();
  }

  /** Sorted values of one label name. */
  labelValues(name: string): string[] {
    const values = this.byName.get(name);
    return values === undefined ? [] : [...values.keys()].sort();
  }

  /** The sorted refs of every series. Read-only. */
  allRefs(): readonly number[] {
    return this.all;
  }

  /**
   * The sorted refs of series satisfying every matcher, with Prometheus semantics (an absent
   * label equals ''). Positive matchers are resolved to postings and intersected, smallest first;
   * matchers that match '' are resolved to the refs they exclude, which are then subtracted.
   *
   * With `labelsOf`, when the equality matchers alone (one postings list each, no scan) narrow
   * the candidates to a small share of the index, the other matchers are checked against each
   * candidate's labels instead: `up{replica!=""}` then costs a look at the few thousand `up`
   * series, not the union of every replica's postings.
   */
  select(all: readonly Matcher[], labelsOf?: (ref: number) => Labels | undefined): readonly number[] {
    const matchers = all.some((m) => m.matchesAll) ? all.filter((m) => !m.matchesAll) : all;
    if (labelsOf !== undefined) {
      const narrowed = this.selectByFiltering(matchers, labelsOf);
      if (narrowed !== null) return narrowed;
    }
    const include: (readonly number[])[] = [];
    const exclude: (readonly number[])[] = [];
    for (const m of matchers) {
      if (m.matchesEmpty()) {
        // Series lacking the label match; exclude those whose value does not match.
        const values = this.byName.get(m.name);
        if (values === undefined) continue;
        const lists: (readonly number[])[] = [];
        for (const [value, list] of values) if (!m.matches(value)) lists.push(list);
        if (lists.length > 0) exclude.push(unionAll(lists));
      } else {
        const list = this.postingsFor(m);
        if (list.length === 0) return [];
        include.push(list);
      }
    }
    let result: readonly number[];
    if (include.length === 0) result = this.all;
    else {
      include.sort((a, b) => a.length - b.length);
      result = include[0];
      for (let i = 1; i < include.length && result.length > 0; i++) result = intersect(result, include[i]);
    }
    for (const ex of exclude) {
      if (result.length === 0) break;
      result = subtract(result, ex);
    }
    return result;
  }

  /**
   * The candidates of the equality matchers, filtered by the other matchers on their labels; null
   * when there is no equality matcher, nothing else to check, or too many candidates for a label
   * check to beat the postings (more than `FILTER_MAX_REFS` and more than 1/8 of all series).
   */
  private selectByFiltering(matchers: readonly Matcher[], labelsOf: (ref: number) => Labels | undefined): readonly number[] | null {
    const lists: (readonly number[])[] = [];
    const rest: Matcher[] = [];
    for (const m of matchers) {
      if (m.type === '=' && m.value !== '') lists.push(this.byName.get(m.name)?.get(m.value) ?? []);
      else rest.push(m);
    }
    if (lists.length === 0 || rest.length === 0) return null;
    lists.sort((a, b) => a.length - b.length);
    let result = lists[0];
    for (let i = 1; i < lists.length && result.length > 0; i++) result = intersect(result, lists[i]);
    if (result.length > FILTER_MAX_REFS && result.length > this.all.length / 8) return null;
    const out: number[] = [];
    outer: for (const ref of result) {
      const labels = labelsOf(ref);
      if (labels === undefined) continue;
      for (const m of rest) if (!m.matches(labels.get(m.name))) continue outer;
      out.push(ref);
    }
    return out;
  }

  /** Postings of the series whose `m.name` value is non-empty and matches `m`. */
  private postingsFor(m: Matcher): readonly number[] {
    const values = this.byName.get(m.name);
    if (values === undefined) return [];
    if (isNonEmptyMatcher(m)) {
      const cached = this.nonEmpty.get(m.name);
      if (cached !== undefined) return cached;
    }
    const lists: (readonly number[])[] = [];
    if (m.setMatches !== undefined) {
      for (const v of m.setMatches) {
        const list = values.get(v);
        if (list !== undefined) lists.push(list);
      }
    } else {
      for (const [value, list] of values) if (m.matches(value)) lists.push(list);
    }
    const union = unionAll(lists);
    if (!isNonEmptyMatcher(m)) return union;
    // A private copy when the union is one of the index's own lists: `add` updates the entry.
    const entry = union === lists[0] ? [...union] : (union as number[]);
    this.nonEmpty.set(m.name, entry);
    return entry;
  }
}

/** Adds `ref` to an ascending list, keeping it ascending (a push in the common case). */
function insertSorted(list: number[], ref: number): void {
  if (list.length === 0 || list[list.length - 1] < ref) {
    list.push(ref);
    return;
  }
  const i = lowerBound(list, ref, 0);
  if (list[i] !== ref) list.splice(i, 0, ref);
}

/**
 * Intersects two sorted ref lists. Walks the shorter one and gallops through the longer one, so
 * a handful of refs against a list of 40,000 costs a few hundred comparisons, not 40,000.
 */
export function intersect(a: readonly number[], b: readonly number[]): number[] {
  if (a.length > b.length) [a, b] = [b, a];
  const out: number[] = [];
  let j = 0;
  for (let i = 0; i < a.length && j < b.length; i++) {
    const x = a[i];
    if (b[j] < x) j = lowerBound(b, x, j + 1);
    if (j < b.length && b[j] === x) {
      out.push(x);
      j++;
    }
  }
  return out;
}

/** Removes the refs of sorted list `b` from sorted list `a`. */
export function subtract(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let j = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    while (j < b.length && b[j] < x) j++;
    if (j >= b.length || b[j] !== x) out.push(x);
  }
  return out;
}

/** Unions sorted ref lists into one sorted, duplicate-free list. */
export function unionAll(lists: readonly (readonly number[])[]): readonly number[] {
  if (lists.length === 0) return [];
  if (lists.length === 1) return lists[0];
  let total = 0;
  for (const l of lists) total += l.length;
  const out = new Float64Array(total);
  let k = 0;
  for (const l of lists) for (let i = 0; i < l.length; i++) out[k++] = l[i];
  out.sort();
  const dedup: number[] = [];
  for (let i = 0; i < out.length; i++) if (i === 0 || out[i] !== out[i - 1]) dedup.push(out[i]);
  return dedup;
}
