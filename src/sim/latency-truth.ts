/**
 * The exact latencies behind the simulator's histograms: every value an engine or front door
 * observes is also kept here, with its virtual time, weight and instance, in a bounded ring per
 * component and kind. Tests compare what a dashboard computes from the scraped buckets with the
 * quantile of these values (docs/design/histogram-layouts.md). Nothing here reads a clock: times
 * are the simulation's virtual milliseconds; a full ring drops its oldest values.
 */

/**
 * What is recorded, each as the histogram of the same meaning observes it: engine time to first
 * token, inter-token latency (one value per decode step, weighted by the tokens it produced),
 * time per output token and end-to-end latency of finished and aborted requests; the front
 * door's time to first token and request duration (engine time plus the platform overhead).
 */
export type TruthKind = 'ttft' | 'itl' | 'tpot' | 'e2e' | 'client_ttft' | 'client_e2e';

/** One recorded value: virtual time (ms), seconds, weight, and the instance that served it ('' at the front door). */
export interface TruthSample {
  readonly tMs: number;
  readonly valueS: number;
  readonly weight: number;
  readonly instance: string;
}

/** Values per ring when none is given: about an hour of a demo component's requests, a few minutes of its decode steps. */
export const DEFAULT_TRUTH_CAPACITY = 8192;

/** A ring of the most recent `capacity` values of one kind, grown as it fills (an idle kind costs nothing). */
export class LatencyLog {
  private t = new Float64Array(0);
  private v = new Float64Array(0);
  private w = new Float64Array(0);
  private inst = new Int32Array(0);
  private readonly instances: string[] = [];
  private readonly instanceIndex = new Map<string, number>();
  private next = 0;
  /** Values held (at most `capacity`). */
  size = 0;

  /** An empty log that keeps at most `capacity` values. */
  constructor(readonly capacity: number = DEFAULT_TRUTH_CAPACITY) {}

  /** Records `weight` observations of `valueS` at `tMs`, served on `instance`. */
  record(tMs: number, valueS: number, weight: number, instance: string): void {
    if (weight <= 0 || this.capacity <= 0) return;
    if (this.size === this.t.length && this.size < this.capacity) this.grow();
    let i = this.instanceIndex.get(instance);
    if (i === undefined) {
      i = this.instances.push(instance) - 1;
      this.instanceIndex.set(instance, i);
    }
    const at = this.next;
    this.t[at] = tMs;
    this.v[at] = valueS;
    this.w[at] = weight;
    this.inst[at] = i;
    this.next = (at + 1) % this.capacity;
    this.size = Math.min(this.size + 1, this.capacity);
  }

  /** The oldest virtual time still held (Infinity when empty): values before it were dropped. */
  get oldestMs(): number {
    if (this.size === 0) return Number.POSITIVE_INFINITY;
    return this.t[this.size < this.capacity ? 0 : this.next];
  }

  /** The values recorded in (`fromMs`, `toMs`], on `instance` when given, oldest first. */
  samples(fromMs: number, toMs: number, instance?: string): TruthSample[] {
    const out: TruthSample[] = [];
    const start = this.size < this.capacity ? 0 : this.next;
    for (let k = 0; k < this.size; k++) {
      const i = (start + k) % this.capacity;
      const name = this.instances[this.inst[i]];
      if (this.t[i] > fromMs && this.t[i] <= toMs && (instance === undefined || name === instance)) {
        out.push({ tMs: this.t[i], valueS: this.v[i], weight: this.w[i], instance: name });
      }
    }
    return out;
  }

  private grow(): void {
    const n = Math.min(this.capacity, Math.max(64, this.t.length * 2));
    const copy = <T extends Float64Array | Int32Array>(a: T, b: T): T => (b.set(a), b);
    this.t = copy(this.t, new Float64Array(n));
    this.v = copy(this.v, new Float64Array(n));
    this.w = copy(this.w, new Float64Array(n));
    this.inst = copy(this.inst, new Int32Array(n));
  }
}

/** The latency logs of one component, one per kind. */
export class LatencyTruth {
  private readonly logs = new Map<TruthKind, LatencyLog>();

  /** Logs that keep at most `capacity` values each. */
  constructor(readonly capacity: number = DEFAULT_TRUTH_CAPACITY) {}

  /** The log of `kind`. */
  log(kind: TruthKind): LatencyLog {
    let l = this.logs.get(kind);
    if (l === undefined) this.logs.set(kind, (l = new LatencyLog(this.capacity)));
    return l;
  }

  /** Records `weight` observations of `valueS` of `kind` at `tMs` on `instance`. */
  record(kind: TruthKind, tMs: number, valueS: number, weight: number, instance: string): void {
    this.log(kind).record(tMs, valueS, weight, instance);
  }
}

/**
 * The exact q-quantile of weighted values: the smallest value whose cumulative weight reaches
 * `q` times the total, which is the order statistic `histogram_quantile` locates (it finds the
 * bucket where the cumulative count first reaches `q · count`). NaN for no values.
 */
export function exactQuantile(q: number, samples: readonly Pick<TruthSample, 'valueS' | 'weight'>[]): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a.valueS - b.valueS);
  const total = sorted.reduce((s, x) => s + x.weight, 0);
  const rank = q * total;
  let acc = 0;
  for (const s of sorted) {
    acc += s.weight;
    if (acc >= rank) return s.valueS;
  }
  return sorted[sorted.length - 1].valueS;
}
