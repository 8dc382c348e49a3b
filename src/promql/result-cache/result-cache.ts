import type { Queryable } from '../../storage/index.js';
import type { Engine } from '../engine/engine.js';
import type { QueryEngine, QueryOptions, QueryResult, QueryStats } from '../engine/types.js';
import type { Expr } from '../parser/ast.js';
import type { Series } from '../value.js';
import { planQuery } from './plan.js';
import { SeriesAssembler, intersect, validSpan, type StepSpan } from './steps.js';
import { EntryStore, entryBytes, type CacheEntry } from './store.js';
import type { ChangeFeed, ResultCacheStats } from './types.js';

/** The byte budget when none is given: 128 MiB. */
export const DEFAULT_RESULT_CACHE_BYTES = 128 * 1024 * 1024;

/** Options of `ResultCache`. */
export interface ResultCacheOptions {
  /** The engine that computes what the cache lacks (its defaults give the lookback delta). */
  readonly engine: Engine;
  /** The one storage whose answers are cached; queries over any other go straight to the engine. */
  readonly queryable: Queryable;
  /** What changed in `queryable` (the TSDB's `Db.changes`). */
  readonly changes: ChangeFeed;
  /** Most bytes (estimated) the entries may hold (default `DEFAULT_RESULT_CACHE_BYTES`). */
  readonly maxBytes?: number;
}

const NO_WORK: QueryStats = { totalQueryableSamples: 0, peakSamples: 0, evalTotalTimeSec: 0 };

/**
 * A `QueryEngine` decorator that keeps step-aligned range results and, for a range query whose
 * key it has seen (normalised text, step, start modulo step, lookback delta), computes only the
 * steps it lacks or that changes in the store may have touched, then merges (Thanos'
 * query-frontend results cache, VictoriaMetrics' rollup result cache). Instant queries pass
 * through. See docs/design/result-cache.md for what keeps answers exact.
 *
 * Contract: a range answer is the one the engine would give for the same query at the same
 * moment: the same series in the same order, the same points, the same warnings and infos;
 * errors are the engine's. `opts.noCache` skips the lookup (the fresh answer is still stored).
 * Stats of an answer that used the cache count only the work done for it (none for a full hit).
 * Calls may run concurrently; two that miss together both compute, and the later one's answer
 * stays.
 */
export class ResultCache implements QueryEngine {
  private readonly store: EntryStore;
  private readonly engine: Engine;
  private readonly counts = { hits: 0, partialHits: 0, misses: 0, bypasses: 0, invalidations: 0 };

  constructor(private readonly o: ResultCacheOptions) {
    this.engine = o.engine;
    this.store = new EntryStore(o.maxBytes ?? DEFAULT_RESULT_CACHE_BYTES);
  }

  /** The counters and sizes `/metrics` shows. */
  stats(): ResultCacheStats {
    return { bytes: this.store.bytes, maxBytes: this.store.maxBytes, entries: this.store.size, evictions: this.store.evictions, ...this.counts };
  }

  instantQuery(queryable: Queryable, query: string | Expr, tMs: number, opts?: QueryOptions): Promise<QueryResult> {
    return this.engine.instantQuery(queryable, query, tMs, opts);
  }

  async rangeQuery(queryable: Queryable, query: string | Expr, startMs: number, endMs: number, stepMs: number, opts: QueryOptions = {}): Promise<QueryResult> {
    const usable =
      this.store.maxBytes > 0 &&
      queryable === this.o.queryable &&
      Number.isSafeInteger(startMs) &&
      Number.isSafeInteger(endMs) &&
      Number.isSafeInteger(stepMs) &&
      stepMs > 0 &&
      endMs >= startMs;
    // Bad steps and spans go to the engine untouched, for its errors.
    if (!usable) return this.bypass(() => this.engine.rangeQuery(queryable, query, startMs, endMs, stepMs, opts));
    const expr = typeof query === 'string' ? this.engine.parse(query) : query;
    const lookbackMs = opts.lookbackDeltaMs ?? this.engine.options.lookbackDeltaMs ?? 300_000;
    const plan = planQuery(expr, stepMs, lookbackMs);
    if (!plan.cacheable) return this.bypass(() => this.engine.rangeQuery(queryable, expr, startMs, endMs, stepMs, opts));
    const key = `${plan.text}\u0000${stepMs}\u0000${mod(startMs, stepMs)}\u0000${lookbackMs}`;
    const want: StepSpan = { firstMs: startMs, lastMs: startMs + Math.floor((endMs - startMs) / stepMs) * stepMs };
    const compute = (span: StepSpan): Promise<QueryResult> => this.engine.rangeQuery(queryable, expr, span.firstMs, span.lastMs, stepMs, opts);
    // Taken before anything is read: every change after it counts against what is stored now.
    const mark = this.o.changes.seq();
    const entry = opts.noCache === true ? undefined : this.store.get(key);
    let reuse: StepSpan | null = null;
    let valid: StepSpan | null = null;
    if (entry !== undefined) {
      valid = validSpan(entry, this.o.changes.since(entry.mark), plan.minShiftMs, plan.maxShiftMs);
      if (valid === null || valid.firstMs !== entry.firstMs || valid.lastMs !== entry.lastMs) this.counts.invalidations++;
      if (valid === null) this.store.delete(key);
      reuse = valid === null ? null : intersect(valid, want);
    }
    if (entry === undefined || reuse === null) {
      if (opts.noCache === true) this.counts.bypasses++;
      else this.counts.misses++;
      return this.computeAndKeep(key, stepMs, mark, want, compute);
    }
    const before: StepSpan | null = reuse.firstMs > want.firstMs ? { firstMs: want.firstMs, lastMs: reuse.firstMs - stepMs } : null;
    const after: StepSpan | null = reuse.lastMs < want.lastMs ? { firstMs: reuse.lastMs + stepMs, lastMs: want.lastMs } : null;
    const notes = entry.warnings.length + entry.infos.length > 0;
    // A full hit on part of an entry cannot tell which of its notes those steps raised.
    if (before === null && after === null && notes && (reuse.firstMs !== entry.firstMs || reuse.lastMs !== entry.lastMs)) {
      this.counts.misses++;
      return this.computeAndKeep(key, stepMs, mark, want, compute);
    }
    const parts: QueryResult[] = [];
    if (before !== null) parts.push(await compute(before));
    if (after !== null) parts.push(await compute(after));
    // The reused steps' notes are among the entry's; they are exact only if the new steps raise them too.
    const warnings = union(parts.map((p) => p.warnings));
    const infos = union(parts.map((p) => p.infos));
    const notesHold = parts.length === 0 || (entry.warnings.every((w) => warnings.has(w)) && entry.infos.every((i) => infos.has(i)));
    const out = new SeriesAssembler();
    if (before !== null) out.addResult(matrixOf(parts[0]), null);
    out.addEntry(entry, reuse);
    if (after !== null) out.addResult(matrixOf(parts[parts.length - 1]), null);
    if (!notesHold || out.points() > (this.engine.options.maxSamples ?? 50_000_000)) {
      // Recompute in full: the engine then answers the notes (or the sample-limit error) itself.
      this.counts.misses++;
      return this.computeAndKeep(key, stepMs, mark, want, compute);
    }
    if (parts.length === 0) {
      this.counts.hits++;
      // Fresh arrays: the answer belongs to the caller, the entry stays as it is.
      return { value: { type: 'matrix', v: out.toSeries() }, warnings: [...entry.warnings], infos: [...entry.infos], stats: NO_WORK };
    }
    this.counts.partialHits++;
    const result: QueryResult = { value: { type: 'matrix', v: out.toSeries() }, warnings: [...warnings], infos: [...infos], stats: sumStats(parts.map((p) => p.stats)) };
    this.keep(key, stepMs, mark, want, result, { entry, valid: valid ?? reuse });
    return result;
  }

