/**
 * Score ingest in `infersight serve` (issue 18): `QualityMetrics` over `appendableSink(store)`,
 * restored from the store once it is open, behind `POST /api/v1/quality/scores`; and the quality
 * namespace guard (src/normalize/quality-guard.ts) in front of every other way in: the push
 * receivers (refuse the request), scrapes and the backfill (drop and count), the gateway (every
 * quality series dropped). The fuller quality wiring (sample store, evaluation pipeline, drift)
 * builds on this one (src/server/quality-wiring.ts).
 */
import { Labels, type Clock, type Logger } from '../model/index.js';
import { QualityGuardStats, QualityNamespaceGuard } from '../normalize/index.js';
import { QualityMetrics, createScoreIngest, type QualityMetricsOptions, type ScoreIngest } from '../quality/index.js';
import type { QueryClient } from '../query/index.js';
import type { Appendable } from '../storage/index.js';
import type { MetricFamily } from '../wire/index.js';
import { appendableSink } from './series-sink.js';

/** `ServeOptions.quality`: the recent mean's half-life and the series limit (src/quality/ingest). */
export type QualityIngestOptions = Pick<QualityMetricsOptions, 'halfLifeMs' | 'maxSeries'>;

/** What `wireQualityIngest` hands the server. */
export interface QualityIngestWiring {
  /** The quality path behind the route: null until the store is open and the means restored. */
  ingest(): ScoreIngest | null;
  /** The one writer of the quality series (for the evaluation pipeline): null until then, as `ingest`. */
  metrics(): QualityMetrics | null;
  /**
   * Creates the writer over `store` and restores the means through `client`; a failed restore is
   * logged and the means start empty. Resolves when the route can take batches.
   */
  open(store: Appendable, client: QueryClient): Promise<void>;
  /** `inner` behind the guard: `refuse` for push receivers, `drop` for scrapes and backfills. */
  guard(inner: Appendable, mode: 'refuse' | 'drop'): Appendable;
  /** The gateway's appendable behind the guard: none of its series may be a quality series. */
  guardGateway(inner: Appendable): Appendable;
  /** `infersight_quality_refused_samples_total{reason}` for `/metrics`. */
  families(): MetricFamily[];
}

/** Wires score ingest; `false` leaves the route answering 503 (the guard stays on: the namespace is kept apart regardless). */
export function wireQualityIngest(o: QualityIngestOptions | false | undefined, clock: Clock, logger: Logger): QualityIngestWiring {
  const stats = new QualityGuardStats();
  let metrics: QualityMetrics | null = null;
  let ingest: ScoreIngest | null = null;
  return {
    ingest: () => ingest,
    metrics: () => (ingest === null ? null : metrics),
    open: async (store, client) => {
      if (o === false) return;
      metrics = new QualityMetrics({ ...o, sink: appendableSink(store), clock });
      await metrics.restore(client).then(
        (n) => logger.info('quality means restored', { series: String(n) }),
        (e: unknown) => logger.error('restoring the quality means failed; they start empty', { err: e instanceof Error ? e.message : String(e) }),
      );
      ingest = createScoreIngest(metrics, clock);
    },
    guard: (inner, mode) => new QualityNamespaceGuard(inner, { mode, stats }),
    guardGateway: (inner) => new QualityNamespaceGuard(inner, { mode: 'drop', infrastructureSource: true, stats }),
    families: () => [
      {
        name: 'infersight_quality_refused_samples_total',
        help: 'Samples of llm_quality_* series refused at ingest (docs/design/quality-namespace.md), by reason: source (an engine, GPU or gateway source), label (an infrastructure-only label).',
        type: 'counter',
        samples: (['source', 'label'] as const).map((reason) => ({ labels: Labels.from({ reason }), value: stats.refused[reason] })),
      },
    ],
  };
}
