import { describe, expect, it } from 'vitest';
import { Labels, matcher, mulberry32, type Matcher } from '../../model/index.js';
import { MemPostings } from './postings.js';

const VALUES = ['a', 'b', 'c', 'd'];
const NAMES = ['job', 'replica', 'az'];

/** A random series: a name and each optional label present with probability 1/2. */
function drawLabels(random: () => number): Labels {
  const rec: Record<string, string> = { __name__: random() < 0.5 ? 'up' : 'm' };
  for (const n of NAMES) if (random() < 0.5) rec[n] = VALUES[Math.floor(random() * VALUES.length)];
  return Labels.from(rec);
}

// Selectors whose `!=""` / `=~".+"` no equality narrows (the case the cache answers), and others.
const SELECTORS: Matcher[][] = [
  [matcher('!=', 'replica', '')],
  [matcher('=~', 'replica', '.+')],
  [matcher('=~', '__name__', 'up|m'), matcher('!=', 'job', '')],
  [matcher('!=', 'az', ''), matcher('=~', 'job', '.+')],
  [matcher('=', 'job', 'a'), matcher('!=', 'replica', '')],
  [matcher('!=', 'az', ''), matcher('!=', 'job', 'b')],
];

describe('MemPostings: cached label!="" answers', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])('equal a label check over every series under appends, out-of-order refs and deletes (seed %i)', (seed) => {
    const random = mulberry32(seed);
    const p = new MemPostings();
    const labels = new Map<number, Labels>();
    let nextRef = 0;
    for (let round = 0; round < 40; round++) {
      const r = random();
      if (r < 0.6) {
        for (let i = 0, n = 1 + Math.floor(random() * 20); i < n; i++) {
          // Now and then a ref below the last one (WAL replay adds refs out of order).
          const ref = random() < 0.1 && nextRef > 5 ? nextRef - 1 - Math.floor(random() * 5) : nextRef++;
          if (labels.has(ref)) continue;
          const l = drawLabels(random);
          labels.set(ref, l);
          p.add(ref, l);
        }
      } else if (r < 0.7 && labels.size > 0) {
        const gone = new Set([...labels.keys()].filter(() => random() < 0.2));
        p.delete(gone, (ref) => labels.get(ref)!);
        for (const ref of gone) labels.delete(ref);
      }
      for (const ms of SELECTORS) {
        const want = [...labels.entries()]
          .filter(([, l]) => ms.every((m) => m.matches(l.get(m.name))))
          .map(([ref]) => ref)
          .sort((a, b) => a - b);
        expect([...p.select(ms)], `round ${round}: ${ms.join(',')}`).toEqual(want);
      }
    }
  });

  it('serves the second select from the cache, and a new series shows up in it', () => {
    const p = new MemPostings();
    p.add(1, Labels.from({ __name__: 'up', replica: 'a' }));
    p.add(2, Labels.from({ __name__: 'up' }));
    const ms = [matcher('!=', 'replica', '')];
    const first = p.select(ms);
    expect([...first]).toEqual([1]);
    // The same list object: answered from the cache, not a fresh union.
    expect(p.select(ms)).toBe(first);
    p.add(3, Labels.from({ __name__: 'up', replica: 'b' }));
    expect([...p.select(ms)]).toEqual([1, 3]);
    expect([...p.select([matcher('=~', 'replica', '.+')])]).toEqual([1, 3]);
  });
});
