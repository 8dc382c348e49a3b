/**
 * Public surface of `src/promql/result-cache`: the range-result cache, a `QueryEngine` decorator
 * (README.md, docs/design/result-cache.md).
 */
export { DEFAULT_RESULT_CACHE_BYTES, ResultCache, type ResultCacheOptions } from './result-cache.js';
export type { ChangeFeed, ChangeFeedChanges, ResultCacheStats } from './types.js';
