import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Labels, matcher } from '../../model/index.js';
import { MemPostings, intersect, subtract, unionAll } from './postings.js';

describe('MemPostings', () => {
  it('keeps postings sorted when refs arrive out of order (WAL replay order is commit order)', () => {
    const p = new MemPostings();
    const l = (job: string) => Labels.from({ __name__: 'm', job });
    p.add(2, l('b'));
    p.add(1, l('a'));
    p.add(5, l('a'));
    p.add(3, l('a'));
    expect(p.allRefs()).toEqual([1, 2, 3, 5]);
    expect(p.select([matcher('=', '__name__', 'm'), matcher('=', 'job', 'a')])).toEqual([1, 3, 5]);
    expect(p.select([matcher('=', '__name__', 'm'), matcher('!=', 'job', 'a')])).toEqual([2]);
  });

  it.each([
    [[1, 3, 5, 7], [3, 4, 5], [3, 5]],
    [[1], Array.from({ length: 1000 }, (_, i) => i), [1]],
    [Array.from({ length: 1000 }, (_, i) => 2 * i), [0, 1, 1998, 1999], [0, 1998]],
    [[], [1, 2], []],
  ])('intersect(%j, %j) = %j', (a, b, want) => {
    expect(intersect(a, b)).toEqual(want);
    expect(intersect(b, a)).toEqual(want);
  });

  it('subtracts and unions sorted lists', () => {
    expect(subtract([1, 2, 3, 4], [2, 4, 6])).toEqual([1, 3]);
    expect(unionAll([[1, 4], [2, 4, 9], []])).toEqual([1, 2, 4, 9]);
  });

  it('skips =~".*" matchers: they select nothing away, also for series without the label', () => {
    const p = new MemPostings();
    p.add(1, Labels.from({ __name__: 'm', az: 'a' }));
    p.add(2, Labels.from({ __name__: 'm' }));
    const all = matcher('=~', 'az', '.*');
    expect(all.matchesAll).toBe(true);
    expect(matcher('=~', 'az', '.+').matchesAll).toBe(false);
    expect(p.select([matcher('=', '__name__', 'm'), all])).toEqual([1, 2]);
    expect(p.select([all])).toEqual([1, 2]);
  });

  it('selects the same refs by label check as by postings, for any series and matchers', () => {
    const value = fc.constantFrom('', 'a', 'b', 'c.d', 'ab');
    const series = fc.array(fc.record({ n: fc.constantFrom('up', 'm'), job: value, replica: value, az: value }), { minLength: 1, maxLength: 60 });
    const m = fc.record({ type: fc.constantFrom('=', '!=', '=~', '!~'), name: fc.constantFrom('__name__', 'job', 'replica', 'az', 'none'), value: fc.constantFrom('', 'a', 'up', '.*', '.+', 'a|b', 'c\\.d', 'b.*') });
    fc.assert(
      fc.property(series, fc.array(m, { minLength: 1, maxLength: 4 }), (ss, ms) => {
        const p = new MemPostings();
        const labels = ss.map((x) => Labels.from({ __name__: x.n, job: x.job, replica: x.replica, az: x.az }));
        labels.forEach((l, ref) => p.add(ref, l));
        const matchers = ms.map((x) => matcher(x.type, x.name, x.value));
        const want = labels.flatMap((l, ref) => (matchers.every((mm) => mm.matches(l.get(mm.name))) ? [ref] : []));
        expect([...p.select(matchers)]).toEqual(want);
        expect([...p.select(matchers, (ref) => labels[ref])]).toEqual(want);
      }),
      { numRuns: 400 },
    );
  });
});
