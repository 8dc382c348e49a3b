/** Public surface of `src/normalize`: the `Appendable` decorator that maps engine series into the catalog. */
export { NormalizingAppendable, type NormalizeOptions } from './normalizing-appendable.js';
export { buildMappingIndex, isDcgmBlank, planSeries, resolveHint, type MappingIndex, type OutputPlan, type PlanOptions } from './plan.js';
