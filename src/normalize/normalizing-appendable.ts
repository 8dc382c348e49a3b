import type { Labels, UnixMs } from '../model/index.js';
import type { SourceId } from '../semconv/index.js';
import { StorageError, StorageErrorCode, type Appendable, type Appender, type SeriesRef } from '../storage/index.js';
import { buildMappingIndex, isDcgmBlank, planSeries, type MappingIndex, type OutputPlan, type PlanOptions } from './plan.js';

/** Options of `NormalizingAppendable`. */
export interface NormalizeOptions {
  /** Also write every engine-native series unchanged, next to its unified series. Default false. */
  keepRaw?: boolean;
  /**
   * The engine behind every series written through this appendable (a per-target normalizer).
   * Only needed for engines with generic metric names (DJL/LMI; vLLM's `http_*`).
   */
  engine?: SourceId;
  /** Labels whose values may name the engine when `engine` is not set. Default `['engine', 'job']`. */
  hintLabels?: readonly string[];
  /** The most incoming series the mapping cache holds before it starts over. Default 1,000,000. */
  maxCachedSeries?: number;
}

/** What the cache keeps per incoming series. */
interface SeriesEntry {
  readonly ref: SeriesRef;
  readonly labels: Labels;
  readonly outputs: OutputPlan[];
}

/**
 * The per-series mapping cache, shared by every appender of one `NormalizingAppendable`. It hands
 * out its own refs (never reused, so a stale ref can never point at other labels) and keeps, per
 * incoming series, the planned outputs with the inner storage's refs.
 */
class SeriesCache {
  private entries: SeriesEntry[] = [];
  private base = 1;
  private byHash = new Map<number, SeriesEntry[]>();
  /** Callers that keep their `Labels` objects but pass no refs hit here without hashing. */
  private byIdentity = new WeakMap<Labels, SeriesEntry>();

  constructor(
    private readonly index: MappingIndex,
    private readonly options: PlanOptions,
    private readonly maxSeries: number,
  ) {}

  /** The entry for `ref` (when it is one of ours) or else for `labels`, planned on first sight. */
  get(ref: SeriesRef, labels: Labels): SeriesEntry {
    const i = ref - this.base;
    if (i >= 0 && i < this.entries.length) return this.entries[i];
    const same = this.byIdentity.get(labels);
    if (same !== undefined) return same;
    const h = labels.hash();
    const bucket = this.byHash.get(h);
    if (bucket !== undefined) for (const e of bucket) if (e.labels.equals(labels)) return e;
    if (this.entries.length >= this.maxSeries) this.reset();
    const entry: SeriesEntry = { ref: this.base + this.entries.length, labels, outputs: planSeries(labels, this.index, this.options) };
    this.entries.push(entry);
    this.byIdentity.set(labels, entry);
    const list = this.byHash.get(h);
    if (list === undefined) this.byHash.set(h, [entry]);
    else list.push(entry);
    return entry;
  }

  /** Forgets everything; refs handed out so far become unknown (resolved by labels again). */
  private reset(): void {
    this.base += this.entries.length;
    this.entries = [];
    this.byHash = new Map();
    this.byIdentity = new WeakMap();
  }
}

/**
 * An `Appendable` decorator that rewrites engine-native series into the unified catalog
 * (src/semconv) on their way into `inner`: names, units (µs/ms → s, MiB → bytes, % → ratio, with
 * histogram `le` bounds rescaled), labels (`model_name` → `model`, vLLM's `engine` → `dp_rank`)
 * and an `engine` label naming the source. Unknown series pass through unchanged; with `keepRaw`
 * the engine-native series are written as well. See `planSeries` for the rules and
 * src/normalize/README.md for the engine detection rule.
 *
 * The Appender contract holds as the inner storage implements it: `commit` and `rollback` go to
 * one inner appender, so a batch is written whole or not at all; errors of `append` are the inner
 * storage's. Refs returned by `append` are the normalizer's own and valid across its appenders.
 */
export class NormalizingAppendable implements Appendable {
  private readonly cache: SeriesCache;

  constructor(
    private readonly inner: Appendable,
    options: NormalizeOptions = {},
  ) {
    const plan: PlanOptions = {
      keepRaw: options.keepRaw ?? false,
      engine: options.engine,
      hintLabels: options.hintLabels ?? ['engine', 'job'],
    };
    this.cache = new SeriesCache(buildMappingIndex(), plan, options.maxCachedSeries ?? 1_000_000);
  }

  /** Opens an appender over a new appender of the inner storage. */
  appender(): Appender {
    return new NormalizingAppender(this.inner.appender(), this.cache);
  }
}

/** The appender of `NormalizingAppendable`: one inner appender, the shared cache. */
class NormalizingAppender implements Appender {
  private closed = false;

  constructor(
    private readonly inner: Appender,
    private readonly cache: SeriesCache,
  ) {}

  /**
   * Appends every output of the series. Each output is its own inner append; when one is rejected
   * the others are still tried, then the first error is thrown (the caller counts it as it would
   * count any rejected sample). The hot path, after a series' first sample, does no string work.
   */
  append(ref: SeriesRef, labels: Labels, tMs: UnixMs, value: number): SeriesRef {
    if (this.closed) throw new StorageError(StorageErrorCode.APPENDER_CLOSED, 'appender already committed or rolled back');
    const entry = this.cache.get(ref, labels);
    const outputs = entry.outputs;
    let failed = false;
    let error: unknown;
    for (let i = 0; i < outputs.length; i++) {
      const o = outputs[i];
      let v = value;
      // NaN (the stale marker among them) passes bit-exactly: arithmetic would canonicalize it.
      if (value === value) {
        if (o.dropBlank && isDcgmBlank(value)) continue;
        if (o.constant !== undefined) v = o.constant;
        else if (o.divide !== 1) v = value / o.divide;
        else if (o.multiply !== 1) v = value * o.multiply;
      }
      try {
        o.innerRef = this.inner.append(o.innerRef, o.labels, tMs, v);
      } catch (e) {
        if (!failed) error = e;
        failed = true;
      }
    }
    if (failed) throw error;
    return entry.ref;
  }

  async commit(): Promise<void> {
    if (this.closed) throw new StorageError(StorageErrorCode.APPENDER_CLOSED, 'appender already committed or rolled back');
    this.closed = true;
    await this.inner.commit();
  }

  rollback(): void {
    if (this.closed) throw new StorageError(StorageErrorCode.APPENDER_CLOSED, 'appender already committed or rolled back');
    this.closed = true;
    this.inner.rollback();
  }
}
