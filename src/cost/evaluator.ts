/**
 * The cost evaluator: at every tick (15 s by default) it asks the fleet a fixed set of fleet-wide
 * instant queries (queries.ts), computes in JS what each component costs and holds, the idle GPUs,
 * the bound verdicts and the efficiency against the benchmarks (tick.ts), and writes the cost series
 * through the `SeriesSink` (series.ts). `replay` computes a past span as if it had run live, with
 * range queries over an hour of ticks each (as src/diagnose/online/runner.ts does), so the demo's
 * history costs a few dozen queries per hour of data, not a dozen per tick.
 *
 * `llm_cost_dollars_total` accumulates across ticks and replays; at its first tick the evaluator
 * reads back the last stored value of each component's counter, so a restart continues it.
 */
import type { DurationMs, SeriesSample, SeriesSink, UnixMs } from '../model/index.js';
import { METRIC } from '../semconv/index.js';
import { parseSampleValue, type QueryClient } from '../query/index.js';
import type { BenchmarkCatalog } from './benchmark-catalog.js';
import { latencyCapacity } from './capacity.js';
import { BELOW_BENCHMARK, costFindings, type FindingState } from './findings.js';
import { costQueries, readInstant, readRange, type QueryName, type Readings } from './queries.js';
import { CostSeries } from './series.js';
import { computeTick, type TickResult } from './tick.js';
import type { CostEvaluator, CostSummary, PriceCatalog } from './types.js';

/** Options of `createCostEvaluator`. */
export interface CostEvaluatorOptions {
  readonly client: QueryClient;
  readonly sink: SeriesSink;
  /** Getters, so that a reloaded catalog takes effect at the next tick. */
  readonly prices: () => PriceCatalog;
  readonly benchmarks: () => BenchmarkCatalog;
  /** Time between ticks (default 15 s). */
  readonly intervalMs?: DurationMs;
  /** A held GPU is underused when its utilization stays below `utilizationBelow` (default 0.05) for `windowMs` (default 30 min). */
  readonly idle?: { readonly utilizationBelow?: number; readonly windowMs?: DurationMs };
  /** The window peak demand is taken over for over-provisioning (default 1 h). */
  readonly overprovisioningWindowMs?: DurationMs;
  /** Rates and activity averages (default 5 min). */
  readonly rateWindowMs?: DurationMs;
  /** The fleet's scrape interval (default 15 s): a replica last scraped longer ago than a bit over it is gone. */
  readonly scrapeIntervalMs?: DurationMs;
  /** Virtual seconds per wall-clock second of a simulated fleet (`Simulation.speed`), for the benchmarks' rates (default 1). */
  readonly rateScale?: () => number;
}

/** Ticks read per range query in a replay: an hour at 15 s. */
const TICKS_PER_CHUNK = 240;
/** A gap between ticks longer than this many intervals is downtime: it is not billed. */
const MAX_GAP_INTERVALS = 10;
/** How far back the first tick looks for the last stored accumulated cost. */
const RESTORE_LOOKBACK = '30d';

/** Creates the evaluator (nothing runs until `evaluate` or `replay` is called). */
export function createCostEvaluator(o: CostEvaluatorOptions): CostEvaluator {
  return new Evaluator(o);
}

class Evaluator implements CostEvaluator {
  readonly intervalMs: DurationMs;
  private readonly queries: Readonly<Record<QueryName, string>>;
  private readonly utilizationBelow: number;
  private readonly windowMs: DurationMs;
  private readonly series = new CostSeries();
  private readonly totals = new Map<string, number>();
  private readonly idleSince = new Map<string, UnixMs>();
  private readonly belowSince = new Map<string, UnixMs>();
  private readonly demand = new Map<string, { tMs: UnixMs; running: number; outputTps: number }[]>();
  private overprovisioning = new Map<string, number>();
  private restored = false;
  private lastTickMs: UnixMs = -Infinity;
  private last: { tMs: UnixMs; tick: TickResult } | null = null;

