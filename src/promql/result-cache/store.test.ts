import { describe, expect, it } from 'vitest';
import { Labels } from '../../model/index.js';
import { EntryStore, entryBytes, type CacheEntry } from './store.js';

function entry(key: string, points: number): CacheEntry {
  const series = [{ metric: Labels.from({ __name__: 'm' }), t: new Float64Array(points), f: new Float64Array(points) }];
  return { key, firstMs: 0, lastMs: 0, stepMs: 1, series, warnings: [], infos: [], mark: 0, bytes: entryBytes(key, series, []) };
}

describe('EntryStore', () => {
  it('evicts the least recently used entries to stay within its budget', () => {
    const one = entry('a', 100).bytes;
    const s = new EntryStore(one * 4 + 10);
    for (const k of ['a', 'b', 'c', 'd']) s.set(entry(k, 100));
    expect(s.get('a')).toBeDefined(); // now the most recent
    s.set(entry('e', 100));
    expect(['a', 'b', 'c', 'd', 'e'].filter((k) => s.get(k) !== undefined)).toEqual(['a', 'c', 'd', 'e']);
    expect(s.evictions).toBe(1);
    expect(s.bytes).toBe(4 * one);
  });

  it('replaces an entry under the same key and refuses one over a quarter of the budget', () => {
    const s = new EntryStore(entry('a', 100).bytes * 4);
    s.set(entry('a', 100));
    s.set(entry('a', 50));
    expect(s.size).toBe(1);
    expect(s.bytes).toBe(entry('a', 50).bytes);
    s.set(entry('big', 1000));
    expect(s.get('big')).toBeUndefined();
  });
});
