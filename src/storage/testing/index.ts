/** Conformance suites of the storage contracts, run by every implementation's tests, and the reference in-memory storage. */
export { runAppenderSuite, type AppenderSuiteOptions, type AppenderUnderTest } from './appender-suite.js';
export { querierSuiteData, runQuerierSuite, type QueryableUnderTest, type SuiteSeries } from './querier-suite.js';
export { MemoryStorage, type StoredSample, type StoredSeries } from './memory-storage.js';
export { wrapIterators } from './wrap-iterators.js';
