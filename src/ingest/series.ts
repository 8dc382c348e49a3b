import { Labels, METRIC_NAME_LABEL } from '../model/index.js';
import type { SeriesRef } from '../storage/index.js';
import { IngestError, IngestErrorCode } from './errors.js';
import type { IngestLimits } from './limits.js';

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
  /** What the entry costs a cache, by `SeriesCache`'s estimate (set when cached). */
  cacheBytes = 0;

  constructor(readonly labels: Labels) {
    this.hash = labels.hash();
  }

  /** The metric name (`__name__`). */
  get metricName(): string {
    return this.labels.metricName;
  }
}

/** A cache entry's fixed cost beyond its strings (the entry, its Labels, Map slots), measured on the fleet data set. */
const ENTRY_OVERHEAD_BYTES = 330;
/** What each string costs beyond its characters (V8's string header and the array slot). */
const STRING_OVERHEAD_BYTES = 24;

/**
 * The estimated memory of caching `labels` under `key`: one byte per character (V8 keeps Latin-1
 * strings at one byte per character; others take two, which this undercounts) plus fixed costs.
 */
export function seriesEntryBytes(key: string, labels: Labels): number {
  let n = ENTRY_OVERHEAD_BYTES + key.length + STRING_OVERHEAD_BYTES;
  const flat = labels.flat();
  for (let i = 0; i < flat.length; i++) n += flat[i].length + STRING_OVERHEAD_BYTES;
  return n;
}

/**
 * A map from a receiver-chosen key (the encoded labels of a remote write series, the label key of
 * a translated OTLP series) to its `SeriesEntry`, bounded in bytes (`seriesEntryBytes`), not in
 * entries: two generations of up to `maxBytes / 2` each. Entries go into the current one; when
 * it is full it becomes the previous one and the old previous one is dropped; a hit in the
 * previous generation moves the entry back to the current one. So the series in use stay, and
 * memory never exceeds `maxBytes` however large the labels. Receivers cache a series only after
 * its request was committed, so refused requests leave nothing here.
 */
export class SeriesCache {
  private current = new Map<string, SeriesEntry>();
  private previous = new Map<string, SeriesEntry>();
  private currentBytes = 0;
  private previousBytes = 0;

  constructor(readonly maxBytes: number) {}

  /** The entry for `key`, if cached. */
  get(key: string): SeriesEntry | undefined {
    const e = this.current.get(key);
    if (e !== undefined) return e;
    const old = this.previous.get(key);
    if (old === undefined) return undefined;
    this.previous.delete(key);
    this.previousBytes -= old.cacheBytes;
    this.put(key, old);
    return old;
  }

  /** Caches `entry` under `key` (an entry larger than half the budget is not cached). */
  set(key: string, entry: SeriesEntry): void {
    if (this.current.has(key)) return;
    entry.cacheBytes = seriesEntryBytes(key, entry.labels);
    this.put(key, entry);
  }

  private put(key: string, entry: SeriesEntry): void {
    const half = this.maxBytes / 2;
    if (entry.cacheBytes > half) return;
    if (this.currentBytes + entry.cacheBytes > half) {
      this.previous = this.current;
      this.previousBytes = this.currentBytes;
      this.current = new Map();
      this.currentBytes = 0;
    }
    this.current.set(key, entry);
    this.currentBytes += entry.cacheBytes;
  }

  /** The number of cached entries. */
  get size(): number {
    return this.current.size + this.previous.size;
  }

  /** The estimated memory of the cached entries, at most `maxBytes`. */
  get bytes(): number {
    return this.currentBytes + this.previousBytes;
  }
}

/**
 * The series of one request as a receiver resolves them: cached ones from the `SeriesCache`, new
 * ones kept aside and handed to the cache by `admit` only after the request was committed.
 */
export class RequestSeries {
  private readonly fresh = new Map<string, SeriesEntry>();

  constructor(private readonly cache: SeriesCache) {}

  /** The entry for `key`: cached, or new in this request; undefined when never seen. */
  get(key: string): SeriesEntry | undefined {
    return this.cache.get(key) ?? this.fresh.get(key);
  }

  /** Remembers a new series of this request. */
  add(key: string, entry: SeriesEntry): void {
    this.fresh.set(key, entry);
  }

  /** Caches the request's new series; call after the commit succeeded. */
  admit(): void {
    for (const [key, entry] of this.fresh) this.cache.set(key, entry);
  }
}

/** The label limits of `IngestLimits`. */
export type LabelLimits = Pick<IngestLimits, 'maxLabelsPerSeries' | 'maxLabelNameBytes' | 'maxLabelValueBytes'>;

