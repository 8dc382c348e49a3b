/**
 * The online insight runner: every tick (about the scrape interval) it reads each symptom per scope
 * and the burning SLOs through a `QueryClient`, steps the tracker, asks the `Diagnoser` for the
 * causes of what opened (and again a minute and two minutes later, then every ten minutes while it
 * stays open: a diagnosis sharpens as the incident window fills), and writes the insights as series.
 *
 * Ticks sit on multiples of the interval. Live ticks and a replay over past data (`replay`, the
 * demo's history: as the rules' backfill, computed as if the runner had run live) read the same
 * way: range queries over a span of ticks, so a replay of hours costs a few queries per hour of
 * data, not a few per tick.
 */
import { noopLogger, systemTimers, type Clock, type DurationMs, type Logger, type Timers, type UnixMs } from '../../model/index.js';
import { parseSampleValue, type QueryClient, type RangeSeries } from '../../query/index.js';
import type { Diagnoser, Insight, Scope, Symptom } from '../types.js';
import { InsightSeries, type InsightSink } from './series.js';
import { BASELINE_WINDOW, DEFAULT_SYMPTOM_RULES, SCOPE_LABELS, SLO_BURN_EXPR, scopeMatchers, sloSymptom, symptomQuery, type SymptomRule } from './symptoms.js';
import { InsightTracker, type Observation, type TrackedInsight, type TrackerOptions } from './tracker.js';

/** Options of `InsightRunner`. */
export interface InsightRunnerOptions extends TrackerOptions {
  readonly client: QueryClient;
  readonly diagnoser: Diagnoser;
  /** Where the `llm_diagnosis_*` series go; none written when absent. */
  readonly sink?: InsightSink;
  readonly clock: Clock;
  /** Live ticks' timers (tests pass virtual ones). */
  readonly timers?: Timers;
  readonly logger?: Logger;
  /** Time between ticks; the scrape interval is a good choice (default 15 s). */
  readonly intervalMs?: DurationMs;
  /** The watched symptoms (default `DEFAULT_SYMPTOM_RULES`). */
  readonly rules?: readonly SymptomRule[];
  /** Most insights kept for `insights()`; the oldest resolved ones go first (default 10,000). */
  readonly maxInsights?: number;
}

/** Ticks read per range query in a replay: an hour at 15 s. */
const TICKS_PER_CHUNK = 240;

/** When an open insight is diagnosed again: a minute after the previous diagnosis twice, then every ten minutes. */
function rediagnoseDue(i: TrackedInsight, tMs: UnixMs): boolean {
  if (i.diagnosedMs === null) return true;
  return tMs - i.diagnosedMs >= (i.diagnoses < 3 ? 60_000 : 600_000);
}

/** The selector that narrows a diagnosis to an insight's scope (none for a fleet-wide insight). */
export function scopeSelector(scope: Scope): string | undefined {
  const m = scopeMatchers(scope);
  return m === '' ? undefined : `{${m}}`;
}

function scopeOf(metric: Readonly<Record<string, string>>): Scope {
  const out: Record<string, string> = {};
  for (const l of SCOPE_LABELS) if (metric[l] !== undefined && metric[l] !== '') out[l] = metric[l];
  return out;
}

/** A range result as value per time, per scope. */
function byTime(series: readonly RangeSeries[]): Map<string, { scope: Scope; values: Map<UnixMs, number> }> {
  const out = new Map<string, { scope: Scope; values: Map<UnixMs, number> }>();
  for (const s of series) {
    const scope = scopeOf(s.metric);
    const key = JSON.stringify(scope);
    const entry = out.get(key) ?? { scope, values: new Map<UnixMs, number>() };
    for (const [sec, v] of s.values) entry.values.set(Math.round(sec * 1000), parseSampleValue(v));
    out.set(key, entry);
  }
  return out;
}

/** The highest value in `[fromMs, toMs]`; null when there is none. */
function windowMax(values: ReadonlyMap<UnixMs, number> | undefined, fromMs: UnixMs, toMs: UnixMs): number | null {
  let max: number | null = null;
  for (const [t, v] of values ?? []) if (t >= fromMs && t <= toMs && Number.isFinite(v) && (max === null || v > max)) max = v;
  return max;
}

