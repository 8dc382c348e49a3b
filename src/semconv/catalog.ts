import { COLD_START_METRICS } from './catalog-cold-start.js';
import { DIAGNOSIS_METRICS } from './catalog-diagnosis.js';
import { FLEET_METRICS, FRONTDOOR_METRICS } from './catalog-frontdoor.js';
import { GPU_ERROR_METRICS } from './catalog-gpu-errors.js';
import { GPU_METRICS } from './catalog-gpu.js';
import { KV_CACHE_METRICS } from './catalog-kv-cache.js';
import { KV_OFFLOAD_METRICS } from './catalog-kv-offload.js';
import { LATENCY_METRICS, PHASE_METRICS } from './catalog-latency.js';
import { OUTCOME_METRICS, SPEC_DECODE_METRICS } from './catalog-outcomes.js';
import { PRESSURE_METRICS } from './catalog-pressure.js';
import { COST_METRICS } from './catalog-cost.js';
import { QUALITY_METRICS } from './catalog-quality.js';
import { TOKEN_METRICS } from './catalog-tokens.js';
import type { Area, MetricDef } from './types.js';

/** The catalog's data by section; the one source of truth for everything below. */
const BY_AREA = {
  latency: LATENCY_METRICS,
  phases: PHASE_METRICS,
  pressure: PRESSURE_METRICS,
  kv_cache: [...KV_CACHE_METRICS, ...KV_OFFLOAD_METRICS],
  tokens: TOKEN_METRICS,
  outcomes: OUTCOME_METRICS,
  spec_decode: SPEC_DECODE_METRICS,
  cold_start: COLD_START_METRICS,
  gpu: [...GPU_METRICS, ...GPU_ERROR_METRICS],
  frontdoor: FRONTDOOR_METRICS,
  fleet: FLEET_METRICS,
  quality: QUALITY_METRICS,
  cost: COST_METRICS,
  diagnosis: DIAGNOSIS_METRICS,
} as const satisfies Record<Area, readonly unknown[]>;

type Specs = (typeof BY_AREA)[Area][number];

/** The name of a catalog metric, as a string literal type. */
export type MetricName = Specs['name'];

/** Section titles for docs and the UI. */
export const AREA_TITLES: Readonly<Record<Area, string>> = {
  latency: 'Token-level latency',
  phases: 'Request phases',
  pressure: 'Request pressure',
  kv_cache: 'KV cache and engine memory',
  tokens: 'Tokens',
  outcomes: 'Request outcomes',
  spec_decode: 'Speculative decoding',
  cold_start: 'Cold start',
  gpu: 'GPU',
  frontdoor: 'Front door',
  fleet: 'Fleet',
  quality: 'Quality',
  cost: 'Cost',
  diagnosis: 'Diagnosis',
};

/** Every catalog metric, grouped by section in `AREAS` order. */
export const CATALOG: readonly MetricDef[] = (Object.keys(BY_AREA) as Area[]).flatMap((area) =>
  (BY_AREA[area] as readonly Omit<MetricDef, 'area'>[]).map((spec): MetricDef => ({ ...spec, area })),
);

const byName = new Map<string, MetricDef>(CATALOG.map((m) => [m.name, m]));

/** The catalog entry named `name`, or undefined. */
export function catalogMetric(name: string): MetricDef | undefined {
  return byName.get(name);
}

/** `METRIC.LLM_TIME_TO_FIRST_TOKEN_SECONDS === 'llm_time_to_first_token_seconds'`: one constant per metric. */
export const METRIC = Object.fromEntries(CATALOG.map((m) => [m.name.toUpperCase(), m.name])) as {
  readonly [S in Specs as Uppercase<S['name']>]: S['name'];
};

/**
 * The identity labels the scraper or receiver attaches from target metadata (docs/goals.md, docs/metrics.md); every
 * catalog metric may carry them, so `labels` of an entry lists only what is particular to it.
 */
export const IDENTITY_LABELS = [
  'endpoint',
  'component',
  'model',
  'replica',
  'instance',
  'instance_type',
  'az',
  'engine',
  'gpu',
  'job',
] as const;
