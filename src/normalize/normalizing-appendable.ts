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
  /**
   * The estimated memory the mapping cache may take, in bytes (default 256 MiB). Past it the
   * least recently used half is forgotten, and those series are planned again when they return.
   */
  maxCacheBytes?: number;
}

/** The default `maxCacheBytes`: 256 MiB. */
export const DEFAULT_MAX_CACHE_BYTES = 256 * 1024 * 1024;

/** What the cache keeps per incoming series. */
interface SeriesEntry {
  readonly ref: SeriesRef;
  readonly labels: Labels;
  readonly hash: number;
  readonly outputs: OutputPlan[];
  /** The entry's estimated memory (`entryBytes`). */
  readonly bytes: number;
}

/** An entry's fixed cost beyond its strings (the entry, its plan objects, Map slots), estimated. */
const ENTRY_OVERHEAD_BYTES = 400;
/** What each string costs beyond its characters (V8's string header and the array slot). */
const STRING_OVERHEAD_BYTES = 24;

/** The estimated memory of an entry: one byte per character of every label of the series and its outputs, plus fixed costs. */
function entryBytes(labels: Labels, outputs: readonly OutputPlan[]): number {
  let n = ENTRY_OVERHEAD_BYTES;
  const add = (l: Labels): void => {
    const flat = l.flat();
    for (let i = 0; i < flat.length; i++) n += flat[i].length + STRING_OVERHEAD_BYTES;
  };
  add(labels);
  for (const o of outputs) if (o.labels !== labels) add(o.labels);
  return n;
}

/** One generation of the cache: entries by ref (an array from `base`) and by label hash. */
class Generation {
  readonly entries: (SeriesEntry | undefined)[] = [];
  readonly byHash = new Map<number, SeriesEntry[]>();
  bytes = 0;

  constructor(readonly base: SeriesRef) {}

  /** The entry of `ref`, when it is one of this generation's. */
  at(ref: SeriesRef): SeriesEntry | undefined {
    const i = ref - this.base;
    return i >= 0 && i < this.entries.length ? this.entries[i] : undefined;
  }

  has(e: SeriesEntry): boolean {
    return this.at(e.ref) === e;
  }

  find(labels: Labels, hash: number): SeriesEntry | undefined {
    const bucket = this.byHash.get(hash);
    if (bucket !== undefined) for (const e of bucket) if (e.labels.equals(labels)) return e;
    return undefined;
  }

  /** The ref the next entry gets. */
  get nextRef(): SeriesRef {
    return this.base + this.entries.length;
  }

  add(e: SeriesEntry): void {
    this.entries.push(e);
    const list = this.byHash.get(e.hash);
    if (list === undefined) this.byHash.set(e.hash, [e]);
    else list.push(e);
    this.bytes += e.bytes;
  }

  remove(e: SeriesEntry): void {
    if (!this.has(e)) return;
    this.entries[e.ref - this.base] = undefined;
    const list = this.byHash.get(e.hash);
    if (list !== undefined) {
      const i = list.indexOf(e);
      if (i >= 0) list.splice(i, 1);
      if (list.length === 0) this.byHash.delete(e.hash);
    }
    this.bytes -= e.bytes;
  }
}

/**
 * The per-series mapping cache, shared by every appender of one `NormalizingAppendable`. It hands
 * out its own refs (never reused, so a stale ref can never point at other labels) and keeps, per
 * incoming series, the planned outputs with the inner storage's refs.
 *
 * Bounded in bytes, not entries: two generations of up to `maxBytes / 2` each (as the receivers'
 * `SeriesCache` in src/ingest). New entries go into the current one; when it is full it becomes
 * the previous one and the old previous one is dropped. A hit in the previous generation moves
 * the series into the current one under a new ref, which the caller then keeps (a scraper
 * stores the ref `append` returns). A batch's new series are cached while it is open (so its
 * own later samples find them) and forgotten again unless it commits (`forget`), so a refused
 * batch leaves nothing here however large its labels.
 */
class SeriesCache {
  private current = new Generation(1);
  private previous = new Generation(0);
  /** Callers that keep their `Labels` objects but pass no refs hit here without hashing. */
  private byIdentity = new WeakMap<Labels, SeriesEntry>();

