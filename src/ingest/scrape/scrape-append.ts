import { Labels, STALE_NAN, type UnixMs } from '../../model/index.js';
import { StorageErrorCode, isStorageError, type Appender, type SeriesRef } from '../../storage/index.js';
import { ExpositionParser, type ExpositionFormat, type ParsedFamily, type ParsedSample } from '../../wire/index.js';
import { LabelsBuilder, relabel, type RelabelConfig } from '../../config/index.js';

/** Limits of one scrape; 0 means none. */
export interface ScrapeLimits {
  readonly sampleLimit: number;
  readonly labelLimit: number;
  readonly labelNameLengthLimit: number;
  readonly labelValueLengthLimit: number;
}

/** How a scrape's samples get their final labels. */
export interface SampleMutation {
  readonly targetLabels: Labels;
  readonly honorLabels: boolean;
  readonly honorTimestamps: boolean;
  readonly metricRelabelConfigs: readonly RelabelConfig[];
}

/** A series of the last successful scrape, for staleness; `seen` is the last iteration that had it. */
interface Tracked {
  readonly labels: Labels;
  seen: number;
  /** False once the record left `ScrapeCache.prev` (stale, or a failed scrape); entries then look it up again. */
  live: boolean;
}

interface CacheEntry {
  /** Final labels; null when metric relabeling dropped the series. */
  labels: Labels | null;
  ref: SeriesRef;
  /** The scrape iteration that last saw the series. */
  iter: number;
  /** Its staleness record, so that a steady scrape touches no map for staleness. */
  tracked?: Tracked;
}

/**
 * What a scrape loop remembers between scrapes (Prometheus' `scrapeCache`): the final labels and
 * storage reference of every exposed series, and the series of the last successful scrape, whose
 * absence from the next one writes staleness markers.
 */
export class ScrapeCache {
  readonly entries = new Map<string, CacheEntry>();
  /** Final label key → the series scraped without an explicit timestamp in the last successful scrape. */
  readonly prev = new Map<string, Tracked>();
  iter = 0;
  /** Metric metadata (HELP, TYPE, UNIT) from the last successful scrape, by family name. */
  metadata: readonly ParsedFamily[] = [];
  /** Storage references of the synthetic series (`up`, ...), by name. */
  readonly reportRefs = new Map<string, SeriesRef>();

  /** Forgets the per-series label cache (after a relabeling change) but keeps what staleness needs. */
  resetLabels(): void {
    this.entries.clear();
  }
}

/** A scrape that failed while its samples were read; the counts are those reached before the failure. */
export class ScrapeAppendError extends Error {
  constructor(
    message: string,
    readonly total: number,
    readonly added: number,
  ) {
    super(message);
    this.name = 'ScrapeAppendError';
  }
}

/** Counts of one scrape, for the synthetic `scrape_*` series. */
export interface AppendResult {
  total: number;
  added: number;
  seriesAdded: number;
  /** Samples the storage refused (out of order, duplicate, too old): logged, never a failure. */
  rejected: number;
}

/** Prometheus' `mutateSampleLabels`: target labels (honor_labels or `exported_` on conflict), then metric relabeling. */
export function mutateSampleLabels(lset: Labels, m: SampleMutation): Labels | null {
  const lb = new LabelsBuilder(lset);
  const target = m.targetLabels;
  if (m.honorLabels) {
    target.forEach((n, v) => {
      if (!lset.has(n)) lb.set(n, v);
    });
  } else {
    const conflicts: [string, string][] = [];
    target.forEach((n, v) => {
      const exposed = lset.get(n);
      if (exposed !== '') conflicts.push([n, exposed]);
      lb.set(n, v);
    });
    // Shorter names first; each takes `exported_` prefixes until the name is free (stable sort).
    conflicts.sort((a, b) => a[0].length - b[0].length);
    const taken: string[] = [];
    for (const c of conflicts) {
      let name = c[0];
      do name = `exported_${name}`;
      while (lset.has(name) || target.has(name) || taken.includes(name));
      taken.push(name);
      lb.set(name, c[1]);
    }
  }
  return relabel(lb.labels(), m.metricRelabelConfigs);
}

