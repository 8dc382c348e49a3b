/**
 * The gateway's in-memory metrics: counters, gauges and classic histograms keyed by name and
 * labels, written as a whole through an `Appender` at one timestamp (a scrape of itself) and
 * rendered as text exposition for `GET /metrics`. Instruments are created once per label set and
 * kept by the caller, so the request path touches no map.
 */
import { Labels, STALE_NAN, formatGoFloatG, type UnixMs } from '../model/index.js';
import { StorageError, type Appender, type SeriesRef } from '../storage/index.js';
import type { MetricFamily } from '../wire/index.js';

/** A monotonically increasing count. */
export class Counter {
  value = 0;
  /** Adds `n` (default 1). */
  inc(n = 1): void {
    this.value += n;
  }
}

/** A value that goes up and down. */
export class Gauge {
  value = 0;
  /** Sets the value. */
  set(v: number): void {
    this.value = v;
  }
  /** Adds `n` (may be negative). */
  add(n: number): void {
    this.value += n;
  }
}

/** A classic histogram: per-bucket counts (not cumulative in memory), sum and count. */
export class Histogram {
  /** counts[i]: observations in (bounds[i-1], bounds[i]]; the last slot is (last bound, +Inf). */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  /** `bounds`: the finite upper bounds, increasing. */
  constructor(readonly bounds: readonly number[]) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  /** Records one value. */
  observe(v: number): void {
    const b = this.bounds;
    let i = 0;
    while (i < b.length && v > b[i]) i++;
    this.counts[i]++;
    this.sum += v;
    this.count++;
  }
}

type Instrument = { kind: 'counter'; m: Counter } | { kind: 'gauge'; m: Gauge } | { kind: 'histogram'; m: Histogram };

interface Series {
  readonly name: string;
  /** Labels without `__name__`. */
  readonly labels: Labels;
  readonly inst: Instrument;
  /** Output label sets with `__name__` (histograms: every bucket, then _sum, _count), built on first write. */
  out: Labels[] | null;
  refs: SeriesRef[];
}

/** What a flush did. */
export interface WriteResult {
  readonly samples: number;
  /** Samples the storage refused (logged by the caller). */
  readonly rejected: number;
  readonly firstError: StorageError | null;
}

/** Counters, gauges and histograms by name and labels, with help texts by name. */
export class MetricsRegistry {
  private series: Series[] = [];
  private readonly byKey = new Map<string, Series>();
  /** Series removed since the last write: they get a staleness marker, then are forgotten. */
  private retired: Series[] = [];
  private readonly help = new Map<string, string>();

  private get(name: string, labels: Readonly<Record<string, string>>, make: () => Instrument): Instrument {
    const l = Labels.from(labels);
    const key = `${name}\u0000${l.key()}`;
    let s = this.byKey.get(key);
    if (s === undefined) {
      s = { name, labels: l, inst: make(), out: null, refs: [] };
      this.byKey.set(key, s);
      this.series.push(s);
    }
    return s.inst;
  }

  /** Sets the help text of family `name`. */
  describe(name: string, help: string): void {
    this.help.set(name, help);
  }

  /** The counter `name{labels}` (created at 0 on first use). */
  counter(name: string, labels: Readonly<Record<string, string>>): Counter {
    const i = this.get(name, labels, () => ({ kind: 'counter', m: new Counter() }));
    if (i.kind !== 'counter') throw new Error(`metrics: ${name} is a ${i.kind}`);
    return i.m;
  }

  /** The gauge `name{labels}`. */
  gauge(name: string, labels: Readonly<Record<string, string>>): Gauge {
    const i = this.get(name, labels, () => ({ kind: 'gauge', m: new Gauge() }));
    if (i.kind !== 'gauge') throw new Error(`metrics: ${name} is a ${i.kind}`);
    return i.m;
  }

  /** The histogram `name{labels}` with upper bounds `bounds`. */
  histogram(name: string, bounds: readonly number[], labels: Readonly<Record<string, string>>): Histogram {
    const i = this.get(name, labels, () => ({ kind: 'histogram', m: new Histogram(bounds) }));
    if (i.kind !== 'histogram') throw new Error(`metrics: ${name} is a ${i.kind}`);
    return i.m;
  }