  constructor(
    private readonly index: MappingIndex,
    private readonly options: PlanOptions,
    private readonly maxBytes: number,
  ) {}

  /** The entry for `ref` (when it is one of ours and still cached) or else for `labels`; `added` is told of a new one. */
  get(ref: SeriesRef, labels: Labels, added: (e: SeriesEntry) => void): SeriesEntry {
    const hot = this.current.at(ref);
    if (hot !== undefined) return hot;
    const old = this.previous.at(ref);
    if (old !== undefined) return this.promote(old);
    const same = this.byIdentity.get(labels);
    if (same !== undefined) {
      if (this.current.has(same)) return same;
      if (this.previous.has(same)) return this.promote(same);
    }
    const h = labels.hash();
    const hit = this.current.find(labels, h) ?? this.previous.find(labels, h);
    if (hit !== undefined) return this.current.has(hit) ? hit : this.promote(hit);
    const outputs = planSeries(labels, this.index, this.options);
    const e = this.put(labels, h, outputs, entryBytes(labels, outputs));
    added(e);
    return e;
  }

  /** Drops entries an appender added, when its batch did not commit. */
  forget(entries: readonly SeriesEntry[]): void {
    for (const e of entries) {
      this.current.remove(e);
      this.previous.remove(e);
    }
  }

  /** The number of cached entries and their estimated memory. */
  stats(): { entries: number; bytes: number } {
    const count = (g: Generation): number => g.byHash.size === 0 ? 0 : [...g.byHash.values()].reduce((n, l) => n + l.length, 0);
    return { entries: count(this.current) + count(this.previous), bytes: this.current.bytes + this.previous.bytes };
  }

  /** Moves an entry of the previous generation into the current one, under a new ref. */
  private promote(e: SeriesEntry): SeriesEntry {
    this.previous.remove(e);
    return this.put(e.labels, e.hash, e.outputs, e.bytes);
  }

  private put(labels: Labels, hash: number, outputs: OutputPlan[], bytes: number): SeriesEntry {
    const half = this.maxBytes / 2;
    if (this.current.bytes + bytes > half && this.current.entries.length > 0) {
      this.previous = this.current;
      this.current = new Generation(this.previous.nextRef);
      // Forget the dropped generation's links too (the WeakMap would keep them while the
      // caller's Labels live).
      this.byIdentity = new WeakMap();
      for (const kept of this.previous.entries) if (kept !== undefined) this.byIdentity.set(kept.labels, kept);
    }
    const e: SeriesEntry = { ref: this.current.nextRef, labels, hash, outputs, bytes };
    // An entry larger than half the budget is handed out but not kept.
    if (bytes <= half) {
      this.current.add(e);
      this.byIdentity.set(labels, e);
    } else {
      this.current.entries.push(undefined);
    }
    return e;
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
    this.cache = new SeriesCache(buildMappingIndex(), plan, options.maxCacheBytes ?? DEFAULT_MAX_CACHE_BYTES);
  }

  /** The cache's number of entries and estimated bytes (tests and self-metrics). */
  cacheStats(): { entries: number; bytes: number } {
    return this.cache.stats();
  }

  /** Opens an appender over a new appender of the inner storage. */
  appender(): Appender {
    return new NormalizingAppender(this.inner.appender(), this.cache);
  }
}

/** The appender of `NormalizingAppendable`: one inner appender, the shared cache. */
class NormalizingAppender implements Appender {
  private closed = false;
  /** Series this batch added to the cache; forgotten again unless it commits. */
  private readonly added: SeriesEntry[] = [];
  private readonly onAdded = (e: SeriesEntry): void => void this.added.push(e);

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
    const entry = this.cache.get(ref, labels, this.onAdded);
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
    try {
      await this.inner.commit();
    } catch (e) {
      this.cache.forget(this.added);
      throw e;
    }
  }

  rollback(): void {
    if (this.closed) throw new StorageError(StorageErrorCode.APPENDER_CLOSED, 'appender already committed or rolled back');
    this.closed = true;
    this.cache.forget(this.added);
    this.inner.rollback();
  }
}
