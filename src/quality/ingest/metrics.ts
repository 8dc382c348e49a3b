/**
 * `QualityMetrics`: the one writer of the `llm_quality_*` series (docs/quality.md). Scores become
 * the recent means (score-means.ts) and the evaluation counters; evaluations (stage 1, the judge)
 * become the duration histogram, judge tokens, errors and stage-1 flags (counters.ts). Everything
 * leaves through a `SeriesSink`, which src/server binds to the store.
 */
import type { Clock, SeriesSink, UnixMs } from '../../model/index.js';
import { parseSampleValue, type QueryClient, type RangeSeries } from '../../query/index.js';
import { QUALITY_EVALUATION_DURATION_BUCKETS } from '../../semconv/index.js';
import type { QualityDimension, QualityScore, Stage1Flag } from '../types.js';
import { CounterStore } from './counters.js';
import { QualityInputError, QualityIngestErrorCode } from './errors.js';
import { DEFAULT_QUALITY_HALF_LIFE_MS, meanKey, newMeanState, planMeans, type MeanState } from './score-means.js';

/** The default limit of distinct model, component and dimension triples. */
export const DEFAULT_MAX_QUALITY_SERIES = 10_000;

/** Options of `QualityMetrics`. */
export interface QualityMetricsOptions {
  /** Where the series go; `write` resolves once they are stored (the store's WAL). */
  readonly sink: SeriesSink;
  readonly clock: Clock;
  /** The half-life of a score's weight in the recent mean; default `DEFAULT_QUALITY_HALF_LIFE_MS` (5 min). */
  readonly halfLifeMs?: number;
  /** The most distinct (model, component, dimension) triples; a batch past it is refused. Default 10,000. */
  readonly maxSeries?: number;
}

/** One evaluation as the pipeline reports it (`recordEvaluation`). */
export interface EvaluationRecord {
  readonly model: string;
  readonly component: string;
  /** The dimension judged, null for a stage-1 check. */
  readonly dimension: QualityDimension | null;
  /** `stage1:<check>` or `judge:<rubric>`: a bounded set, so it is a label. */
  readonly evaluator: string;
  readonly durationS: number;
  readonly judgeTokens: { readonly input: number; readonly output: number } | null;
  /** Why it failed, null when it did not. */
  readonly error: string | null;
  /** The stage-1 flag raised, if any. */
  readonly flag: Stage1Flag | null;
  readonly tMs: UnixMs;
}

/** What `QualityMetrics.stats` reports. */
export interface QualityMetricsStats {
  /** Distinct (model, component, dimension) triples with a mean. */
  readonly series: number;
  /** Counter groups recorded since the last flush. */
  readonly unflushed: number;
}

/**
 * The one writer of the quality series. Calls that write are run one at a time in call order, so
 * each series' samples reach the sink in time order across calls (the `SeriesSink` contract).
 *
 * - `recordScores` folds a batch into the recent means and `llm_quality_evaluations_total` and
 *   resolves once the sink has stored all of its samples; when the sink rejects, nothing of the
 *   batch counts (the means stay as they were) and the promise rejects with the sink's error.
 * - `recordEvaluation` and `recordSampled` only count, in memory; `flush()` writes what moved.
 *   A failed flush keeps it for the next one. Evaluations are not counted into
 *   `llm_quality_evaluations_total` (their scores come through `recordScores`), so nothing counts twice.
 * - `restore(client)` reads the last stored means back after a restart, so they continue.
 */
export class QualityMetrics {
  private readonly sink: SeriesSink;
  private readonly clock: Clock;
  private readonly halfLifeMs: number;
  private readonly maxSeries: number;
  private readonly means = new Map<string, MeanState>();
  private readonly counters = new CounterStore();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(o: QualityMetricsOptions) {
    this.sink = o.sink;
    this.clock = o.clock;
    this.halfLifeMs = o.halfLifeMs ?? DEFAULT_QUALITY_HALF_LIFE_MS;
    this.maxSeries = o.maxSeries ?? DEFAULT_MAX_QUALITY_SERIES;
    if (!(this.halfLifeMs > 0)) throw new RangeError(`halfLifeMs must be positive, not ${this.halfLifeMs}`);
  }

  /** Runs `fn` after every call before it has settled. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Folds `scores` (already validated) into the means and counts; resolves once stored. */
  recordScores(scores: readonly QualityScore[]): Promise<void> {
    return this.serial(async () => {
      if (scores.length === 0) return;
      const plan = planMeans(this.means, scores, this.halfLifeMs);
      if (this.means.size + plan.added.length > this.maxSeries) {
        throw new QualityInputError(QualityIngestErrorCode.TOO_MANY_SERIES, [
          { index: -1, field: 'scores', message: `the batch adds ${plan.added.length} model/component/dimension triples to ${this.means.size}, past the limit of ${this.maxSeries}` },
        ]);
      }
      await this.sink.write(plan.samples);
      for (const [k, st] of plan.states) this.means.set(k, st);
    });
  }

