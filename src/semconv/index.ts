/**
 * Public surface of `src/semconv`: the unified LLM inference metric catalog (typed data), the
 * per-engine mapping tables derived from it, and the generators of docs and API metadata.
 * Browser-safe: imports nothing but model types.
 */
export type {
  Area,
  ConversionId,
  MetricDef,
  MetricSpec,
  MetricType,
  Producer,
  SourceId,
  SourceMetric,
  SourceType,
  Stability,
  Unit,
} from './types.js';
export { AREAS } from './types.js';
export { AREA_TITLES, CATALOG, IDENTITY_LABELS, METRIC, catalogMetric, type MetricName } from './catalog.js';
export { QUALITY_EVALUATION_DURATION_BUCKETS, QUALITY_INFRASTRUCTURE_LABELS } from './catalog-quality.js';
export { CONVERSIONS, SOURCES, SOURCE_IDS, type Conversion, type LabelRename, type SourceInfo } from './sources.js';
export {
  MAPPING_ROWS,
  engineRenames,
  exposedFamilies,
  exposedSeries,
  mappingTable,
  type EngineRename,
  type FamilyMember,
  type MappingRow,
} from './mapping.js';
export { DROPPED_METRICS, droppedSeries, type DroppedMetric, type DroppedSeries } from './dropped.js';
export { catalogMetadata, type MetricMetadata } from './metadata.js';
export { renderMetricsDoc } from './render-doc.js';
