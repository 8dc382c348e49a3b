/**
 * The cumulative series QualityMetrics writes besides the means: the evaluation duration
 * histogram, judge tokens, evaluation errors, stage-1 flags and sampled responses. Each is a
 * counter (a histogram is a family of them) kept in memory and written when flushed: only the
 * series that moved since the last flush, each at the newest time something was recorded for it,
 * and always after the series' last written sample (one ms later when that is no earlier), so a
 * series only goes forward. A failed write leaves them dirty: counters are cumulative, the next
 * flush writes what the failed one would have, and nothing is lost.
 */
import type { SeriesSample, UnixMs } from '../../model/index.js';

/** One counter series. */
interface Counter {
  readonly labels: Readonly<Record<string, string>>;
  value: number;
}

/** A group of counters written together at one time (a histogram's buckets, sum and count), or one counter. */
interface Group {
  readonly counters: Counter[];
  /** The time of its last written samples. */
  writtenMs: UnixMs;
  /** The newest time recorded since the last flush, or null when clean. */
  dirtyMs: UnixMs | null;
  /** Bumped by every change, so a flush knows whether the group moved while it was written. */
  version: number;
}

/** What `planFlush` hands back: the samples and, once they are stored, how to mark them clean. */
export interface FlushPlan {
  readonly samples: SeriesSample[];
  commit(): void;
}

/** Counters and histograms by key; see the module comment. */
export class CounterStore {
  private readonly groups = new Map<string, Group>();

  /** Adds `delta` to the counter `labels` (keyed by `key`), recorded at `tMs`. */
  add(key: string, labels: () => Readonly<Record<string, string>>, delta: number, tMs: UnixMs): void {
    let g = this.groups.get(key);
    if (g === undefined) {
      g = { counters: [{ labels: labels(), value: 0 }], writtenMs: Number.NEGATIVE_INFINITY, dirtyMs: null, version: 0 };
      this.groups.set(key, g);
    }
    g.version++;
    g.counters[0].value += delta;
    g.dirtyMs = g.dirtyMs === null ? tMs : Math.max(g.dirtyMs, tMs);
  }

  /**
   * Observes `v` into the histogram keyed by `key` with `bounds` (ascending, without +Inf):
   * `<name>_bucket{le}` cumulative, `<name>_sum`, `<name>_count`.
   */
  observe(key: string, name: string, labels: () => Readonly<Record<string, string>>, bounds: readonly number[], v: number, tMs: UnixMs): void {
    let g = this.groups.get(key);
    if (g === undefined) {
      const base = labels();
      const counters: Counter[] = [];
      const counter = (l: Readonly<Record<string, string>>): Counter => ({ labels: l, value: 0 });
      for (const b of bounds) counters.push(counter({ ...base, __name__: `${name}_bucket`, le: String(b) }));
      counters.push(counter({ ...base, __name__: `${name}_bucket`, le: '+Inf' }));
      counters.push(counter({ ...base, __name__: `${name}_sum` }), counter({ ...base, __name__: `${name}_count` }));
      g = { counters, writtenMs: Number.NEGATIVE_INFINITY, dirtyMs: null, version: 0 };
      this.groups.set(key, g);
    }
    g.version++;
    const c = g.counters;
    const n = bounds.length;
    for (let i = n - 1; i >= 0 && v <= bounds[i]; i--) c[i].value++;
    c[n].value++;
    c[n + 1].value += v;
    c[n + 2].value++;
    g.dirtyMs = g.dirtyMs === null ? tMs : Math.max(g.dirtyMs, tMs);
  }

  /** The samples of every dirty group; `commit()` once they are stored marks them clean at those times. */
  planFlush(): FlushPlan {
    const samples: SeriesSample[] = [];
    const done: [Group, UnixMs, number][] = [];
    for (const g of this.groups.values()) {
      if (g.dirtyMs === null) continue;
      const t = Math.max(g.dirtyMs, g.writtenMs + 1);
      for (const c of g.counters) samples.push({ labels: c.labels, tMs: t, value: c.value });
      done.push([g, t, g.version]);
    }
    return {
      samples,
      commit: () => {
        for (const [g, t, version] of done) {
          g.writtenMs = t;
          // A group that moved while the write was under way stays dirty.
          if (g.version === version) g.dirtyMs = null;
        }
      },
    };
  }

  /** How many dirty groups wait for a flush. */
  get dirty(): number {
    let n = 0;
    for (const g of this.groups.values()) if (g.dirtyMs !== null) n++;
    return n;
  }
}
