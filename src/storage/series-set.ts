import {
  ArraySeriesIterator,
  EMPTY_ITERATOR,
  collectSamples,
  readBatch,
  stoppedPast,
  type Labels,
  type Sample,
  type SeriesIterator,
  type UnixMs,
} from '../model/index.js';
import type { Series, SeriesSet } from './querier.js';

/** A series set over an array that is already sorted by labels. */
export class ArraySeriesSet implements SeriesSet {
  private index = -1;

  constructor(
    private readonly series: readonly Series[],
    private readonly warns: readonly string[] = [],
  ) {}

  next(): boolean {
    if (this.index < this.series.length) this.index++;
    return this.index < this.series.length;
  }

  at(): Series {
    return this.series[this.index];
  }

  err(): Error | null {
    return null;
  }

  warnings(): readonly string[] {
    return this.warns;
  }
}

/** The empty series set. */
export function emptySeriesSet(): SeriesSet {
  return new ArraySeriesSet([]);
}

/** A series over in-memory samples (tests and small results). */
export function seriesFromSamples(labels: Labels, samples: readonly Sample[]): Series {
  const ts = Float64Array.from(samples, (s) => s.tMs);
  const vs = Float64Array.from(samples, (s) => s.value); // typed: keeps NaN payloads
  return { labels, iterator: () => new ArraySeriesIterator(ts, vs) };
}

/** Drains a series set into labels and samples. Allocates; for tests and debugging. */
export function collectSeries(set: SeriesSet): { labels: Labels; samples: Sample[] }[] {
  const out: { labels: Labels; samples: Sample[] }[] = [];
  while (set.next()) {
    const s = set.at();
    out.push({ labels: s.labels, samples: collectSamples(s.iterator()) });
  }
  const err = set.err();
  if (err) throw err;
  return out;
}

/**
 * Merges several iterators of one series into one, in timestamp order. Where two sources hold
 * the same timestamp, the earlier source in the list wins (callers list the freshest source first
 * only if they want it to win; blocks never overlap in practice, so this is a safety net).
 */
export class MergedSeriesIterator implements SeriesIterator {
  private current: SeriesIterator | null = null;
  private currentIndex = -1;
  private readonly valid: boolean[];
  private started = false;
  private failure: Error | null = null;

  constructor(private readonly sources: readonly SeriesIterator[]) {
    this.valid = sources.map(() => false);
  }

  next(): boolean {
    if (!this.started) {
      this.started = true;
      for (let i = 0; i < this.sources.length; i++) this.valid[i] = this.sources[i].next();
    } else if (this.current !== null) {
      const t = this.current.at().tMs;
      // Advance every source sitting on the emitted timestamp (the winner and its duplicates).
      for (let i = 0; i < this.sources.length; i++) {
        if (this.valid[i] && this.sources[i].at().tMs === t) this.valid[i] = this.sources[i].next();
      }
    }
    return this.pick();
  }

  seek(tMs: UnixMs): boolean {
    if (this.started && this.current !== null && this.current.at().tMs >= tMs) return true;
    this.started = true;
    for (let i = 0; i < this.sources.length; i++) {
      const src = this.sources[i];
      if (!this.valid[i] || src.at().tMs < tMs) this.valid[i] = src.seek(tMs);
    }
    return this.pick();
  }

  at(): Readonly<Sample> {
    return (this.current ?? EMPTY_ITERATOR).at();
  }

  err(): Error | null {
    return this.failure;
  }

  /** The `i`th source iterator (for `Series.iterator(reuse)`: its owner is done with this merge). */
  sourceAt(i: number): SeriesIterator | undefined {
    return this.sources[i];
  }

