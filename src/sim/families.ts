/**
 * Reusable metric families: a target builds its families and label sets once, and each render only
 * refreshes the sample values from the live state before formatting. This keeps a 1,000-instance
 * fleet's scrape round to formatting work (no label sets built per scrape).
 */
import { Labels, formatGoFloatG } from '../model/index.js';
import { formatTextExposition, type MetricFamily, type MetricType } from '../wire/index.js';
import type { Histogram } from './histogram.js';
import { formatOpenMetrics } from './openmetrics.js';

/** How `le` values are spelled: Python's prometheus_client (`1.0`, `1e+06`) or Go's (`1`, `1e+06`). */
export type LeStyle = 'python' | 'go';

/** Python's `repr(float)` as prometheus_client's `floatToGoString` turns it into text. */
export function pythonFloat(v: number): string {
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  if (Number.isNaN(v)) return 'NaN';
  let s: string;
  const a = Math.abs(v);
  if (a !== 0 && (a < 1e-4 || a >= 1e16)) {
    const [m, e] = v.toExponential().split('e');
    const exp = Number(e);
    s = `${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  } else s = Number.isInteger(v) ? `${v}.0` : String(v);
  const dot = s.indexOf('.');
  if (v > 0 && dot > 6 && !s.includes('e')) {
    const mantissa = `${s[0]}.${s.slice(1, dot)}`.replace(/\.?0+$/, '');
    return `${mantissa}e+0${dot - 1}`;
  }
  return s;
}

type Sample = MetricFamily['samples'][number];

/** A set of families whose values are pulled from live state on each render. */
export class FamilySet {
  private readonly families: MetricFamily[] = [];
  private readonly byName = new Map<string, MetricFamily>();
  private readonly updaters: (() => void)[] = [];

  /** Creates an empty set; `common` labels are added to every sample. */
  constructor(private readonly common: Readonly<Record<string, string>> = {}) {}

  private family(name: string, type: MetricType, help: string): MetricFamily {
    let f = this.byName.get(name);
    if (f === undefined) {
      f = { name, type, help, samples: [] };
      this.byName.set(name, f);
      this.families.push(f);
    }
    return f;
  }

  private labels(extra: Readonly<Record<string, string>> | undefined): Labels {
    return Labels.from({ ...this.common, ...extra });
  }

  /** Adds a gauge sample whose value is `get()` at render time. */
  gauge(name: string, help: string, get: () => number, labels?: Readonly<Record<string, string>>): void {
    this.scalar(name, 'gauge', help, get, labels);
  }

  /** Adds a counter sample (the name is exposed as given, `_total` included where the engine has it). */
  counter(name: string, help: string, get: () => number, labels?: Readonly<Record<string, string>>): void {
    this.scalar(name, 'counter', help, get, labels);
  }

  private scalar(name: string, type: MetricType, help: string, get: () => number, labels?: Readonly<Record<string, string>>): void {
    const s: Sample = { labels: this.labels(labels), value: 0 };
    this.family(name, type, help).samples.push(s);
    this.updaters.push(() => {
      s.value = get();
    });
  }

  /**
   * Adds a gauge family whose series come and go (one per replica of a component): `get()` lists
   * them at render time. Label sets are built per render, so keep it to families of a few series.
   */
  gaugeSeries(name: string, help: string, get: () => readonly { readonly labels: Readonly<Record<string, string>>; readonly value: number }[]): void {
    const f = this.family(name, 'gauge', help);
    this.updaters.push(() => {
      f.samples = get().map((x) => ({ labels: this.labels(x.labels), value: x.value }));
    });
  }

  /**
   * Adds a histogram (`_bucket` per bound and `+Inf`, `_sum`, `_count`) read from `get()` at render
   * time; bucket bounds and the sum are multiplied by `scale` (seconds to microseconds for DJL).
   */
  histogram(name: string, help: string, bounds: readonly number[], get: () => Histogram | null | undefined, o: { labels?: Readonly<Record<string, string>>; le?: LeStyle; scale?: number } = {}): void {
    const f = this.family(name, 'histogram', help);
    const scale = o.scale ?? 1;
    const fmt = o.le === 'go' ? formatGoFloatG : pythonFloat;
    const buckets: Sample[] = [...bounds, Infinity].map((b) => ({ suffix: '_bucket', labels: this.labels({ ...o.labels, le: fmt(b * scale) }), value: 0 }));
    const sum: Sample = { suffix: '_sum', labels: this.labels(o.labels), value: 0 };
    const count: Sample = { suffix: '_count', labels: this.labels(o.labels), value: 0 };
    f.samples.push(...buckets, sum, count);
    const cum = new Float64Array(bounds.length + 1);
    this.updaters.push(() => {
      const h = get();
      if (h === null || h === undefined) {
        cum.fill(0);
        sum.value = count.value = 0;
      } else {
        h.cumulative(cum);
        sum.value = h.sum * scale;
        count.value = h.count;
      }
      for (let i = 0; i < buckets.length; i++) buckets[i].value = cum[i];
    });
  }

  /** The number of samples (series) a render produces. */
  get seriesCount(): number {
    let n = 0;
    for (const f of this.families) n += f.samples.length;
    return n;
  }

  /** Refreshes the values and formats text exposition 0.0.4. */
  renderText(): string {
    for (const u of this.updaters) u();
    return formatTextExposition(this.families);
  }

  /** Refreshes the values and formats OpenMetrics 1.0. */
  renderOpenMetrics(): string {
    for (const u of this.updaters) u();
    return formatOpenMetrics(this.families);
  }
}