/** Prometheus' `verifyLabelLimits`; lengths are in UTF-8 bytes. Returns the error text or undefined. */
export function checkLabelLimits(lset: Labels, l: ScrapeLimits): string | undefined {
  const met = lset.metricName.slice(0, 50);
  if (l.labelLimit > 0 && lset.size > l.labelLimit) return `label_limit exceeded (metric: ${met}, number of labels: ${lset.size}, limit: ${l.labelLimit})`;
  for (let i = 0; i < lset.size; i++) {
    const name = lset.nameAt(i);
    const value = lset.valueAt(i);
    const nameLen = Buffer.byteLength(name);
    if (l.labelNameLengthLimit > 0 && nameLen > l.labelNameLengthLimit) {
      return `label_name_length_limit exceeded (metric: ${met}, label name: ${name.slice(0, 50)}, length: ${nameLen}, limit: ${l.labelNameLengthLimit})`;
    }
    const valueLen = Buffer.byteLength(value);
    if (l.labelValueLengthLimit > 0 && valueLen > l.labelValueLengthLimit) {
      return `label_value_length_limit exceeded (metric: ${met}, label name: ${name.slice(0, 50)}, value: ${JSON.stringify(value.slice(0, 50))}, length: ${valueLen}, limit: ${l.labelValueLengthLimit})`;
    }
  }
  return undefined;
}

const SOFT_ERRORS: readonly string[] = [
  StorageErrorCode.OUT_OF_ORDER_SAMPLE,
  StorageErrorCode.DUPLICATE_SAMPLE_FOR_TIMESTAMP,
  StorageErrorCode.OUT_OF_BOUNDS,
  StorageErrorCode.TOO_OLD_SAMPLE,
];

/** Appends one sample; false when the storage refused it for a reason Prometheus only counts. */
function tryAppend(app: Appender, ref: SeriesRef, lset: Labels, tMs: UnixMs, value: number): SeriesRef | false {
  try {
    return app.append(ref, lset, tMs, value);
  } catch (e) {
    if (isStorageError(e) && SOFT_ERRORS.includes(e.code)) return false;
    throw e;
  }
}

/**
 * Stages the samples of one scrape body into `app` (Prometheus' `scrapeLoop.append`), then the
 * staleness markers of series that vanished since the last successful scrape, and advances the
 * cache. Throws `ScrapeAppendError` on a parse error, a label or sample limit or a missing metric
 * name: the caller must then roll `app` back (the cache is left as it was, apart from labels it
 * learnt). The whole-text form of `ScrapeBodyAppender`.
 */
export function appendScrape(app: Appender, text: string, format: ExpositionFormat, tMs: UnixMs, cache: ScrapeCache, m: SampleMutation, limits: ScrapeLimits): AppendResult {
  const body = new ScrapeBodyAppender(app, format, tMs, cache, m, limits);
  body.push(text);
  return body.finish();
}

/**
 * `appendScrape` for a body that arrives in pieces: `push` decoded text as it is read, then
 * `finish` once. Samples are staged as their lines complete, so a body is never held whole, and
 * every limit fails the scrape at the first sample that exceeds it: the rest of the body is not
 * parsed. Without metric relabeling the label limits are already checked by the parser, label
 * by label (a sample's final labels then hold every exposed label, so an exposed excess is
 * certain to fail); with it, on each new series' final labels, as Prometheus does.
 */
export class ScrapeBodyAppender {
  private readonly iter: number;
  /** Series new to `prev`, committed into it only when the scrape succeeds. */
  private readonly added = new Map<string, Tracked>();
  private readonly r: AppendResult = { total: 0, added: 0, seriesAdded: 0, rejected: 0 };
  private appended = 0;
  private readonly parser: ExpositionParser;

  /** Starts a scrape of `cache`'s target at `tMs`; see `appendScrape`. */
  constructor(
    private readonly app: Appender,
    format: ExpositionFormat,
    private readonly tMs: UnixMs,
    private readonly cache: ScrapeCache,
    private readonly m: SampleMutation,
    private readonly limits: ScrapeLimits,
  ) {
    this.iter = cache.iter + 1;
    const early = m.metricRelabelConfigs.length === 0 ? { labelLimit: limits.labelLimit, labelNameLengthLimit: limits.labelNameLengthLimit, labelValueLengthLimit: limits.labelValueLengthLimit } : {};
    this.parser = new ExpositionParser(format, (s) => this.sample(s), early);
  }

