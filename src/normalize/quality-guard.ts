/**
 * The quality namespace's door (docs/design/quality-namespace.md): an `Appendable` decorator that
 * keeps `llm_quality_*` series apart from infrastructure ones on every ingest path. A series named
 * `llm_quality_*` is refused when
 *
 * - `source`: it comes from an infrastructure source: its `job` names an engine or the DCGM
 *   exporter (the normalizer's engine hints, `resolveHint`: `vllm`, `dcgm-exporter`, `djl-lmi`, …;
 *   OpenTelemetry is not one, it is a transport) or the gateway (`job="gateway"`), or the
 *   appendable belongs to such a source as a whole (`infrastructureSource`, the gateway's);
 * - `label`: it carries an infrastructure-only label (`QUALITY_INFRASTRUCTURE_LABELS` of the
 *   catalog: replica, GPU, zone, engine, DCGM and Kubernetes placement labels).
 *
 * Push paths (`mode: 'refuse'`) get a `QualityNamespaceError` from `append` (400), so remote
 * write and OTLP refuse the whole request and store nothing of it; scrapes and the gateway
 * (`mode: 'drop'`) lose only that sample, and every refusal is counted by reason
 * (`infersight_quality_refused_samples_total{reason}` on `/metrics`). The simulator's quality
 * exporter (`job="sim-quality"`, labels endpoint, component, model, dimension, token_type, le and
 * the target's `instance`) passes.
 */
import { codesOf, specsByCode, type ErrorRegistry, type ErrorSpec, type Labels, type UnixMs } from '../model/index.js';
import { QUALITY_INFRASTRUCTURE_LABELS } from '../semconv/index.js';
import type { Appendable, Appender, SeriesRef } from '../storage/index.js';
import { resolveHint } from './plan.js';

/** The registry of the guard's error code (docs/errors.md is generated from it). */
export const QUALITY_GUARD_ERRORS = {
  NAMESPACE: {
    code: 'ERR_QUALITY_NAMESPACE',
    meaning:
      'A pushed `llm_quality_*` series from an engine, GPU or gateway source, or with an infrastructure-only label (`gpu`, `replica`, `az`, …): remote write and OTLP refuse the whole request; a scrape drops the sample and counts it.',
    status: 400,
    errorType: 'bad_data',
  },
} as const satisfies ErrorRegistry;

/** The codes of `QUALITY_GUARD_ERRORS` by key. */
export const QualityGuardErrorCode = codesOf(QUALITY_GUARD_ERRORS);

const BY_CODE = specsByCode(QUALITY_GUARD_ERRORS);

/** Why a quality series was refused. */
export type QualityRefusalReason = 'source' | 'label';

/** A quality series refused on a push path; carries its registry entry (status 400). */
export class QualityNamespaceError extends Error {
  readonly code = QualityGuardErrorCode.NAMESPACE;
  constructor(
    readonly reason: QualityRefusalReason,
    message: string,
  ) {
    super(message);
    this.name = 'QualityNamespaceError';
  }

  /** The registry entry of `code`. */
  get spec(): ErrorSpec {
    return BY_CODE.get(this.code) as ErrorSpec;
  }
}

/** The refusals counted by reason; one instance may be shared by several guards (one server's). */
export class QualityGuardStats {
  readonly refused: Record<QualityRefusalReason, number> = { source: 0, label: 0 };
}

/** Options of `QualityNamespaceGuard`. */
export interface QualityGuardOptions {
  /** `refuse`: `append` throws (push receivers); `drop`: the sample is skipped (scrapes, the gateway). */
  readonly mode: 'refuse' | 'drop';
  /** Every series written here comes from an infrastructure source (the gateway's appendable): every quality series is refused. */
  readonly infrastructureSource?: boolean;
  /** Where refusals are counted; a new one when absent. */
  readonly stats?: QualityGuardStats;
}

/** The name prefix of the quality namespace. */
export const QUALITY_PREFIX = 'llm_quality_';
/** The gateway's `job` (src/gateway's GATEWAY_JOB, which normalize may not import; a server test keeps them equal). */
export const GATEWAY_JOB_LABEL_VALUE = 'gateway';

const INFRA_LABELS: ReadonlySet<string> = new Set(QUALITY_INFRASTRUCTURE_LABELS);
const HINT = { keepRaw: false, engine: undefined, hintLabels: ['job'] } as const;

/**
 * Why `labels` may not be written as a quality series, or null when they may (or the series is
 * not a quality series). `infrastructureSource`: the writer is an infrastructure source.
 */
export function qualityRefusal(labels: Labels, infrastructureSource = false): { reason: QualityRefusalReason; message: string } | null {
  const name = labels.metricName;
  if (!name.startsWith(QUALITY_PREFIX)) return null;
  if (infrastructureSource) return { reason: 'source', message: `${name}: the quality namespace is written by the quality path, not by the gateway` };
  const job = labels.get('job');
  const engine = resolveHint(labels, HINT);
  if ((engine !== undefined && engine !== 'otel') || job === GATEWAY_JOB_LABEL_VALUE) {
    return { reason: 'source', message: `${name}: job ${JSON.stringify(job)} is an engine, GPU or gateway source, which may not write the quality namespace` };
  }
  for (let i = 0; i < labels.size; i++) {
    const l = labels.nameAt(i);
    if (INFRA_LABELS.has(l)) return { reason: 'label', message: `${name}: label ${JSON.stringify(l)} is infrastructure-only; a quality series is per model and deployment (docs/quality.md)` };
  }
  return null;
}

/** The guard; see the module comment. Non-quality series pass straight through at the cost of one prefix check. */
export class QualityNamespaceGuard implements Appendable {
  readonly stats: QualityGuardStats;

  constructor(
    private readonly inner: Appendable,
    private readonly options: QualityGuardOptions,
  ) {
    this.stats = options.stats ?? new QualityGuardStats();
  }

  appender(): Appender {
    const app = this.inner.appender();
    const { mode, infrastructureSource = false } = this.options;
    const stats = this.stats;
    return {
      append(ref: SeriesRef, labels: Labels, tMs: UnixMs, value: number): SeriesRef {
        const refusal = qualityRefusal(labels, infrastructureSource);
        if (refusal === null) return app.append(ref, labels, tMs, value);
        stats.refused[refusal.reason]++;
        if (mode === 'refuse') throw new QualityNamespaceError(refusal.reason, refusal.message);
        return 0;
      },
      commit: () => app.commit(),
      rollback: () => app.rollback(),
    };
  }
}
