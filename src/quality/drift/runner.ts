/**
 * The drift runner: every tick (a minute by default) it reads the judged scores and the input
 * distributions per model and component through a `QueryClient`, steps one detector per subject
 * (Page–Hinkley per score dimension; PSI and KS per input feature), writes
 * `llm_quality_drift_score` and `llm_quality_drift_event` through a `SeriesSink`, and keeps the
 * drift events for `events()`.
 *
 * Ticks sit on multiples of the interval. Live ticks and a replay over past data (`replay`: the
 * demo's history, computed as if the runner had run live) read the same way, range queries over a
 * span of ticks (an hour per chunk), so a replay costs a few queries per hour of data and gives the
 * same ticks and the same results as live ticks over the same data.
 */
import { noopLogger, STALE_NAN, systemTimers, type Clock, type DurationMs, type Logger, type SeriesSample, type SeriesSink, type Timers, type UnixMs } from '../../model/index.js';
import { parseSampleValue, type QueryClient, type RangeSeries } from '../../query/index.js';
import { QUALITY_DIMENSIONS, STAGE1_FLAGS, type DriftEvent, type DriftSubject, type QualityDimension, type Stage1Flag } from '../types.js';

/** The input features a subject can have. */
type FeatureName = Extract<DriftSubject, { kind: 'input' }>['feature'];
import { binsFromBuckets, type Bins } from './distribution.js';
import { DEFAULT_INPUT_FEATURES, DEFAULT_INPUT_WINDOWS, SCORE_EXPR, featureQueries, type InputFeature, type InputWindows } from './features.js';
import { DEFAULT_INPUT_DRIFT, InputDriftDetector, type InputDriftParams } from './input-detector.js';
import { DEFAULT_SCORE_DRIFT, ScoreDriftDetector, type ScoreDriftParams } from './score-detector.js';
import { inputSummary, scoreSummary } from './summary.js';

/** The series the runner writes (catalog entries: src/semconv/catalog-quality.ts). */
export const DRIFT_SCORE_METRIC = 'llm_quality_drift_score';
export const DRIFT_EVENT_METRIC = 'llm_quality_drift_event';

/** The detectors' parameters; every field has a default (docs/design/quality-drift.md). */
export interface DriftParams {
  readonly score?: Partial<ScoreDriftParams>;
  readonly input?: Partial<InputDriftParams>;
  readonly windows?: Partial<InputWindows>;
  readonly features?: readonly InputFeature[];
}

/** Options of `DriftRunner`. */
export interface DriftRunnerOptions {
  readonly client: QueryClient;
  /** Where the drift series go. */
  readonly sink: SeriesSink;
  readonly clock: Clock;
  /** Live ticks' timers (tests pass virtual ones). */
  readonly timers?: Timers;
  readonly logger?: Logger;
  /** Time between ticks (default a minute: the scores are five-minute means already). */
  readonly intervalMs?: DurationMs;
  readonly params?: DriftParams;
  /** Most events kept for `events()`; the oldest resolved ones go first (default 10,000). */
  readonly maxEvents?: number;
}

/** A drift event as the runner keeps it: with when it resolved (null while open). */
export interface TrackedDriftEvent extends DriftEvent {
  resolvedMs: UnixMs | null;
}

/** How much data one replayed chunk reads. */
const CHUNK_MS = 3600_000;

type Labels = Readonly<Record<string, string>>;
type ByTime = Map<UnixMs, number>;

function toMs(sec: number): UnixMs {
  return Math.round(sec * 1000);
}

/** Groups a range result by the values of `keys`, each series' values by time. */
function group(series: readonly RangeSeries[], keys: readonly string[]): Map<string, { labels: Labels; values: ByTime }> {
  const out = new Map<string, { labels: Labels; values: ByTime }>();
  for (const s of series) {
    const labels: Record<string, string> = {};
    for (const k of keys) labels[k] = s.metric[k] ?? '';
    const key = JSON.stringify(keys.map((k) => labels[k]));
    const e = out.get(key) ?? { labels, values: new Map<UnixMs, number>() };
    for (const [sec, v] of s.values) e.values.set(toMs(sec), parseSampleValue(v));
    out.set(key, e);
  }
  return out;
}

