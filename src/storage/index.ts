/** Public surface of `src/storage`: the write and read contracts and their helpers. */
export type { Appendable, Appender, SeriesRef } from './appender.js';
export type { Queryable, Querier, SelectHints, Series, SeriesSet } from './querier.js';
export { STORAGE_ERRORS, StorageError, StorageErrorCode, isStorageError } from './errors.js';
export {
  ArraySeriesSet,
  MergedSeriesIterator,
  MergedSeriesSet,
  collectSeries,
  emptySeriesSet,
  mergeSeriesSets,
  seriesFromSamples,
} from './series-set.js';
export { RemoteWriteAppendable, type RemoteWriteAppendableOptions } from './remote-write-appendable.js';
