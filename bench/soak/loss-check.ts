/**
 * Whether every acknowledged sample of the soak is stored: the sender counts, per series it sent,
 * the samples of the requests that were answered 2xx (`AckCounter`); `lostSamples` maps each
 * series through the normalizer's rules (`planSeries`, as `infersight serve` does with
 * normalization on, so `vllm:time_to_first_token_seconds_bucket` is looked for under its catalog
 * name), then asks the server for `count_over_time` of every stored metric name over the whole
 * run and compares per stored series. Series the catalog drops on purpose have no stored
 * counterpart and are not counted (`samplesDropped`).
 */
import { Labels } from '../../src/model/index.js';
import { buildMappingIndex, planSeries } from '../../src/normalize/index.js';
import type { LoadFile } from '../ingest/rw-load-file.js';

/**
 * Acknowledged samples by series index. The loads of one soak are prefixes of one fleet (series
 * `j` has the same labels in every load), so one array counts them all.
 */
export class AckCounter {
  private acked = new Int32Array(0);
  private labels: readonly Labels[] = [];

  /** The `onAnswer` callback of `sendLoad` for `load`. */
  listener(load: LoadFile): (b: number, ok: boolean) => void {
    if (load.seriesCount > this.acked.length) {
      const bigger = new Int32Array(load.seriesCount);
      bigger.set(this.acked);
      this.acked = bigger;
      this.labels = load.seriesLabels;
    }
    return (b, ok) => {
      if (!ok) return;
      const from = (b % load.batchesPerSecond) * load.batchSeries;
      const to = Math.min(from + load.batchSeries, load.seriesCount);
      for (let j = from; j < to; j++) this.acked[j]++;
    };
  }

  /** Acknowledged samples per series, with their labels. */
  *series(): Generator<[Labels, number]> {
    for (let j = 0; j < this.acked.length; j++) if (this.acked[j] > 0) yield [this.labels[j], this.acked[j]];
  }
}

/** The outcome of the check. */
export interface LossReport {
  readonly samplesAcked: number;
  /** Acknowledged samples of series the catalog drops on purpose (nothing stored for them). */
  readonly samplesDropped: number;
  /** Stored samples expected, after normalization. */
  readonly samplesExpected: number;
  readonly samplesLost: number;
  /** Stored samples beyond those expected (a request answered with an error after its commit). */
  readonly samplesExtra: number;
  readonly seriesChecked: number;
  readonly seriesMissing: number;
  readonly checkMs: number;
}

/** Compares `acks` with the server at `base`, counting samples in the `rangeS` seconds before `atS`. */
export async function lostSamples(base: string, acks: AckCounter, atS: number, rangeS: number): Promise<LossReport> {
  const t0 = performance.now();
  const index = buildMappingIndex();
  const options = { keepRaw: false, engine: undefined, hintLabels: ['engine', 'job'] };
  // Expected stored samples by metric name, then by the stored series' labels without the name.
  const expected = new Map<string, Map<string, number>>();
  let samplesAcked = 0;
  let samplesDropped = 0;
  for (const [labels, n] of acks.series()) {
    samplesAcked += n;
    const plans = planSeries(labels, index, options);
    if (plans.length === 0) samplesDropped += n;
    for (const p of plans) {
      let byKey = expected.get(p.labels.metricName);
      if (byKey === undefined) expected.set(p.labels.metricName, (byKey = new Map<string, number>()));
      const key = p.labels.without('__name__').key();
      byKey.set(key, (byKey.get(key) ?? 0) + n);
    }
  }
  let samplesExpected = 0;
  let samplesLost = 0;
  let samplesExtra = 0;
  let seriesChecked = 0;
  let seriesMissing = 0;
  for (const [name, byKey] of expected) {
    const query = `count_over_time({__name__="${name}"}[${Math.ceil(rangeS)}s])`;
    const res = await fetch(`${base}/api/v1/query`, { method: 'POST', body: new URLSearchParams({ query, time: String(atS) }) });
    const body = (await res.json()) as { status: string; error?: string; data?: { result: { metric: Record<string, string>; value: [number, string] }[] } };
    if (body.status !== 'success' || body.data === undefined) throw new Error(`${query}: ${res.status} ${body.error ?? ''}`);
    const stored = new Map<string, number>();
    for (const s of body.data.result) stored.set(Labels.from(s.metric).key(), Number(s.value[1]));
    for (const [key, want] of byKey) {
      const got = stored.get(key) ?? 0;
      seriesChecked++;
      if (got === 0) seriesMissing++;
      samplesExpected += want;
      samplesLost += Math.max(0, want - got);
      samplesExtra += Math.max(0, got - want);
    }
  }
  return { samplesAcked, samplesDropped, samplesExpected, samplesLost, samplesExtra, seriesChecked, seriesMissing, checkMs: Math.round(performance.now() - t0) };
}
