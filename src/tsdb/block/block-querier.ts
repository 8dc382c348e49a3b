/**
 * The `Querier` of one block: matchers resolve through the postings, series are decoded lazily
 * in id (= label) order, and iterators read chunks on demand, clipped to the querier's range.
 */
import type { Labels, Matcher, SeriesIterator, UnixMs } from '../../model/index.js';
import { emptySeriesSet, type Querier, type SelectHints, type Series, type SeriesSet } from '../../storage/index.js';
import type { ChunkFilesReader } from './chunk-files.js';
import type { IndexReader } from './index-reader.js';
import { intersectPostings } from './postings.js';
import { selectPostings } from './select-postings.js';
import { BlockSeriesIterator } from './series-iterator.js';

/** What a block querier reads from: the open files of one block and its time range. */
export interface BlockFiles {
  readonly index: IndexReader;
  readonly chunks: ChunkFilesReader;
  readonly minTimeMs: UnixMs;
  /** Exclusive end of the block's range. */
  readonly maxTimeMs: UnixMs;
}

/** A querier over one block and the inclusive range `[minTMs, maxTMs]` (see `Querier`). */
export class BlockQuerier implements Querier {
  private closed = false;
  private readonly overlaps: boolean;
  private readonly coversBlock: boolean;
  private readonly probe = new BlockSeriesIterator();

  /** Creates the querier; cheap (opens nothing). */
  constructor(
    private readonly files: BlockFiles,
    private readonly minTMs: UnixMs,
    private readonly maxTMs: UnixMs,
  ) {
    this.overlaps = minTMs <= maxTMs && minTMs < files.maxTimeMs && maxTMs >= files.minTimeMs;
    this.coversBlock = minTMs <= files.minTimeMs && maxTMs >= files.maxTimeMs - 1;
  }

  /** Returns the series matching every matcher with data in range, sorted by labels. */
  select(matchers: readonly Matcher[], _hints?: SelectHints): SeriesSet {
    this.checkOpen();
    if (!this.overlaps) return emptySeriesSet();
    return new BlockSeriesSet(this, selectPostings(this.files.index, matchers));
  }

  /** Returns the sorted label names of series with data in range (matching `matchers`). */
  labelNames(matchers?: readonly Matcher[]): string[] {
    this.checkOpen();
    if (!this.overlaps) return [];
    const index = this.files.index;
    if (matchers !== undefined && matchers.length > 0) {
      const names = new Set<string>();
      for (const id of selectPostings(index, matchers)) {
        const labels = this.labelsIfData(id);
        labels?.forEach((name) => names.add(name));
      }
      return [...names].sort();
    }
    if (this.coversBlock) return [...index.labelNames()];
    return index.labelNames().filter((_, n) => this.anyValueHasData(n, null));
  }

  /** Returns the sorted values of label `name` on series with data in range (matching `matchers`). */
  labelValues(name: string, matchers?: readonly Matcher[]): string[] {
    this.checkOpen();
    const index = this.files.index;
    const n = index.nameIndex(name);
    if (!this.overlaps || n < 0) return [];
    const start = index.valuesStart(n);
    const end = index.valuesEnd(n);
    const out: string[] = [];
    if (matchers !== undefined && matchers.length > 0) {
      const candidates = selectPostings(index, matchers);
      if (candidates.length < end - start) {
        // Few candidates: decode them rather than reading every value's postings.
        const values = new Set<string>();
        for (const id of candidates) {
          const v = this.labelsIfData(id)?.get(name) ?? '';
          if (v !== '') values.add(v);
        }
        return [...values].sort();
      }
      for (let k = start; k < end; k++) if (this.hasData(index.postings(k), candidates)) out.push(index.value(k));
      return out;
    }
    for (let k = start; k < end; k++) {
      if (this.coversBlock || this.hasData(index.postings(k), null)) out.push(index.value(k));
    }
    return out;
  }

  /** Marks the querier closed; the block's files stay open. Calling it twice is harmless. */
  close(): void {
    this.closed = true;
  }

  /** Decodes series `id` and returns it when it has a sample in range, else null. */
  readIfData(id: number): Series | null {
    const rec = this.files.index.readSeries(id);
    return this.chunksHaveData(rec.chunks) ? new BlockSeries(rec.labels, rec.chunks, this.files.chunks, this.minTMs, this.maxTMs) : null;
  }

  private labelsIfData(id: number): Labels | null {
    const rec = this.files.index.readSeries(id);
    return this.chunksHaveData(rec.chunks) ? rec.labels : null;
  }

  private anyValueHasData(n: number, candidates: Uint32Array | null): boolean {
    const index = this.files.index;
    for (let k = index.valuesStart(n); k < index.valuesEnd(n); k++) {
      if (this.hasData(index.postings(k), candidates)) return true;
    }
    return false;
  }

  /** Reports whether any series of `ids` (restricted to `candidates`) has a sample in range. */
  private hasData(ids: Uint32Array, candidates: Uint32Array | null): boolean {
    const list = candidates === null ? ids : intersectPostings(ids, candidates);
    if (this.coversBlock) return list.length > 0;
    for (const id of list) if (this.labelsIfData(id) !== null) return true;
    return false;
  }

  /**
   * Reports whether chunks (`[min, max, ref]` triplets) hold a sample in range. A chunk with an
   * end inside the range certainly does; only a chunk straddling the whole range is decoded.
   */
  private chunksHaveData(chunks: Float64Array): boolean {
    for (let c = 0; c < chunks.length; c += 3) {
      const cMin = chunks[c];
      const cMax = chunks[c + 1];
      if (cMax < this.minTMs) continue;
      if (cMin > this.maxTMs) return false;
      if (cMin >= this.minTMs || cMax <= this.maxTMs) return true;
      // Straddles [minTMs, maxTMs]; chunks do not overlap, so no other chunk can be in range.
      const probe = this.probe.reset(this.files.chunks, chunks, this.minTMs, this.maxTMs);
      return probe.next() || probe.err() !== null;
    }
    return false;
  }

  private checkOpen(): void {
    if (this.closed) throw new Error('block querier used after close');
  }
}

/** One selected series. */
class BlockSeries implements Series {
  constructor(
    readonly labels: Labels,
    private readonly metas: Float64Array,
    private readonly chunks: ChunkFilesReader,
    private readonly minTMs: UnixMs,
    private readonly maxTMs: UnixMs,
  ) {}

  iterator(reuse?: SeriesIterator): SeriesIterator {
    const it = reuse instanceof BlockSeriesIterator ? reuse : new BlockSeriesIterator();
    return it.reset(this.chunks, this.metas, this.minTMs, this.maxTMs);
  }
}

/** The series of a select, decoded one at a time as `next()` is called. */
class BlockSeriesSet implements SeriesSet {
  private pos = 0;
  private current: Series | null = null;
  private failure: Error | null = null;

  constructor(
    private readonly querier: BlockQuerier,
    private readonly ids: Uint32Array,
  ) {}

  next(): boolean {
    while (this.failure === null && this.pos < this.ids.length) {
      try {
        this.current = this.querier.readIfData(this.ids[this.pos++]);
      } catch (err) {
        this.failure = err instanceof Error ? err : new Error(String(err));
        break;
      }
      if (this.current !== null) return true;
    }
    this.current = null;
    return false;
  }

  at(): Series {
    return this.current!;
  }

  err(): Error | null {
    return this.failure;
  }

  warnings(): readonly string[] {
    return [];
  }
}
