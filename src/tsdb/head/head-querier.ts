import { ArraySeriesIterator, type Labels, type Matcher, type SeriesIterator, type UnixMs } from '../../model/index.js';
import { ArraySeriesSet, MergedSeriesIterator, StorageError, StorageErrorCode, type Querier, type SelectHints, type Series, type SeriesSet } from '../../storage/index.js';
import { ChunkListIterator } from '../chunk-list-iterator.js';
import { NO_CHUNK } from './chunk-store.js';
import type { Head } from './head.js';
import type { MemSeries } from './mem-series.js';

/** A head series as seen by one querier: a snapshot of its chunk list (and out-of-order samples) at select time. */
class HeadSeries implements Series {
  constructor(
    readonly labels: Labels,
    private readonly chunks: Uint8Array[],
    private readonly counts: (number | undefined)[],
    private readonly minTMs: UnixMs,
    private readonly maxTMs: UnixMs,
    private readonly ooo: { tsMs: Float64Array; values: Float64Array } | null,
  ) {}

  iterator(reuse?: SeriesIterator): SeriesIterator {
    if (this.ooo !== null) {
      const inOrder = new ChunkListIterator().reset(this.chunks, this.counts, this.minTMs, this.maxTMs);
      return new MergedSeriesIterator([inOrder, new ArraySeriesIterator(this.ooo.tsMs, this.ooo.values)]);
    }
    const it = reuse instanceof ChunkListIterator ? reuse : new ChunkListIterator();
    return it.reset(this.chunks, this.counts, this.minTMs, this.maxTMs);
  }
}

/**
 * Collects the chunks of `s` that overlap `[minTMs, maxTMs]`, capturing the open chunk's current
 * sample count so later appends stay invisible to this reader.
 */
function snapshotChunks(s: MemSeries, minTMs: UnixMs, maxTMs: UnixMs, chunks: Uint8Array[], counts: (number | undefined)[]): void {
  const store = s.store;
  for (let id = s.firstSealed; id !== NO_CHUNK; id = store.next[id]) {
    if (store.maxT[id] < minTMs || store.minT[id] > maxTMs) continue;
    chunks.push(store.bytes(id));
    counts.push(undefined);
  }
  const open = s.open;
  if (open !== null && open.numSamples() > 0 && open.maxTimeMs() >= minTMs && open.minTimeMs() <= maxTMs) {
    chunks.push(open.bytes());
    counts.push(open.numSamples());
  }
}

/** The head's `Querier`: postings for selection, chunk snapshots for reading. */
export class HeadQuerier implements Querier {
  private closed = false;

  constructor(
    private readonly head: Head,
    private readonly minTMs: UnixMs,
    private readonly maxTMs: UnixMs,
  ) {}

  select(matchers: readonly Matcher[], hints?: SelectHints): SeriesSet {
    this.checkOpen();
    const out: Series[] = [];
    const labelsOnly = hints?.labelsOnly === true;
    for (const s of this.seriesWithData(matchers)) {
      if (labelsOnly) {
        out.push(new HeadSeries(s.labels, [], [], this.minTMs, this.maxTMs, null));
        continue;
      }
      const chunks: Uint8Array[] = [];
      const counts: (number | undefined)[] = [];
      snapshotChunks(s, this.minTMs, this.maxTMs, chunks, counts);
      const ooo = s.ooo?.slice(this.minTMs, this.maxTMs) ?? null;
      if (chunks.length > 0 || ooo !== null) out.push(new HeadSeries(s.labels, chunks, counts, this.minTMs, this.maxTMs, ooo));
    }
    out.sort((a, b) => a.labels.compare(b.labels));
    return new ArraySeriesSet(out);
  }

  labelNames(matchers?: readonly Matcher[]): string[] {
    this.checkOpen();
    const names = new Set<string>();
    for (const s of this.seriesWithData(matchers)) s.labels.forEach((n) => names.add(n));
    return [...names].sort();
  }

  labelValues(name: string, matchers?: readonly Matcher[]): string[] {
    this.checkOpen();
    const values = new Set<string>();
    for (const s of this.seriesWithData(matchers)) {
      const v = s.labels.get(name);
      if (v !== '') values.add(v);
    }
    return [...values].sort();
  }

  close(): void {
    this.closed = true;
  }

  private *seriesWithData(matchers: readonly Matcher[] | undefined): IterableIterator<MemSeries> {
    const refs = this.head.postings.select(matchers ?? [], (ref) => this.head.seriesByRef(ref)?.labels);
    for (let i = 0; i < refs.length; i++) {
      const s = this.head.seriesByRef(refs[i]);
      if (s !== undefined && s.minTimeMs() <= this.maxTMs && s.maxTimeMs() >= this.minTMs) yield s;
    }
  }

  private checkOpen(): void {
    if (this.closed) throw new StorageError(StorageErrorCode.STORAGE_CLOSED, 'querier is closed');
  }
}