  /** The counts so far (`scrape_samples_scraped` and the others of a scrape that fails now). */
  get counts(): AppendResult {
    return this.r;
  }

  /** Parses and stages the lines `text` completes. */
  push(text: string): void {
    this.guard(() => this.parser.push(text));
  }

  /** Parses the last line, stages the staleness markers and advances the cache. */
  finish(): AppendResult {
    const families = this.guard(() => this.parser.end()).families;
    const { app, cache, iter, tMs } = this;
    for (const [key, tr] of cache.prev) {
      if (tr.seen === iter) continue;
      tryAppend(app, 0, tr.labels, tMs, STALE_NAN);
      tr.live = false;
      cache.prev.delete(key);
    }
    for (const [key, tr] of this.added) {
      tr.live = true;
      cache.prev.set(key, tr);
    }
    cache.iter = iter;
    cache.metadata = families;
    for (const [key, e] of cache.entries) if (e.iter !== iter) cache.entries.delete(key);
    return this.r;
  }

  private guard<T>(f: () => T): T {
    try {
      return f();
    } catch (e) {
      if (e instanceof ScrapeAppendError) throw e;
      throw new ScrapeAppendError((e as Error).message, this.r.total, this.r.added);
    }
  }

  private sample(s: ParsedSample): void {
    const { r, cache, m, limits, iter } = this;
    r.total++;
    const key = s.labels.key();
    let e = cache.entries.get(key);
    const isNew = e === undefined;
    if (e === undefined) {
      const lset = mutateSampleLabels(s.labels, m);
      if (lset !== null && lset.metricName === '') throw new ScrapeAppendError('missing metric name (__name__ label)', r.total, r.added);
      const bad = lset === null ? undefined : checkLabelLimits(lset, limits);
      if (bad !== undefined) throw new ScrapeAppendError(bad, r.total, r.added);
      e = { labels: lset, ref: 0, iter };
      cache.entries.set(key, e);
    }
    e.iter = iter;
    if (e.labels === null) return;
    r.added++;
    // Prometheus reads on to count the whole body; stopping here bounds a hostile body's cost.
    if (limits.sampleLimit > 0 && ++this.appended > limits.sampleLimit) throw new ScrapeAppendError('sample limit exceeded', r.total, r.added);
    const explicit = m.honorTimestamps && s.timestampMs !== undefined;
    const ref = tryAppend(this.app, e.ref, e.labels, explicit ? (s.timestampMs as number) : this.tMs, s.value);
    if (ref === false) {
      r.rejected++;
      return;
    }
    e.ref = ref;
    if (isNew) r.seriesAdded++;
    // A series with its own timestamps bypasses staleness, as in Prometheus.
    if (!explicit) {
      let tr = e.tracked;
      if (tr === undefined || !tr.live) {
        const k = e.labels.key();
        tr = cache.prev.get(k) ?? this.added.get(k);
        if (tr === undefined) this.added.set(k, (tr = { labels: e.labels, seen: iter, live: false }));
        e.tracked = tr;
      }
      tr.seen = iter;
    }
  }
}

/** Stages staleness markers for every series of the last successful scrape and forgets them (a failed or final scrape). */
export function appendAllStale(app: Appender, tMs: UnixMs, cache: ScrapeCache): void {
  for (const tr of cache.prev.values()) {
    tryAppend(app, 0, tr.labels, tMs, STALE_NAN);
    tr.live = false;
  }
  cache.prev.clear();
}

/** The synthetic series of every scrape, in Prometheus' order. */
export const REPORT_METRICS = ['up', 'scrape_duration_seconds', 'scrape_samples_scraped', 'scrape_samples_post_metric_relabeling', 'scrape_series_added'] as const;

/** Stages the synthetic series with the target's labels (Prometheus' `report`, or `reportStale` when `values` is 'stale'). */
export function appendReport(app: Appender, tMs: UnixMs, cache: ScrapeCache, targetLabels: Labels, values: readonly number[] | 'stale'): void {
  REPORT_METRICS.forEach((name, i) => {
    const lset = Labels.fromPairs([...targetLabels.flat(), '__name__', name]);
    const ref = tryAppend(app, cache.reportRefs.get(name) ?? 0, lset, tMs, values === 'stale' ? STALE_NAN : values[i]);
    if (ref !== false) cache.reportRefs.set(name, ref);
  });
}