  constructor(private readonly o: CostEvaluatorOptions) {
    this.intervalMs = o.intervalMs ?? 15_000;
    this.utilizationBelow = o.idle?.utilizationBelow ?? 0.05;
    this.windowMs = o.overprovisioningWindowMs ?? 3_600_000;
    const scrape = o.scrapeIntervalMs ?? 15_000;
    this.queries = costQueries({ rateMs: o.rateWindowMs ?? 300_000, idleMs: o.idle?.windowMs ?? 1_800_000, freshMs: scrape + Math.max(5_000, Math.round(scrape / 10)) });
  }

  async evaluate(tMs: UnixMs, signal?: AbortSignal): Promise<void> {
    if (tMs <= this.lastTickMs) return;
    await this.restore(tMs, signal);
    const rd = await readInstant(this.o.client, this.queries, tMs, signal);
    const samples = this.step(tMs, rd);
    if (samples.length > 0) await this.o.sink.write(samples);
  }

  async replay(fromMs: UnixMs, toMs: UnixMs, signal?: AbortSignal): Promise<number> {
    const step = this.intervalMs;
    let t = Math.max(Math.ceil(fromMs / step), Math.floor(this.lastTickMs / step) + 1) * step;
    let n = 0;
    while (t <= toMs) {
      signal?.throwIfAborted();
      await this.restore(t, signal);
      const end = Math.min(toMs, t + (TICKS_PER_CHUNK - 1) * step);
      const ticks = await readRange(this.o.client, this.queries, t, end, step, signal);
      const samples: SeriesSample[] = [];
      for (const [tMs, rd] of ticks) {
        for (const s of this.step(tMs, rd)) samples.push(s);
        n++;
      }
      if (samples.length > 0) await this.o.sink.write(samples);
      t = Math.floor(end / step) * step + step;
    }
    return n;
  }

  async summary(tMs: UnixMs, signal?: AbortSignal): Promise<CostSummary> {
    const prices = this.o.prices();
    // The last tick's result when it is the tick at `tMs`; else the fleet read at `tMs` (history).
    const tick = this.last !== null && tMs >= this.last.tMs && tMs - this.last.tMs < this.intervalMs ? this.last.tick : computeTick(await readInstant(this.o.client, this.queries, tMs, signal), prices, this.o.benchmarks(), this.tickOptions());
    const idle = tick.instances.reduce((s, i) => ({ gpus: s.gpus + i.unallocated.length + i.underused.length, dollarsPerHour: s.dollarsPerHour + i.idleDollarsPerHour }), { gpus: 0, dollarsPerHour: 0 });
    return {
      timeMs: tMs,
      catalog: { takenOn: prices.takenOn, region: prices.region, instanceTypes: prices.instances.size },
      components: tick.components.map((c) => ({
        endpoint: c.endpoint,
        component: c.component,
        model: c.model,
        dollarsPerHour: c.dollarsPerHour,
        gpus: c.gpus,
        dollarsPerMillionInputTokens: c.dollarsPerMillionInputTokens,
        dollarsPerMillionOutputTokens: c.dollarsPerMillionOutputTokens,
        benchmarkEfficiency: c.efficiency,
      })),
      idle,
      verdicts: tick.replicas.map((r) => r.verdict),
      findings: costFindings(tMs, tick, this.findingState()),
    };
  }

  private tickOptions(): { utilizationBelow: number; rateScale: number } {
    return { utilizationBelow: this.utilizationBelow, rateScale: this.o.rateScale?.() ?? 1 };
  }

  /** Reads the accumulated cost stored before the first tick, so that a restart continues it. */
  private async restore(tMs: UnixMs, signal?: AbortSignal): Promise<void> {
    if (this.restored) return;
    this.restored = true;
    const q = `max by (endpoint, component, model) (last_over_time(${METRIC.LLM_COST_DOLLARS_TOTAL}[${RESTORE_LOOKBACK}]))`;
    const res = await this.o.client.instant(q, tMs - 1, { signal });
    if (res.data.resultType !== 'vector') return;
    for (const s of res.data.result) {
      const v = parseSampleValue(s.value[1]);
      if (Number.isFinite(v)) this.totals.set(`${s.metric.endpoint ?? ''}/${s.metric.component ?? ''}`, v);
    }
  }

