import { CATALOG } from './catalog.js';
import type { MetricType } from './types.js';

/** One entry of Prometheus' `/api/v1/metadata` answer. */
export interface MetricMetadata {
  type: MetricType;
  help: string;
  unit: string;
}

/**
 * The catalog in the shape of Prometheus' `GET /api/v1/metadata` `data`: metric name → list of
 * metadata (always one entry here). A fresh object on every call, so a caller may merge scraped
 * metadata into it.
 */
export function catalogMetadata(): Record<string, MetricMetadata[]> {
  const out: Record<string, MetricMetadata[]> = {};
  for (const m of CATALOG) out[m.name] = [{ type: m.type, help: m.help, unit: m.unit }];
  return out;
}