/** The runner. Call `replay` (optional) before `start`; `stop` ends live ticks. */
export class InsightRunner {
  private readonly tracker: InsightTracker;
  private readonly series = new InsightSeries();
  private readonly rules: readonly SymptomRule[];
  private readonly intervalMs: DurationMs;
  private readonly logger: Logger;
  private readonly list: TrackedInsight[] = [];
  /** The last tick evaluated: no tick is ever evaluated twice or out of order. */
  private lastTickMs: UnixMs = -Infinity;
  private cancel: (() => void) | null = null;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly o: InsightRunnerOptions) {
    this.tracker = new InsightTracker(o);
    this.rules = o.rules ?? DEFAULT_SYMPTOM_RULES;
    this.intervalMs = o.intervalMs ?? 15_000;
    this.logger = o.logger ?? noopLogger;
  }

  /** The PromQL this runner watches `symptom` with, narrowed to `scope`. */
  symptomQuery(symptom: Symptom, scope: Scope): string | undefined {
    return symptomQuery(symptom, scope, this.rules);
  }

  /** The insights open at some time in `[startMs, endMs]`, oldest onset first (copies). */
  insights(startMs: UnixMs, endMs: UnixMs): Insight[] {
    return this.list
      .filter((i) => i.onsetMs <= endMs && (i.resolvedMs === null || i.resolvedMs >= startMs))
      .sort((a, b) => a.onsetMs - b.onsetMs || a.id.localeCompare(b.id))
      .map((i) => ({ id: i.id, symptom: i.symptom, scope: i.scope, onsetMs: i.onsetMs, detectedMs: i.detectedMs, resolvedMs: i.resolvedMs, causes: i.causes }));
  }

  /**
   * Evaluates every tick in `[fromMs, toMs]` after the last one evaluated, in order, as live ticks
   * would have (the demo's history). Resolves with the ticks evaluated.
   */
  async replay(fromMs: UnixMs, toMs: UnixMs, signal?: AbortSignal): Promise<number> {
    let n = 0;
    let t = Math.max(Math.ceil(fromMs / this.intervalMs), Math.floor(this.lastTickMs / this.intervalMs) + 1) * this.intervalMs;
    while (t <= toMs) {
      signal?.throwIfAborted();
      const end = Math.min(toMs, t + (TICKS_PER_CHUNK - 1) * this.intervalMs);
      n += await this.evaluate(t, end, signal);
      t = Math.floor(end / this.intervalMs) * this.intervalMs + this.intervalMs;
    }
    return n;
  }

  /** Starts live ticks on the interval's multiples after now (and after the last replayed tick). */
  start(): void {
    this.stopped = false;
    this.schedule();
  }

  /** Ends live ticks; resolves once a tick under way has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.cancel?.();
    this.cancel = null;
    await this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    const now = this.o.clock();
    const next = (Math.floor(Math.max(now, this.lastTickMs) / this.intervalMs) + 1) * this.intervalMs;
    this.cancel = (this.o.timers ?? systemTimers).setTimeout(() => {
      this.running = this.evaluate(next, next)
        .then(
          () => undefined,
          (e: unknown) => this.logger.error('insight tick failed', { err: e instanceof Error ? e.message : String(e) }),
        )
        .finally(() => this.schedule());
    }, next - now);
  }

  /** Reads the ticks of `[fromMs, toMs]` (multiples of the interval) and steps through them. */
  private async evaluate(fromMs: UnixMs, toMs: UnixMs, signal?: AbortSignal): Promise<number> {
    const step = this.intervalMs;
    // The baseline window is read at a coarser step: its highest value does not need every tick.
    const baselineStep = Math.max(step, 60_000);
    const read = async (expr: string, from: UnixMs, to: UnixMs, stepMs: DurationMs) => byTime((await this.o.client.range(expr, from, to, stepMs, { signal })).data.result);
    const perRule = await Promise.all(
      this.rules.map(async (r) => ({
        rule: r,
        now: await read(r.expr(''), fromMs, toMs, step),
        before: await read(r.expr(''), Math.floor((fromMs - BASELINE_WINDOW.fromMs) / baselineStep) * baselineStep, toMs - BASELINE_WINDOW.toMs, baselineStep),
      })),
    );
    const slo = await this.o.client.range(SLO_BURN_EXPR, fromMs, toMs, step, { signal });
    let ticks = 0;
    for (let t = fromMs; t <= toMs; t += step) {
      if (t <= this.lastTickMs) continue;
      const obs: Observation[] = [];
      for (const { rule, now, before } of perRule) {
        for (const [key, { scope, values }] of now) {
          const value = values.get(t);
          if (value === undefined) continue;
          obs.push({ symptom: rule.symptom, scope, rule, value, baseline: windowMax(before.get(key)?.values, t - BASELINE_WINDOW.fromMs, t - BASELINE_WINDOW.toMs) });
        }
      }
      for (const s of slo.data.result) {
        const symptom = sloSymptom(s.metric.slo ?? '');
        if (symptom !== undefined && s.values.some(([sec]) => Math.round(sec * 1000) === t)) obs.push({ symptom, scope: scopeOf(s.metric), rule: null, value: null, baseline: null });
      }
      await this.tick(t, obs, signal);
      ticks++;
    }
    return ticks;
  }

  private async tick(tMs: UnixMs, obs: readonly Observation[], signal?: AbortSignal): Promise<void> {
    this.lastTickMs = tMs;
    const changes = this.tracker.step(tMs, obs);
    for (const i of changes.opened) this.keep(i);
    for (const i of changes.open) {
      if (!rediagnoseDue(i, tMs)) continue;
      i.diagnosedMs = tMs;
      i.diagnoses++;
      const match = scopeSelector(i.scope);
      try {
        const d = await this.o.diagnoser({ timeMs: tMs, symptom: i.symptom, ...(match === undefined ? {} : { match: [match] }), signal });
        i.causes = d.causes;
      } catch (e) {
        if (signal?.aborted === true) throw e;
        this.logger.warn('diagnosing an insight failed', { insight: i.id, err: e instanceof Error ? e.message : String(e) });
      }
    }
    const samples = this.series.samples(tMs, changes.open, changes.resolved);
    if (this.o.sink !== undefined && samples.length > 0) {
      await this.o.sink.write(samples).catch((e: unknown) => this.logger.warn('writing insight series failed', { err: e instanceof Error ? e.message : String(e) }));
    }
  }

  private keep(i: TrackedInsight): void {
    this.list.push(i);
    const max = this.o.maxInsights ?? 10_000;
    while (this.list.length > max) {
      const at = this.list.findIndex((x) => x.resolvedMs !== null);
      this.list.splice(at < 0 ? 0 : at, 1);
    }
  }
}
