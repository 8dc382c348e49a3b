export { Annotations } from './annotations.js';
export { PROMQL_ERRORS, PromqlErrorCode, QueryError, type QueryErrorType } from './errors.js';
export { Engine, type EngineOptions, type QueryEngine, type QueryOptions, type QueryResult, type QueryStats } from './engine/index.js';
export {
  EngineQueryClient,
  MAX_POINTS_PER_SERIES,
  NESTED_TOO_DEEPLY,
  isStackOverflow,
  rangeSeriesColumns,
  type EngineQueryClientOptions,
} from './engine-query-client.js';
export {
  ParseError,
  exprToString,
  parseExpr,
  parseMetric,
  parseMetricSelector,
  prettify,
  walkExpr,
  type Expr,
  type ParserOptions,
} from './parser/index.js';
export type { Matrix, Sample, Series, Value, Vector } from './value.js';
export {
  DEFAULT_RESULT_CACHE_BYTES,
  ResultCache,
  type ChangeFeed,
  type ChangeFeedChanges,
  type ResultCacheOptions,
  type ResultCacheStats,
} from './result-cache/index.js';