  /** Computes one tick, updates what spans ticks, and returns its samples. */
  private step(tMs: UnixMs, rd: Readings): SeriesSample[] {
    const tick = computeTick(rd, this.o.prices(), this.o.benchmarks(), this.tickOptions());
    const dt = this.lastTickMs === -Infinity ? 0 : Math.min(tMs - this.lastTickMs, MAX_GAP_INTERVALS * this.intervalMs);
    this.lastTickMs = tMs;
    this.last = { tMs, tick };
    const seen = new Set<string>();
    for (const c of tick.components) {
      const k = `${c.endpoint}/${c.component}`;
      seen.add(k);
      // A component seen for the first time starts at 0; afterwards each tick adds the hour's rate
      // times the time since the previous tick (right Riemann sum at the tick's interval).
      const before = this.totals.get(k);
      this.totals.set(k, before === undefined ? 0 : before + (c.dollarsPerHour * dt) / 3_600_000);
      this.trackBelow(k, c.efficiency, tMs);
      this.trackDemand(k, tMs, c.running, c.outputTps);
    }
    for (const k of this.belowSince.keys()) if (!seen.has(k)) this.belowSince.delete(k);
    for (const k of this.demand.keys()) if (!seen.has(k)) this.demand.delete(k);
    this.trackIdle(tick, tMs);
    this.overprovisioning = new Map();
    for (const c of tick.components) {
      const k = `${c.endpoint}/${c.component}`;
      const peak = this.peak(k);
      if (c.benchmark === undefined || peak === undefined) continue;
      const cap = latencyCapacity(c.benchmark);
      // The tighter of the two: sequences in flight, and output tokens per second.
      const byConcurrency = (c.replicas * cap.concurrency) / Math.max(0.1, peak.running);
      const byTokens = (c.replicas * cap.outputTps) / Math.max(1, peak.outputTps);
      this.overprovisioning.set(k, Math.min(byConcurrency, byTokens));
    }
    return this.series.samples(tMs, tick, { costTotal: this.totals, overprovisioning: this.overprovisioning });
  }

  private trackBelow(k: string, efficiency: number | null, tMs: UnixMs): void {
    if (efficiency !== null && efficiency < BELOW_BENCHMARK) {
      if (!this.belowSince.has(k)) this.belowSince.set(k, tMs);
    } else this.belowSince.delete(k);
  }

  private trackDemand(k: string, tMs: UnixMs, running: number, outputTps: number): void {
    const d = this.demand.get(k) ?? [];
    d.push({ tMs, running, outputTps });
    let drop = 0;
    while (drop < d.length && d[drop].tMs <= tMs - this.windowMs) drop++;
    if (drop > 0) d.splice(0, drop);
    this.demand.set(k, d);
  }

  private peak(k: string): { running: number; outputTps: number; sinceMs: UnixMs } | undefined {
    const d = this.demand.get(k);
    if (d === undefined || d.length === 0) return undefined;
    let running = 0;
    let outputTps = 0;
    for (const x of d) {
      running = Math.max(running, x.running);
      outputTps = Math.max(outputTps, x.outputTps);
    }
    return { running, outputTps, sinceMs: d[0].tMs };
  }

  private trackIdle(tick: TickResult, tMs: UnixMs): void {
    const now = new Set<string>();
    for (const i of tick.instances) for (const g of [...i.unallocated, ...i.underused]) now.add(`${i.instance}/${g}`);
    for (const k of this.idleSince.keys()) if (!now.has(k)) this.idleSince.delete(k);
    for (const k of now) if (!this.idleSince.has(k)) this.idleSince.set(k, tMs);
  }

  private findingState(): FindingState {
    const peaks = new Map<string, { running: number; outputTps: number; sinceMs: UnixMs }>();
    for (const k of this.demand.keys()) {
      const p = this.peak(k);
      if (p !== undefined) peaks.set(k, p);
    }
    return { idleSince: this.idleSince, belowSince: this.belowSince, peaks, overprovisioning: this.overprovisioning, windowMs: this.windowMs };
  }
}
