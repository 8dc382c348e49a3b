import { CATALOG } from './catalog.js';
import { SOURCES } from './sources.js';
import type { ConversionId, MetricDef, SourceId, SourceMetric } from './types.js';

/**
 * Which series of a family a mapping row covers: the plain value (counter, gauge), or one of the
 * histogram series. `bucket` rows rescale the `le` label, `sum` rows the value, `count` rows nothing.
 */
export type FamilyMember = 'value' | 'bucket' | 'sum' | 'count';

/** One row of an engine's mapping table: an exposed series name and where it goes. */
export interface MappingRow {
  readonly source: SourceId;
  /** The series name as the engine exposes it (suffix included: `_total`, `_bucket`, ...). */
  readonly from: string;
  /** The unified series name (suffix included). */
  readonly to: string;
  readonly member: FamilyMember;
  readonly convert: ConversionId;
  /** The catalog metric and the source row it came from. */
  readonly metric: MetricDef;
  readonly sourceMetric: SourceMetric;
  /** True when the name alone does not identify the engine (see `SourceMetric.needsHint`). */
  readonly needsHint: boolean;
}

const MEMBER_SUFFIX: Readonly<Record<FamilyMember, string>> = { value: '', bucket: '_bucket', sum: '_sum', count: '_count' };

/**
 * The family names a source metric is exposed under. Most sources: the TSV name. OpenTelemetry
 * metrics arrive either with their dotted names (UTF-8 names over OTLP) or as Prometheus'
 * OTLP translation writes them: dots to underscores, plus the unit suffix (`_seconds`).
 */
export function exposedFamilies(src: SourceMetric, metric: MetricDef): string[] {
  if (src.source !== 'otel') return [src.metric];
  const underscored = src.metric.replaceAll('.', '_');
  const names = [src.metric, underscored];
  if (metric.unit === 'seconds') names.push(`${underscored}_seconds`);
  return names;
}

/** The series a source metric's family consists of, with the member each one is. */
export function exposedSeries(src: SourceMetric, metric: MetricDef): { from: string; to: string; member: FamilyMember }[] {
  const out: { from: string; to: string; member: FamilyMember }[] = [];
  const members: FamilyMember[] =
    src.type === 'histogram' ? ['bucket', 'sum', 'count'] : src.type === 'summary' ? ['sum', 'count'] : ['value'];
  for (const family of exposedFamilies(src, metric)) {
    for (const member of members) {
      const to = metric.name + MEMBER_SUFFIX[member];
      out.push({ from: family + MEMBER_SUFFIX[member], to, member });
      // prometheus_client and the Java client expose a counter `x` as `x_total`; others (TGI's
      // Rust exporter) do not. Accept both spellings.
      if (src.type === 'counter' && !family.endsWith('_total')) out.push({ from: `${family}_total`, to, member });
    }
  }
  return out;
}

/** Every mapping row of the catalog, in catalog order. */
export const MAPPING_ROWS: readonly MappingRow[] = CATALOG.flatMap((metric) =>
  metric.sources.flatMap((src) =>
    exposedSeries(src, metric).map(
      (s): MappingRow => ({
        source: src.source,
        from: s.from,
        to: s.to,
        member: s.member,
        convert: src.convert ?? 'none',
        metric,
        sourceMetric: src,
        needsHint: src.needsHint === true || SOURCES[src.source].needsHint,
      }),
    ),
  ),
);

/** The mapping table of one engine: its exposed series names and their unified names. */
export function mappingTable(source: SourceId): MappingRow[] {
  return MAPPING_ROWS.filter((row) => row.source === source);
}

/** One engine-native name that was renamed or removed, with its successor. */
export interface EngineRename {
  readonly source: SourceId;
  readonly from: string;
  /** The engine's current name, or 'removed'. */
  readonly replacedBy: string;
  /** The catalog metric both names map to. */
  readonly unified: string;
  readonly note: string;
}

/** Renamed and removed engine metrics (vLLM's `gpu_cache_usage_perc` → `kv_cache_usage_perc`, ...). */
export function engineRenames(source?: SourceId): EngineRename[] {
  return CATALOG.flatMap((metric) =>
    metric.sources
      .filter((s) => s.replacedBy !== undefined && (source === undefined || s.source === source))
      .map((s) => ({ source: s.source, from: s.metric, replacedBy: s.replacedBy ?? '', unified: metric.name, note: s.note ?? '' })),
  );
}
