import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { intersectPostings, lowerBound, subtractPostings, unionPostings } from './postings.js';

const P = (...ids: number[]) => Uint32Array.from(ids);
const sortedSet = fc.uniqueArray(fc.integer({ min: 0, max: 300 }), { maxLength: 60 }).map((a) => Uint32Array.from(a.sort((x, y) => x - y)));

describe('postings', () => {
  it.each<[number[], number[], number[]]>([
    [[], [1], []],
    [[1, 2, 3], [2], [2]],
    [[1, 5, 9, 100], [0, 5, 6, 100, 200], [5, 100]],
    [[7], [1, 2, 3, 4, 5, 6, 7, 8], [7]],
  ])('intersect %j %j', (a, b, want) => {
    expect([...intersectPostings(P(...a), P(...b))]).toEqual(want);
    expect([...intersectPostings(P(...b), P(...a))]).toEqual(want);
  });

  it.each<[number[], number[], number[]]>([
    [[1, 2, 3], [], [1, 2, 3]],
    [[], [1], []],
    [[1, 2, 3], [2], [1, 3]],
    [[1, 5, 9, 100], [0, 5, 6, 100, 200], [1, 9]],
  ])('subtract %j %j', (a, b, want) => {
    expect([...subtractPostings(P(...a), P(...b))]).toEqual(want);
  });

  it.each<[number[][], number[]]>([
    [[], []],
    [[[3, 4]], [3, 4]],
    [[[5], [1, 9], [], [1, 5, 7]], [1, 5, 7, 9]],
  ])('union %j', (lists, want) => {
    expect([...unionPostings(lists.map((l) => P(...l)))]).toEqual(want);
  });

  it.each<[number[], number, number, number]>([
    [[], 5, 0, 0],
    [[1, 3, 5, 7], 0, 0, 0],
    [[1, 3, 5, 7], 5, 0, 2],
    [[1, 3, 5, 7], 6, 0, 3],
    [[1, 3, 5, 7], 8, 0, 4],
    [[1, 3, 5, 7], 1, 2, 2],
  ])('lowerBound(%j, %d, from %d) = %d', (list, v, from, want) => {
    expect(lowerBound(P(...list), v, from)).toBe(want);
  });

  it('agrees with set operations on random lists', () => {
    fc.assert(
      fc.property(sortedSet, sortedSet, sortedSet, (a, b, c) => {
        const sb = new Set(b);
        expect([...intersectPostings(a, b)]).toEqual([...a].filter((x) => sb.has(x)));
        expect([...subtractPostings(a, b)]).toEqual([...a].filter((x) => !sb.has(x)));
        expect([...unionPostings([a, b, c])]).toEqual([...new Set([...a, ...b, ...c])].sort((x, y) => x - y));
      }),
    );
  });
});
