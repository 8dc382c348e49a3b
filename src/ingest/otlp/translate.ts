import { Labels, STALE_NAN, formatGoFloatF } from '../../model/index.js';
import type {
  OtlpHistogramPoint as HistogramDataPoint,
  OtlpKeyValue as KeyValue,
  OtlpMetricView as OtlpMetric,
  OtlpMetricsRequest as ExportMetricsServiceRequest,
  OtlpNumberPoint as NumberDataPoint,
  OtlpSummaryPoint as SummaryDataPoint,
} from '../../wire/index.js';
import { SampleBatch } from '../batch.js';
import { IngestError, IngestErrorCode } from '../errors.js';
import { checkLabelLimits, SeriesEntry, type LabelLimits, type RequestSeries } from '../series.js';
import { pointLabels, targetInfoLabels } from './attributes.js';
import type { DeltaTxn } from './delta.js';
import { metricName, type MetricKind } from './names.js';

/** Settings of the OTLP translation. */
export interface TranslateOptions {
  /** Resource attributes copied onto every series as labels (Prometheus' `promote_resource_attributes`). */
  readonly promoteResourceAttributes: readonly string[];
  /** Whether to write `target_info` for resources with more attributes than job and instance. */
  readonly targetInfo: boolean;
  /** Label limits; a series over them refuses the whole request (`ERR_INGEST_LIMIT_EXCEEDED`). */
  readonly limits?: LabelLimits;
}

/** A translated request: the samples to write and the data points refused (OTLP partial success). */
export interface Translation {
  readonly batch: SampleBatch;
  readonly rejectedPoints: number;
  /** One line per kind of refusal, for the partial-success message. */
  readonly rejectReasons: readonly string[];
}

/** Prometheus' target_info spacing: half the default lookback delta. */
const TARGET_INFO_STEP_MS = 150_000;
const NO_RECORDED_VALUE = 1;
/** OTLP's `AggregationTemporality` values (the view types carry the plain number). */
const DELTA = 1;
const CUMULATIVE = 2;
/** At most this many target_info samples per resource and request (older ones are left out). */
const TARGET_INFO_MAX_STEPS = 100;

function nsToMs(ns: bigint): number {
  return Number(ns / 1_000_000n);
}

/** Translates an `ExportMetricsServiceRequest` into samples, following Prometheus' OTLP rules. */
export function translateOtlp(req: ExportMetricsServiceRequest, opts: TranslateOptions, cache: RequestSeries, delta: DeltaTxn): Translation {
  return new Translator(opts, cache, delta).run(req);
}

class Translator {
  private readonly batch = new SampleBatch();
  private rejected = 0;
  private readonly reasons = new Set<string>();
  private resourceAttrs: readonly KeyValue[] = [];
  private minMs = Infinity;
  private maxMs = -Infinity;

  constructor(
    private readonly opts: TranslateOptions,
    private readonly cache: RequestSeries,
    private readonly delta: DeltaTxn,
  ) {}

  run(req: ExportMetricsServiceRequest): Translation {
    for (const rm of req.resourceMetrics) {
      this.resourceAttrs = rm.resource?.attributes ?? [];
      this.minMs = Infinity;
      this.maxMs = -Infinity;
      for (const sm of rm.scopeMetrics) for (const m of sm.metrics) this.metric(m);
      if (this.opts.targetInfo && this.maxMs >= this.minMs) this.targetInfo();
    }
    return { batch: this.batch, rejectedPoints: this.rejected, rejectReasons: [...this.reasons] };
  }

  private reject(points: number, reason: string): void {
    this.rejected += points;
    this.reasons.add(reason);
  }

  private metric(m: OtlpMetric): void {
    const d = m.data;
    if (d.case === undefined) return;
    if (d.case === 'exponentialHistogram') {
      this.reject(d.value.dataPoints.length, `exponential histograms are not supported yet (metric ${JSON.stringify(m.name)}); configure explicit-bucket histograms in the SDK`);
      return;
    }
    const points = d.value.dataPoints.length;
    const temporality = d.case === 'sum' || d.case === 'histogram' ? d.value.aggregationTemporality : CUMULATIVE;
    if (temporality !== CUMULATIVE && temporality !== DELTA) {
      this.reject(points, `metric ${JSON.stringify(m.name)} has no aggregation temporality`);
      return;
    }
    const kind: MetricKind = d.case === 'sum' ? (d.value.isMonotonic ? 'counter' : 'updowncounter') : d.case;
    const name = metricName(m.name, m.unit, kind);
    if (name === null) {
      this.reject(points, `metric name ${JSON.stringify(m.name)} has no valid characters`);
      return;
    }
    const isDelta = temporality === DELTA;
    if (d.case === 'gauge' || d.case === 'sum') for (const p of d.value.dataPoints) this.point(() => this.number(name, p, isDelta));
    else if (d.case === 'histogram') for (const p of d.value.dataPoints) this.point(() => this.histogram(name, p, isDelta));
    else for (const p of d.value.dataPoints) this.point(() => this.summary(name, p));
  }

