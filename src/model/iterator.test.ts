import { ArraySeriesIterator, EMPTY_ITERATOR } from './iterator.js';
import { runBatchIteratorSuite } from './testing/batch-suite.js';

runBatchIteratorSuite('ArraySeriesIterator', (s) => () => new ArraySeriesIterator(s.tsMs, s.values));

// No nextBatch of its own: readBatch's fallback through next/at is what the suite checks here.
runBatchIteratorSuite('readBatch fallback (an iterator without nextBatch)', (s) => () => {
  const inner = new ArraySeriesIterator(s.tsMs, s.values);
  return { next: () => inner.next(), seek: (t) => inner.seek(t), at: () => inner.at(), err: () => inner.err(), nextBatch: undefined };
}, { native: false });

runBatchIteratorSuite('EMPTY_ITERATOR', () => () => ({ ...EMPTY_ITERATOR }), { cases: 5, native: false });