/** Whether `s` is longer than `max` UTF-8 bytes, without encoding it when the length decides. */
function overBytes(s: string, max: number): boolean {
  if (max <= 0 || s.length * 3 <= max) return false; // a UTF-16 unit is at most 3 UTF-8 bytes
  if (s.length > max) return true; // and at least 1
  return Buffer.byteLength(s, 'utf8') > max;
}

function utf8Bytes(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/**
 * Refuses a flat `[name, value, ...]` label list over the label limits: too many labels, a name or
 * a value too long (in UTF-8 bytes). Throws `IngestError` `ERR_INGEST_LIMIT_EXCEEDED` naming the
 * label and the limit. Runs before the series is cached or anything is appended.
 */
export function checkLabelLimits(flat: readonly string[], limits: LabelLimits): void {
  const n = flat.length / 2;
  if (limits.maxLabelsPerSeries > 0 && n > limits.maxLabelsPerSeries) {
    throw limitError(flat, `it has ${n} labels, the limit is ${limits.maxLabelsPerSeries} (maxLabelsPerSeries, --ingest.max-labels-per-series)`);
  }
  for (let i = 0; i < flat.length; i += 2) {
    if (overBytes(flat[i], limits.maxLabelNameBytes)) {
      throw limitError(flat, `label name ${quote(shorten(flat[i]))} is ${utf8Bytes(flat[i])} bytes long, the limit is ${limits.maxLabelNameBytes} (maxLabelNameBytes, --ingest.max-label-name-length)`);
    }
    if (overBytes(flat[i + 1], limits.maxLabelValueBytes)) {
      throw limitError(flat, `the value of label ${quote(shorten(flat[i]))} is ${utf8Bytes(flat[i + 1])} bytes long, the limit is ${limits.maxLabelValueBytes} (maxLabelValueBytes, --ingest.max-label-value-length)`);
    }
  }
}

function quote(s: string): string {
  return JSON.stringify(s);
}

/** At most 64 characters of `s`: error messages must stay small whatever a sender sent. */
function shorten(s: string): string {
  return s.length <= 64 ? s : `${s.slice(0, 61)}...`;
}

/**
 * Builds `Labels` from a flat `[name, value, ...]` list as a sender sent it, refusing what
 * Prometheus would not store: no `__name__` (or an empty one), an empty label name, a name that
 * appears twice (`ERR_INGEST_INVALID_SERIES`), and what is over the label limits
 * (`ERR_INGEST_LIMIT_EXCEEDED`, see `checkLabelLimits`). Names are otherwise taken as UTF-8, as
 * Prometheus 3 does. Labels with an empty value are dropped (Prometheus' rule).
 */
export function labelsFromPairs(flat: readonly string[], limits?: LabelLimits): Labels {
  if (limits !== undefined) checkLabelLimits(flat, limits);
  let sorted = true;
  for (let i = 0; i < flat.length; i += 2) {
    if (flat[i] === '') throw invalid(flat, 'a label has an empty name');
    if (i > 0 && flat[i] <= flat[i - 2]) sorted = false;
  }
  if (!sorted) {
    const names: string[] = [];
    for (let i = 0; i < flat.length; i += 2) names.push(flat[i]);
    names.sort();
    for (let i = 1; i < names.length; i++) if (names[i] === names[i - 1]) throw invalid(flat, `label ${quote(shorten(names[i]))} appears twice`);
  }
  const labels = Labels.fromPairs(flat);
  if (labels.metricName === '') throw invalid(flat, `no metric name (label ${METRIC_NAME_LABEL})`);
  return labels;
}

/**
 * `labels` for an error message: at most 20 labels, names and values cut to 64 characters, so
 * that a refusal stays small whatever the sender sent.
 */
export function describeSeries(labels: Labels): string {
  return shown(labels.flat());
}

/** The first labels of `flat`, shortened, for an error message. */
function shown(flat: readonly string[]): string {
  const out: string[] = [];
  for (let i = 0; i < flat.length && out.length < 20; i += 2) out.push(`${shorten(flat[i])}=${quote(shorten(flat[i + 1]))}`);
  return `{${out.join(', ')}${flat.length > 40 ? ', ...' : ''}}`;
}

function invalid(flat: readonly string[], why: string): IngestError {
  return new IngestError(IngestErrorCode.INVALID_SERIES, `invalid series ${shown(flat)}: ${why}`);
}

function limitError(flat: readonly string[], why: string): IngestError {
  return new IngestError(IngestErrorCode.LIMIT_EXCEEDED, `series ${shown(flat)} refused: ${why}`);
}
