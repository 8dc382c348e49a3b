import { describe, expect, it } from 'vitest';
import { matcher, type MatchType } from '../../model/index.js';
import { isNonEmptyMatcher, NonEmptyPostingsCache } from './postings-cache.js';

describe('isNonEmptyMatcher', () => {
  it.each([
    ['!=', '', true],
    ['=~', '.+', true],
    ['!=', 'x', false],
    ['=~', '.*', false],
    ['=', '', false],
    ['!~', '', false],
    ['=~', 'a.+', false],
  ])('%s"%s" → %s', (type, value, want) => {
    expect(isNonEmptyMatcher(matcher(type as MatchType, 'l', value))).toBe(want);
  });
});

describe('NonEmptyPostingsCache', () => {
  it('evicts the least recently used entries past its bound on refs', () => {
    const c = new NonEmptyPostingsCache<number[]>(10, 8);
    c.set('a', [1, 2, 3, 4]);
    c.set('b', [1, 2, 3, 4]);
    c.get('a'); // now b is the oldest
    c.set('c', [5, 6, 7]);
    expect([c.has('a'), c.has('b'), c.has('c')]).toEqual([true, false, true]);
    expect(c.totalRefs).toBe(7);
  });

  it('bounds the number of names, and never keeps a list longer than the whole bound', () => {
    const c = new NonEmptyPostingsCache<number[]>(100, 2);
    c.set('a', [1]);
    c.set('b', [2]);
    c.set('c', [3]);
    expect([c.has('a'), c.size]).toEqual([false, 2]);
    c.set('huge', Array.from({ length: 101 }, (_, i) => i));
    expect(c.has('huge')).toBe(false);
  });

  it('recounts an entry changed in place, and drops it when it outgrows the bound', () => {
    const c = new NonEmptyPostingsCache<number[]>(3, 8);
    c.set('a', [1, 2]);
    c.update('a', (l) => l.push(3));
    expect([c.get('a'), c.totalRefs]).toEqual([[1, 2, 3], 3]);
    c.update('a', (l) => l.push(4));
    expect([c.has('a'), c.totalRefs]).toEqual([false, 0]);
    c.update('missing', () => expect.unreachable());
  });
});
