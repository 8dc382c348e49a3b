import type { SeriesIterator } from '../../model/index.js';
import type { Queryable, Querier, Series, SeriesSet } from '../index.js';

/**
 * A view of `inner` whose every series hands out `wrap(iterator)` instead of its own iterator,
 * for tests that count or pace reads (labels, warnings and errors pass through unchanged).
 */
export function wrapIterators(inner: Queryable, wrap: (it: SeriesIterator) => SeriesIterator): Queryable {
  return {
    querier(minTMs: number, maxTMs: number): Querier {
      const q = inner.querier(minTMs, maxTMs);
      return {
        select: (matchers, hints): SeriesSet => {
          const set = q.select(matchers, hints);
          return {
            next: () => set.next(),
            err: () => set.err(),
            warnings: () => set.warnings(),
            at: (): Series => {
              const s = set.at();
              return { labels: s.labels, iterator: () => wrap(s.iterator()) };
            },
          };
        },
        labelNames: (m) => q.labelNames(m),
        labelValues: (n, m) => q.labelValues(n, m),
        close: () => q.close(),
      };
    },
  };
}
