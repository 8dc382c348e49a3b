/**
 * Public surface of `src/cost`: the price and benchmark catalogs, the cost evaluator and its
 * series, idle GPUs, the compute- vs memory-bound verdicts and the right-sizing findings.
 */
export type { BenchmarkEntry, BenchmarkPoint, BoundKind, BoundVerdict, CostEvaluator, CostFinding, CostSummary, FindingKind, InstancePrice, PriceCatalog, PriceProvider } from './types.js';
export { DEFAULT_PRICE_CATALOG_YAML } from './data/prices.js';
export { DEFAULT_BENCHMARK_CATALOG_YAML } from './data/benchmarks.js';
export { defaultPriceCatalog, gpuPricePerHour, parsePriceCatalog } from './price-catalog.js';
export { benchmarkCatalog, defaultBenchmarkCatalog, expectedOutputTps, parseBenchmarkCatalog, peakOutputTps, type BenchmarkCatalog } from './benchmark-catalog.js';
export { createCostEvaluator, type CostEvaluatorOptions } from './evaluator.js';
export { boundOf, GPU_PEAKS } from './bound.js';
export { latencyCapacity } from './capacity.js';
