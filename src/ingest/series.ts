import { Labels, METRIC_NAME_LABEL } from '../model/index.js';
import type { SeriesRef } from '../storage/index.js';
import { IngestError, IngestErrorCode } from './errors.js';

/**
 * What a receiver remembers about one series it wrote: the labels, the storage's ref (a hint,
 * see `Appender.append`), and bookkeeping for the cardinality limit and for batching.
 */
export class SeriesEntry {
  /** The storage's ref from the last append; 0 until then. */
  ref: SeriesRef = 0;
  /** When the cardinality tracker last saw this series (ms; -Infinity: never). */
  touchedMs = -Infinity;
  /** The id of the last batch that counted this series. */
  batchMark = 0;
  /** `labels.hash()`, computed once. */
  readonly hash: number;

  constructor(readonly labels: Labels) {
    this.hash = labels.hash();
  }

  /** The metric name (`__name__`). */
  get metricName(): string {
    return this.labels.metricName;
  }
}

/**
 * A bounded map from a receiver-chosen key (the encoded labels of a remote write series, the
 * label key of a translated OTLP series) to its `SeriesEntry`. When it holds `maxEntries`, it is
 * emptied and refills: simple, and a full refill costs one label decode per series.
 */
export class SeriesCache {
  private readonly map = new Map<string, SeriesEntry>();

  constructor(private readonly maxEntries = 1_000_000) {}

  /** The entry for `key`, if cached. */
  get(key: string): SeriesEntry | undefined {
    return this.map.get(key);
  }

  /** Caches `entry` under `key`. */
  set(key: string, entry: SeriesEntry): void {
    if (this.map.size >= this.maxEntries) this.map.clear();
    this.map.set(key, entry);
  }

  /** The number of cached entries. */
  get size(): number {
    return this.map.size;
  }
}

function quote(s: string): string {
  return JSON.stringify(s);
}

/**
 * Builds `Labels` from a flat `[name, value, ...]` list as a sender sent it, refusing what
 * Prometheus would not store: no `__name__` (or an empty one), an empty label name, a name that
 * appears twice. Names are otherwise taken as UTF-8, as Prometheus 3 does. Labels with an empty
 * value are dropped (Prometheus' rule). Throws `IngestError` `ERR_INGEST_INVALID_SERIES`.
 */
export function labelsFromPairs(flat: readonly string[]): Labels {
  let sorted = true;
  for (let i = 0; i < flat.length; i += 2) {
    if (flat[i] === '') throw invalid(flat, 'a label has an empty name');
    if (i > 0 && flat[i] <= flat[i - 2]) sorted = false;
  }
  if (!sorted) {
    const names: string[] = [];
    for (let i = 0; i < flat.length; i += 2) names.push(flat[i]);
    names.sort();
    for (let i = 1; i < names.length; i++) if (names[i] === names[i - 1]) throw invalid(flat, `label ${quote(names[i])} appears twice`);
  }
  const labels = Labels.fromPairs(flat);
  if (labels.metricName === '') throw invalid(flat, `no metric name (label ${METRIC_NAME_LABEL})`);
  return labels;
}

function invalid(flat: readonly string[], why: string): IngestError {
  const shown: string[] = [];
  for (let i = 0; i < flat.length && shown.length < 20; i += 2) shown.push(`${flat[i]}=${quote(flat[i + 1])}`);
  return new IngestError(IngestErrorCode.INVALID_SERIES, `invalid series {${shown.join(', ')}}: ${why}`);
}
