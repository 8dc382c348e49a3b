/**
 * Postings: sorted lists of series ids as `Uint32Array`s, and the set operations a select needs.
 * Every function takes strictly increasing lists and returns one (possibly one of its inputs,
 * never mutated afterwards).
 */

/** The empty postings list. */
export const EMPTY_POSTINGS: Uint32Array = new Uint32Array(0);

/** Returns the ids present in both lists. */
export function intersectPostings(a: Uint32Array, b: Uint32Array): Uint32Array {
  if (a.length === 0 || b.length === 0) return EMPTY_POSTINGS;
  if (a.length > b.length) [a, b] = [b, a];
  const out = new Uint32Array(a.length);
  let n = 0;
  let j = 0;
  const bl = b.length;
  for (let i = 0; i < a.length && j < bl; i++) {
    const v = a[i];
    // Gallop when the lists differ a lot in size, so a tiny list against a huge one stays cheap.
    if (b[j] < v) j = lowerBound(b, v, j + 1);
    if (j < bl && b[j] === v) {
      out[n++] = v;
      j++;
    }
  }
  return n === out.length ? out : out.slice(0, n);
}

/** Returns the ids of `a` that are not in `b`. */
export function subtractPostings(a: Uint32Array, b: Uint32Array): Uint32Array {
  if (a.length === 0 || b.length === 0) return a;
  const out = new Uint32Array(a.length);
  let n = 0;
  let j = 0;
  const bl = b.length;
  for (let i = 0; i < a.length; i++) {
    const v = a[i];
    if (j < bl && b[j] < v) j = lowerBound(b, v, j + 1);
    if (j < bl && b[j] === v) continue;
    out[n++] = v;
  }
  return n === a.length ? a : out.slice(0, n);
}

/** Returns the ids present in any of the lists. */
export function unionPostings(lists: readonly Uint32Array[]): Uint32Array {
  if (lists.length === 0) return EMPTY_POSTINGS;
  if (lists.length === 1) return lists[0];
  let total = 0;
  for (const l of lists) total += l.length;
  const all = new Uint32Array(total);
  let at = 0;
  for (const l of lists) {
    all.set(l, at);
    at += l.length;
  }
  all.sort();
  let n = 0;
  for (let i = 0; i < total; i++) {
    if (n === 0 || all[n - 1] !== all[i]) all[n++] = all[i];
  }
  return n === total ? all : all.slice(0, n);
}

/**
 * The first index `i >= from` with `list[i] >= v`, or `list.length`, in an ascending list.
 * Exponential search from `from`, then binary search, so skipping k entries costs O(log k).
 * Shared by the block postings and the head's in-memory postings.
 */
export function lowerBound(list: ArrayLike<number>, v: number, from: number): number {
  let lo = from;
  let step = 1;
  let hi = from;
  while (hi < list.length && list[hi] < v) {
    lo = hi + 1;
    hi += step;
    step *= 2;
  }
  if (hi > list.length) hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