  /**
   * Translates one data point; one whose attributes cannot become labels is refused alone. A
   * series over a label limit refuses the whole request: that is a sender to stop, not a point.
   */
  private point(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      if (!(e instanceof IngestError) || e.code === IngestErrorCode.LIMIT_EXCEEDED) throw e;
      this.reject(1, e.message);
    }
  }

  private time(ns: bigint): number {
    const ms = nsToMs(ns);
    if (ms < this.minMs) this.minMs = ms;
    if (ms > this.maxMs) this.maxMs = ms;
    return ms;
  }

  /** Adds one sample of series `base` + `__name__` (+ one extra label). Returns the series key. */
  private emit(base: Map<string, string>, name: string, tMs: number, value: number, extraName?: string, extraValue?: string): string {
    const flat: string[] = [];
    for (const [k, v] of base) flat.push(k, v);
    flat.push('__name__', name);
    if (extraName !== undefined && extraValue !== undefined) flat.push(extraName, extraValue);
    // Length-prefixed, so that no two different label lists share a key.
    let key = '';
    for (const x of flat) key += `${x.length}:${x}`;
    let entry = this.cache.get(key);
    if (entry === undefined) {
      if (this.opts.limits !== undefined) checkLabelLimits(flat, this.opts.limits);
      entry = new SeriesEntry(Labels.fromPairs(flat));
      this.cache.add(key, entry);
    }
    this.batch.add(entry, tMs, value);
    return key;
  }

  private labels(attrs: readonly KeyValue[]): Map<string, string> {
    return pointLabels(this.resourceAttrs, attrs, this.opts.promoteResourceAttributes);
  }

  private number(name: string, p: NumberDataPoint, isDelta: boolean): void {
    const t = this.time(p.timeUnixNano);
    const base = this.labels(p.attributes);
    let v = p.value.case === 'asDouble' ? p.value.value : p.value.case === 'asInt' ? Number(p.value.value) : 0;
    const stale = (p.flags & NO_RECORDED_VALUE) !== 0;
    if (isDelta) {
      const key = `${name}\u0000${[...base].join('\u0000')}`;
      if (stale) this.delta.reset(key);
      else {
        const total = this.delta.addSum(key, p.timeUnixNano, v);
        if (total === null) return;
        v = total;
      }
    }
    this.emit(base, name, t, stale ? STALE_NAN : v);
  }

  private histogram(name: string, p: HistogramDataPoint, isDelta: boolean): void {
    const t = this.time(p.timeUnixNano);
    const base = this.labels(p.attributes);
    const stale = (p.flags & NO_RECORDED_VALUE) !== 0;
    const n = Math.min(p.explicitBounds.length, p.bucketCounts.length);
    let counts = p.bucketCounts.slice(0, n).map(Number);
    let count = Number(p.count);
    let sum = p.sum ?? 0;
    if (isDelta) {
      const key = `${name}\u0000${[...base].join('\u0000')}`;
      if (stale) this.delta.reset(key);
      else {
        const cum = this.delta.addHistogram(key, p.timeUnixNano, p.explicitBounds.slice(0, n), counts, count, sum);
        if (cum === null) return;
        counts = [...cum.buckets];
        count = cum.count;
        sum = cum.sum;
      }
    }
    const val = (x: number): number => (stale ? STALE_NAN : x);
    if (p.sum !== undefined) this.emit(base, `${name}_sum`, t, val(sum));
    this.emit(base, `${name}_count`, t, val(count));
    let cumulative = 0;
    for (let i = 0; i < n; i++) {
      cumulative += counts[i];
      this.emit(base, `${name}_bucket`, t, val(cumulative), 'le', formatGoFloatF(p.explicitBounds[i]));
    }
    this.emit(base, `${name}_bucket`, t, val(count), 'le', '+Inf');
  }

  private summary(name: string, p: SummaryDataPoint): void {
    const t = this.time(p.timeUnixNano);
    const base = this.labels(p.attributes);
    const stale = (p.flags & NO_RECORDED_VALUE) !== 0;
    const val = (x: number): number => (stale ? STALE_NAN : x);
    this.emit(base, `${name}_sum`, t, val(p.sum));
    this.emit(base, `${name}_count`, t, val(Number(p.count)));
    for (const q of p.quantileValues) this.emit(base, name, t, val(q.value), 'quantile', formatGoFloatF(q.quantile));
  }

  private targetInfo(): void {
    let labels: Map<string, string> | null;
    try {
      labels = targetInfoLabels(this.resourceAttrs);
    } catch (e) {
      if (!(e instanceof IngestError)) throw e;
      this.reasons.add(e.message);
      return;
    }
    if (labels === null) return;
    // Prometheus' loop, capped: a request spanning years must not emit millions of samples.
    let t = Math.max(this.minMs, this.maxMs - TARGET_INFO_MAX_STEPS * TARGET_INFO_STEP_MS);
    let last = -Infinity;
    for (; t < this.maxMs; t += TARGET_INFO_STEP_MS) this.emit(labels, 'target_info', (last = t), 1);
    if (last < this.maxMs) this.emit(labels, 'target_info', this.maxMs, 1);
  }
}