  /** Counts one evaluation: its duration, judge tokens, error and stage-1 flag (written by `flush`). */
  recordEvaluation(e: EvaluationRecord): void {
    const id = { model: e.model, component: e.component };
    const dim: Record<string, string> = e.dimension === null ? {} : { dimension: e.dimension };
    const k = `${e.model}\u0000${e.component}\u0000${e.dimension ?? ''}\u0000${e.evaluator}`;
    if (Number.isFinite(e.durationS) && e.durationS >= 0) {
      this.counters.observe(`d\u0000${k}`, 'llm_quality_evaluation_duration_seconds', () => ({ ...id, ...dim, evaluator: e.evaluator }), QUALITY_EVALUATION_DURATION_BUCKETS, e.durationS, e.tMs);
    }
    if (e.error !== null) this.counters.add(`e\u0000${k}`, () => ({ __name__: 'llm_quality_evaluation_errors_total', ...id, ...dim, evaluator: e.evaluator }), 1, e.tMs);
    if (e.judgeTokens !== null) {
      for (const [type, n] of [['input', e.judgeTokens.input], ['output', e.judgeTokens.output]] as const) {
        if (Number.isFinite(n) && n > 0) this.counters.add(`t\u0000${e.model}\u0000${e.component}\u0000${type}`, () => ({ __name__: 'llm_quality_judge_tokens_total', ...id, token_type: type }), n, e.tMs);
      }
    }
    if (e.flag !== null) this.counters.add(`f\u0000${e.model}\u0000${e.component}\u0000${e.flag}`, () => ({ __name__: 'llm_quality_flags_total', ...id, flag: e.flag as string }), 1, e.tMs);
  }

  /** Counts one response sampled for evaluation (`llm_quality_sampled_responses_total`). */
  recordSampled(s: { readonly model: string; readonly component: string; readonly tMs: UnixMs }): void {
    this.counters.add(`s\u0000${s.model}\u0000${s.component}`, () => ({ __name__: 'llm_quality_sampled_responses_total', model: s.model, component: s.component }), 1, s.tMs);
  }

  /** Writes the counters that moved since the last flush; resolves once stored. */
  flush(): Promise<void> {
    return this.serial(async () => {
      const plan = this.counters.planFlush();
      if (plan.samples.length === 0) return;
      await this.sink.write(plan.samples);
      plan.commit();
    });
  }

  /**
   * Reads the newest stored mean, weight and count of every triple back through `client` (the
   * raw samples of the last ten half-lives, at least an hour), so that after a restart the means
   * continue from what was stored instead of starting empty. A triple silent for longer starts
   * again (its weight would be under a thousandth anyway, and its counter restarts at 0, which
   * `rate()` reads as a reset). Only the series this class writes are read (exactly `model`,
   * `component` and `dimension`), not ones pushed by others. Resolves with the triples restored.
   */
  restore(client: QueryClient): Promise<number> {
    return this.serial(async () => {
      const nowMs = this.clock();
      const windowS = Math.ceil(Math.max(10 * this.halfLifeMs, 3_600_000) / 1000);
      const last = async (name: string): Promise<Map<string, [UnixMs, number]>> => {
        const r = (await client.instant(`${name}[${windowS}s]`, nowMs)).data;
        return r.resultType === 'matrix' ? lastPoints(r.result) : new Map();
      };
      const [scores, weights, counts] = [await last('llm_quality_score'), await last('llm_quality_recent_scores'), await last('llm_quality_evaluations_total')];
      let n = 0;
      for (const [key, [tMs, mean]] of scores) {
        if (this.means.has(key) || !Number.isFinite(mean)) continue;
        const [model, component, dimension] = key.split('\u0000');
        const st = newMeanState(model, component, dimension, tMs);
        const w = weights.get(key);
        // Without its weight series, the mean counts as one score at its time.
        st.weight = w !== undefined && w[0] === tMs && w[1] > 0 ? w[1] : 1;
        st.sum = mean * st.weight;
        st.count = counts.get(key)?.[1] ?? 0;
        this.means.set(key, st);
        n++;
      }
      return n;
    });
  }

  /** The number of means kept and of counter groups waiting for a flush. */
  stats(): QualityMetricsStats {
    return { series: this.means.size, unflushed: this.counters.dirty };
  }
}

/** The last point of each series with exactly the labels this class writes, by `meanKey`. */
function lastPoints(series: readonly RangeSeries[]): Map<string, [UnixMs, number]> {
  const out = new Map<string, [UnixMs, number]>();
  for (const s of series) {
    const m = s.metric;
    const names = Object.keys(m).filter((k) => k !== '__name__');
    if (names.length !== 3 || m.model === undefined || m.component === undefined || m.dimension === undefined) continue;
    const p = s.values[s.values.length - 1] as RangeSeries['values'][number] | undefined;
    if (p === undefined) continue;
    out.set(meanKey(m.model, m.component, m.dimension), [Math.round(p[0] * 1000), parseSampleValue(p[1])]);
  }
  return out;
}