  private async computeAndKeep(key: string, stepMs: number, mark: number, want: StepSpan, compute: (span: StepSpan) => Promise<QueryResult>): Promise<QueryResult> {
    const r = await compute(want);
    this.keep(key, stepMs, mark, want, r, null);
    return r;
  }

  private async bypass(run: () => Promise<QueryResult>): Promise<QueryResult> {
    this.counts.bypasses++;
    return run();
  }

  /**
   * Stores `r` (the answer over `want`) under `key`, extended by the still-valid steps of the
   * prior entry next to `want` (so a 1 h and a 6 h panel of one query share an entry) up to as
   * many steps as the prior entry had, newer steps first. Nothing is stored when the store cut a
   * block from its head after `mark` (a read of `r` may have missed samples).
   */
  private keep(key: string, stepMs: number, mark: number, want: StepSpan, r: QueryResult, prior: { entry: CacheEntry; valid: StepSpan } | null): void {
    if (r.value.type !== 'matrix' || this.o.changes.since(mark).headCut) return;
    let firstMs = want.firstMs;
    let lastMs = want.lastMs;
    const out = new SeriesAssembler();
    if (prior !== null) {
      const { entry, valid } = prior;
      let room = Math.max(0, steps(entry.firstMs, entry.lastMs, stepMs) - steps(want.firstMs, want.lastMs, stepMs));
      const nAfter = Math.min(room, Math.max(0, (valid.lastMs - want.lastMs) / stepMs));
      room -= nAfter;
      const nBefore = Math.min(room, Math.max(0, (want.firstMs - valid.firstMs) / stepMs));
      firstMs = want.firstMs - nBefore * stepMs;
      lastMs = want.lastMs + nAfter * stepMs;
      if (nBefore > 0) out.addEntry(entry, { firstMs, lastMs: want.firstMs - stepMs });
      out.addResult(r.value.v, null);
      if (nAfter > 0) out.addEntry(entry, { firstMs: want.lastMs + stepMs, lastMs });
    } else {
      out.addResult(r.value.v, null);
    }
    const series = out.toCached();
    this.store.set({ key, firstMs, lastMs, stepMs, series, warnings: r.warnings, infos: r.infos, mark, bytes: entryBytes(key, series, [...r.warnings, ...r.infos]) });
  }
}

function steps(firstMs: number, lastMs: number, stepMs: number): number {
  return (lastMs - firstMs) / stepMs + 1;
}

function mod(a: number, b: number): number {
  return ((a % b) + b) % b;
}

function matrixOf(r: QueryResult): readonly Series[] {
  return r.value.type === 'matrix' ? r.value.v : [];
}

function union(lists: readonly (readonly string[])[]): Set<string> {
  const s = new Set<string>();
  for (const l of lists) for (const x of l) s.add(x);
  return s;
}

function sumStats(all: readonly QueryStats[]): QueryStats {
  let totalQueryableSamples = 0;
  let peakSamples = 0;
  let evalTotalTimeSec = 0;
  for (const s of all) {
    totalQueryableSamples += s.totalQueryableSamples;
    peakSamples = Math.max(peakSamples, s.peakSamples);
    evalTotalTimeSec += s.evalTotalTimeSec;
  }
  return { totalQueryableSamples, peakSamples, evalTotalTimeSec };
}