/** A histogram range result as bucket counts per model/component and time. */
function histogramByTime(series: readonly RangeSeries[]): Map<string, { labels: Labels; at: Map<UnixMs, Map<number, number>> }> {
  const out = new Map<string, { labels: Labels; at: Map<UnixMs, Map<number, number>> }>();
  for (const s of series) {
    const labels = { model: s.metric.model ?? '', component: s.metric.component ?? '' };
    const le = parseSampleValue(s.metric.le ?? 'NaN');
    if (Number.isNaN(le)) continue;
    const key = JSON.stringify([labels.model, labels.component]);
    const e = out.get(key) ?? { labels, at: new Map<UnixMs, Map<number, number>>() };
    for (const [sec, v] of s.values) {
      const t = toMs(sec);
      const b = e.at.get(t) ?? new Map<number, number>();
      b.set(le, parseSampleValue(v));
      e.at.set(t, b);
    }
    out.set(key, e);
  }
  return out;
}

/** One input subject's data over a chunk: the windows' bins per tick. */
interface InputData {
  readonly labels: Labels;
  readonly feature: Extract<DriftSubject, { kind: 'input' }>;
  readonly recent: Map<UnixMs, Bins>;
  readonly baseline: Map<UnixMs, Bins>;
}

/** The runner. Call `replay` (optional) before `start`; `stop` ends live ticks. */
export class DriftRunner {
  private readonly intervalMs: DurationMs;
  private readonly logger: Logger;
  private readonly scoreParams: ScoreDriftParams;
  private readonly inputParams: InputDriftParams;
  private readonly windows: InputWindows;
  private readonly features: readonly InputFeature[];
  private readonly scoreDetectors = new Map<string, ScoreDriftDetector>();
  private readonly inputDetectors = new Map<string, InputDriftDetector>();
  private readonly openEvents = new Map<string, TrackedDriftEvent>();
  private readonly list: TrackedDriftEvent[] = [];
  private lastTickMs: UnixMs = -Infinity;
  private cancel: (() => void) | null = null;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly o: DriftRunnerOptions) {
    this.intervalMs = o.intervalMs ?? 60_000;
    this.logger = o.logger ?? noopLogger;
    this.scoreParams = { ...DEFAULT_SCORE_DRIFT, ...o.params?.score };
    this.windows = { ...DEFAULT_INPUT_WINDOWS, ...o.params?.windows };
    this.inputParams = { ...DEFAULT_INPUT_DRIFT, holdBaselineMs: this.windows.recentMs + this.windows.baselineMs, ...o.params?.input };
    this.features = o.params?.features ?? DEFAULT_INPUT_FEATURES;
  }

  /** The drift events open at some time in `[startMs, endMs]`, oldest onset first (copies). */
  events(startMs: UnixMs, endMs: UnixMs): TrackedDriftEvent[] {
    return this.list
      .filter((e) => e.onsetMs <= endMs && (e.resolvedMs === null || e.resolvedMs >= startMs))
      .sort((a, b) => a.onsetMs - b.onsetMs || a.id.localeCompare(b.id))
      .map((e) => ({ ...e }));
  }

  /** Evaluates every tick in `[fromMs, toMs]` after the last one evaluated, in order, as live ticks would have. Resolves with the ticks evaluated. */
  async replay(fromMs: UnixMs, toMs: UnixMs, signal?: AbortSignal): Promise<number> {
    const step = this.intervalMs;
    const perChunk = Math.max(1, Math.floor(CHUNK_MS / step));
    let n = 0;
    let t = Math.max(Math.ceil(fromMs / step), Math.floor(this.lastTickMs / step) + 1) * step;
    while (t <= toMs) {
      signal?.throwIfAborted();
      const end = Math.min(Math.floor(toMs / step) * step, t + (perChunk - 1) * step);
      n += await this.evaluate(t, end, signal);
      t = end + step;
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

  /** Resolves once the live tick under way (if any) has finished: tests on virtual timers await it before reading the results. */
  idle(): Promise<void> {
    return this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    const now = this.o.clock();
    const next = (Math.floor(Math.max(now, this.lastTickMs) / this.intervalMs) + 1) * this.intervalMs;
    this.cancel = (this.o.timers ?? systemTimers).setTimeout(() => {
      this.running = this.evaluate(next, next)
        .then(
          () => undefined,
          (e: unknown) => this.logger.error('drift tick failed', { err: e instanceof Error ? e.message : String(e) }),
        )
        .finally(() => this.schedule());
    }, next - now);
  }

  private async read(expr: string, fromMs: UnixMs, toMs: UnixMs, signal?: AbortSignal): Promise<RangeSeries[]> {
    return (await this.o.client.range(expr, fromMs, toMs, this.intervalMs, { signal })).data.result;
  }

  /** The input subjects' bins over `[fromMs, toMs]`, one entry per model, component and feature. */
  private async readInputs(fromMs: UnixMs, toMs: UnixMs, signal?: AbortSignal): Promise<Map<string, InputData>> {
    const out = new Map<string, InputData>();
    const put = (labels: Labels, feature: FeatureName, side: 'recent' | 'baseline', t: UnixMs, bins: Bins): void => {
      const key = JSON.stringify([labels.model, labels.component, feature]);
      const e = out.get(key) ?? { labels, feature: { kind: 'input', feature }, recent: new Map<UnixMs, Bins>(), baseline: new Map<UnixMs, Bins>() };
      e[side].set(t, bins);
      out.set(key, e);
    };
    for (const f of this.features) {
      const q = featureQueries(f, this.windows);
      if (f.kind === 'histogram') {
        const [recent, baseline] = await Promise.all([this.read(q.recent, fromMs, toMs, signal), this.read(q.baseline, fromMs, toMs, signal)]);
        for (const [side, series] of [['recent', recent], ['baseline', baseline]] as const) {
          for (const { labels, at } of histogramByTime(series).values()) for (const [t, buckets] of at) put(labels, f.feature, side, t, binsFromBuckets(buckets));
        }
        continue;
      }
      const [recent, baseline, recentTotal, baselineTotal] = await Promise.all([q.recent, q.baseline, q.recentTotal ?? '', q.baselineTotal ?? ''].map((e) => this.read(e, fromMs, toMs, signal)));
      for (const [side, flags, totals] of [['recent', recent, recentTotal], ['baseline', baseline, baselineTotal]] as const) {
        const byComponent = group(totals ?? [], ['model', 'component']);
        for (const { labels, values } of group(flags ?? [], ['model', 'component', 'flag']).values()) {
          const flag = labels.flag ?? '';
          // Only the known flags: a subject's feature is typed, and an unknown label value is someone else's series.
          if (!(STAGE1_FLAGS as readonly string[]).includes(flag)) continue;
          const tot = byComponent.get(JSON.stringify([labels.model, labels.component]))?.values;
          for (const [t, flagged] of values) {
            const n = tot?.get(t);
            if (n === undefined || !Number.isFinite(n) || !Number.isFinite(flagged)) continue;
            put({ model: labels.model ?? '', component: labels.component ?? '' }, flag as Stage1Flag, side, t, { upper: [0, 1], counts: [Math.max(0, n - flagged), Math.max(0, flagged)] });
          }
        }
      }
    }
    return out;
  }

  /** Reads the ticks of `[fromMs, toMs]` (multiples of the interval) and steps through them. */
  private async evaluate(fromMs: UnixMs, toMs: UnixMs, signal?: AbortSignal): Promise<number> {
    const [scoreSeries, inputs] = await Promise.all([this.read(SCORE_EXPR, fromMs, toMs, signal), this.readInputs(fromMs, toMs, signal)]);
    const scores = [...group(scoreSeries, ['model', 'component', 'dimension']).entries()].sort(([a], [b]) => a.localeCompare(b));
    const inputList = [...inputs.entries()].sort(([a], [b]) => a.localeCompare(b));
    const samples: SeriesSample[] = [];
    let ticks = 0;
    for (let t = fromMs; t <= toMs; t += this.intervalMs) {
      if (t <= this.lastTickMs) continue;
      this.lastTickMs = t;
      ticks++;
      for (const [key, { labels, values }] of scores) {
        const x = values.get(t);
        const dimension = labels.dimension as QualityDimension;
        if (x === undefined || !(QUALITY_DIMENSIONS as readonly string[]).includes(dimension)) continue;
        this.stepScore(t, key, labels, dimension, x, samples);
      }
      for (const [key, d] of inputList) {
        const recent = d.recent.get(t);
        const baseline = d.baseline.get(t);
        if (recent !== undefined && baseline !== undefined) this.stepInput(t, key, d, recent, baseline, samples);
      }
    }
    if (samples.length > 0) await this.o.sink.write(samples).catch((e: unknown) => this.logger.warn('writing drift series failed', { err: e instanceof Error ? e.message : String(e) }));
    return ticks;
  }

  private stepScore(t: UnixMs, key: string, labels: Labels, dimension: QualityDimension, x: number, out: SeriesSample[]): void {
    let det = this.scoreDetectors.get(key);
    if (det === undefined) this.scoreDetectors.set(key, (det = new ScoreDriftDetector(this.scoreParams)));
    const r = det.step(t, x);
    if (r === null) return;
    const base = { model: labels.model ?? '', component: labels.component ?? '' };
    out.push({ labels: { __name__: DRIFT_SCORE_METRIC, ...base, dimension }, tMs: t, value: r.score });
    const subject: DriftSubject = { kind: 'score', dimension };
    if (r.resolved) this.resolve(t, base, dimension, 'page-hinkley', out);
    if (r.opened !== null) this.open(t, base, subject, dimension, 'page-hinkley', r.opened.statistic, this.scoreParams.lambda, r.opened.onsetMs, scoreSummary(dimension, r.opened));
    this.markOpen(t, base, dimension, 'page-hinkley', out);
  }

  private stepInput(t: UnixMs, key: string, d: InputData, recent: Bins, baseline: Bins, out: SeriesSample[]): void {
    let det = this.inputDetectors.get(key);
    if (det === undefined) this.inputDetectors.set(key, (det = new InputDriftDetector(this.inputParams)));
    const r = det.step(t, recent, baseline);
    if (r === null) return;
    const base = { model: d.labels.model ?? '', component: d.labels.component ?? '' };
    const feature = d.feature.feature;
    out.push({ labels: { __name__: DRIFT_SCORE_METRIC, ...base, feature }, tMs: t, value: Math.max(r.scores.psi, r.scores.ks) });
    for (const test of r.resolved) this.resolve(t, base, feature, test, out);
    for (const o of r.opened) this.open(t, base, d.feature, feature, o.test, o.statistic, o.threshold, o.onsetMs, inputSummary(feature, o, this.windows));
    for (const test of ['psi', 'ks'] as const) this.markOpen(t, base, feature, test, out);
  }

  private eventKey(base: Labels, subject: string, test: string): string {
    return JSON.stringify([base.model, base.component, subject, test]);
  }

  private open(t: UnixMs, base: { model: string; component: string }, subject: DriftSubject, name: string, test: DriftEvent['test'], statistic: number, threshold: number, onsetMs: UnixMs, summary: string): void {
    const e: TrackedDriftEvent = { id: `${base.model}|${base.component}|${name}|${test}|${t}`, ...base, subject, test, statistic, threshold, onsetMs, detectedMs: t, summary, resolvedMs: null };
    this.openEvents.set(this.eventKey(base, name, test), e);
    this.list.push(e);
    const max = this.o.maxEvents ?? 10_000;
    while (this.list.length > max) {
      const at = this.list.findIndex((x) => x.resolvedMs !== null);
      this.list.splice(at < 0 ? 0 : at, 1);
    }
  }

  private eventLabels(base: Labels, subject: string, test: string): Labels {
    return { __name__: DRIFT_EVENT_METRIC, model: base.model ?? '', component: base.component ?? '', subject, test };
  }

  private markOpen(t: UnixMs, base: Labels, subject: string, test: string, out: SeriesSample[]): void {
    if (this.openEvents.has(this.eventKey(base, subject, test))) out.push({ labels: this.eventLabels(base, subject, test), tMs: t, value: 1 });
  }

  private resolve(t: UnixMs, base: Labels, subject: string, test: string, out: SeriesSample[]): void {
    const key = this.eventKey(base, subject, test);
    const e = this.openEvents.get(key);
    if (e === undefined) return;
    e.resolvedMs = t;
    this.openEvents.delete(key);
    out.push({ labels: this.eventLabels(base, subject, test), tMs: t, value: STALE_NAN });
  }
}
