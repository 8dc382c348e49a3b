/**
 * Public surface of `src/cost`: the price and benchmark catalogs, the cost evaluator and its
 * series, idle GPUs, the compute- vs memory-bound verdicts and the right-sizing findings.
 */
export type { BenchmarkEntry, BenchmarkPoint, BoundKind, BoundVerdict, CostEvaluator, CostFinding, CostSummary, FindingKind, InstancePrice, PriceCatalog, PriceProvider } from './types.js';