  /**
   * Reads a run of merged samples (see `SeriesIterator.nextBatch`). Sources rarely overlap (a
   * block, the next block, the head), so after each sample picked the ordinary way the source it
   * came from is read in one batch up to just before the next sample of any other source; a tie
   * at that timestamp is left to `next()`, which applies the first-source-wins rule.
   */
  nextBatch(maxTMs: UnixMs, tMs: Float64Array, values: Float64Array, offset: number, cap: number): number {
    let n = 0;
    while (n < cap) {
      if (!this.next()) return n;
      const best = this.current!;
      const s = best.at();
      if (s.tMs > maxTMs) return n;
      tMs[offset + n] = s.tMs;
      values[offset + n] = s.value;
      if (++n >= cap) return n;
      let otherMs = Infinity;
      for (let i = 0; i < this.sources.length; i++) {
        if (i !== this.currentIndex && this.valid[i]) {
          const t = this.sources[i].at().tMs;
          if (t < otherMs) otherMs = t;
        }
      }
      const bound = otherMs - 1 < maxTMs ? otherMs - 1 : maxTMs;
      if (bound <= s.tMs) continue;
      n += readBatch(best, bound, tMs, values, offset + n, cap - n);
      if (n >= cap) return n; // the source sits on the last sample written: still the current one
      // The source sits on a sample not yet emitted, or is exhausted: the next pick starts afresh.
      if (!stoppedPast(best, bound)) this.valid[this.currentIndex] = false;
      this.current = null;
    }
    return n;
  }

  private pick(): boolean {
    let best: SeriesIterator | null = null;
    let bestIndex = -1;
    for (let i = 0; i < this.sources.length; i++) {
      if (!this.valid[i]) {
        const e = this.sources[i].err();
        if (e && !this.failure) this.failure = e;
        continue;
      }
      if (best === null || this.sources[i].at().tMs < best.at().tMs) {
        best = this.sources[i];
        bestIndex = i;
      }
    }
    this.current = best;
    this.currentIndex = bestIndex;
    return best !== null;
  }
}

/**
 * Merges series sets that are each sorted by labels into one sorted set; series present in
 * several inputs (the same series in two blocks and the head) become one series whose iterator
 * merges theirs in input order.
 */
export class MergedSeriesSet implements SeriesSet {
  private readonly valid: boolean[];
  private started = false;
  private current: Series | null = null;
  private failure: Error | null = null;

  constructor(private readonly sets: readonly SeriesSet[]) {
    this.valid = sets.map(() => false);
  }

  next(): boolean {
    if (!this.started) {
      this.started = true;
      for (let i = 0; i < this.sets.length; i++) this.advance(i);
    } else if (this.current !== null) {
      const labels = this.current.labels;
      for (let i = 0; i < this.sets.length; i++) {
        if (this.valid[i] && this.sets[i].at().labels.equals(labels)) this.advance(i);
      }
    }
    let smallest: Labels | null = null;
    for (let i = 0; i < this.sets.length; i++) {
      if (!this.valid[i]) continue;
      const l = this.sets[i].at().labels;
      if (smallest === null || l.compare(smallest) < 0) smallest = l;
    }
    if (smallest === null) {
      this.current = null;
      return false;
    }
    const parts: Series[] = [];
    for (let i = 0; i < this.sets.length; i++) {
      if (this.valid[i] && this.sets[i].at().labels.equals(smallest)) parts.push(this.sets[i].at());
    }
    this.current = parts.length === 1 ? parts[0] : mergeSeries(smallest, parts);
    return true;
  }

  at(): Series {
    return this.current as Series;
  }

  err(): Error | null {
    return this.failure;
  }

  warnings(): readonly string[] {
    return this.sets.flatMap((s) => s.warnings());
  }

  private advance(i: number): void {
    this.valid[i] = this.sets[i].next();
    if (!this.valid[i]) {
      const e = this.sets[i].err();
      if (e && !this.failure) this.failure = e;
    }
  }
}

function mergeSeries(labels: Labels, parts: readonly Series[]): Series {
  return {
    labels,
    // The previous merged iterator's sources are handed on for reuse: each part's iterator keeps
    // its buffers (a block's chunk scratch and decoder), which would otherwise be allocated anew
    // for every series of every block.
    iterator: (reuse?: SeriesIterator) => {
      const old = reuse instanceof MergedSeriesIterator ? reuse : null;
      return new MergedSeriesIterator(parts.map((p, i) => p.iterator(old?.sourceAt(i))));
    },
  };
}

/** Merges sorted series sets; returns the only input unchanged when there is one. */
export function mergeSeriesSets(sets: readonly SeriesSet[]): SeriesSet {
  if (sets.length === 0) return emptySeriesSet();
  if (sets.length === 1) return sets[0];
  return new MergedSeriesSet(sets);
}
