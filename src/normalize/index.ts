/** Public surface of `src/normalize`: the `Appendable` decorator that maps engine series into the catalog. */
export { NormalizingAppendable, type NormalizeOptions } from './normalizing-appendable.js';
export { buildMappingIndex, isDcgmBlank, planSeries, resolveHint, type MappingIndex, type OutputPlan, type PlanOptions } from './plan.js';
export {
  GATEWAY_JOB_LABEL_VALUE,
  QUALITY_GUARD_ERRORS,
  QUALITY_PREFIX,
  QualityGuardErrorCode,
  QualityGuardStats,
  QualityNamespaceError,
  QualityNamespaceGuard,
  qualityRefusal,
  type QualityGuardOptions,
  type QualityRefusalReason,
} from './quality-guard.js';
