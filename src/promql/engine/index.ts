export { Engine, type EngineOptions } from './engine.js';
export { AT_MODIFIER_UNSAFE_FUNCTIONS, preprocessExpr, type QueryFrame } from './preprocess.js';
export type { QueryEngine, QueryOptions, QueryResult, QueryStats } from './types.js';