  /** The number of instruments. */
  get size(): number {
    return this.series.length;
  }

  private outputs(s: Series): Labels[] {
    if (s.out !== null) return s.out;
    const base: string[] = [];
    s.labels.forEach((n, v) => base.push(n, v));
    const named = (name: string, extra: string[] = []): Labels => Labels.fromPairs(['__name__', name, ...base, ...extra]);
    if (s.inst.kind !== 'histogram') s.out = [named(s.name)];
    else {
      const b = s.inst.m.bounds;
      s.out = [...b.map((le) => named(`${s.name}_bucket`, ['le', formatGoFloatG(le)])), named(`${s.name}_bucket`, ['le', '+Inf']), named(`${s.name}_sum`), named(`${s.name}_count`)];
    }
    return s.out;
  }

  /**
   * Removes every series whose labels `match` (a replica that left the configuration): the next
   * `writeTo` marks them stale, as Prometheus does for a series that disappears. Returns how many.
   */
  retire(match: (labels: Labels) => boolean): number {
    const keep: Series[] = [];
    let n = 0;
    for (const s of this.series) {
      if (!match(s.labels)) {
        keep.push(s);
        continue;
      }
      n++;
      this.byKey.delete(`${s.name}\u0000${s.labels.key()}`);
      if (s.out !== null) this.retired.push(s);
    }
    this.series = keep;
    return n;
  }

  /** Stages every instrument's current value at `tMs` (histogram buckets cumulative). Never throws a StorageError. */
  writeTo(app: Appender, tMs: UnixMs): WriteResult {
    let samples = 0;
    let rejected = 0;
    let firstError: StorageError | null = null;
    const put = (s: Series, i: number, labels: Labels, v: number): void => {
      try {
        s.refs[i] = app.append(s.refs[i] ?? 0, labels, tMs, v);
        samples++;
      } catch (e) {
        if (!(e instanceof StorageError)) throw e;
        rejected++;
        firstError ??= e;
      }
    };
    for (const s of this.retired) {
      const out = s.out!;
      for (let i = 0; i < out.length; i++) put(s, i, out[i], STALE_NAN);
    }
    this.retired = [];
    for (const s of this.series) {
      const out = this.outputs(s);
      if (s.inst.kind !== 'histogram') {
        put(s, 0, out[0], s.inst.m.value);
        continue;
      }
      const h = s.inst.m;
      let cum = 0;
      for (let i = 0; i < h.counts.length; i++) {
        cum += h.counts[i];
        put(s, i, out[i], cum);
      }
      put(s, h.counts.length, out[h.counts.length], h.sum);
      put(s, h.counts.length + 1, out[h.counts.length + 1], h.count);
    }
    return { samples, rejected, firstError };
  }

  /** Forgets storage references (after the Appendable changed). */
  resetRefs(): void {
    for (const s of this.series) s.refs = [];
  }

  /** The metric families for text exposition, sorted by name. */
  families(): MetricFamily[] {
    const byName = new Map<string, MetricFamily>();
    for (const s of this.series) {
      let f = byName.get(s.name);
      if (f === undefined) {
        f = { name: s.name, help: this.help.get(s.name) ?? s.name, type: s.inst.kind, samples: [] };
        byName.set(s.name, f);
      }
      if (s.inst.kind !== 'histogram') {
        f.samples.push({ labels: s.labels, value: s.inst.m.value });
        continue;
      }
      const h = s.inst.m;
      let cum = 0;
      const pairs: string[] = [];
      s.labels.forEach((n, v) => pairs.push(n, v));
      for (let i = 0; i < h.counts.length; i++) {
        cum += h.counts[i];
        f.samples.push({ suffix: '_bucket', labels: Labels.fromPairs([...pairs, 'le', i < h.bounds.length ? formatGoFloatG(h.bounds[i]) : '+Inf']), value: cum });
      }
      f.samples.push({ suffix: '_sum', labels: s.labels, value: h.sum }, { suffix: '_count', labels: s.labels, value: h.count });
    }
    return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
}
