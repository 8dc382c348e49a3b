/**
 * The quality pipeline: gateway samples in, stored and evaluated pairs out. `accept` only queues
 * (bounded: a full queue drops and counts, it never blocks the request path); a worker takes
 * batches, redacts and stores the pairs (many per transaction), runs stage 1 on each, stores the
 * evaluations and records them; a seeded sub-sample goes to the judge for every rubric, with
 * bounded concurrency, a bounded judge queue and an hourly token budget (a call over budget is
 * skipped and counted, not queued for ever). Judge failures (timeout, 500, garbage) become
 * evaluations with `error`, are counted by the metrics writer in
 * `llm_quality_evaluation_errors_total`, and never stop the pipeline; neither do store failures.
 */
import { noopLogger, type Logger } from '../model/index.js';
import type { EvaluationRecord, PipelineMetrics, QualityPipelineOptions, QualityPipelineStats } from './pipeline-types.js';
import { JudgeError } from './judge/index.js';
import { MAX_JUDGED_CHARS } from './judge/prompt.js';
import { toSampledPair, type SampleInput } from './sample-input.js';
import { LengthTracker, runStage1 } from './stage1/index.js';
import type { Evaluation, QualityScore, Rubric, SampledPair } from './types.js';

export type { EvaluationRecord, PipelineMetrics, QualityPipelineOptions, QualityPipelineStats } from './pipeline-types.js';

const HOUR_MS = 3_600_000;
/** Pairs evaluated between two yields to the event loop (about 10 ms of stage 1 on typical pairs). */
const YIELD_EVERY = 32;

interface JudgeJob {
  readonly pair: SampledPair;
  readonly rubric: Rubric;
}

type Counters = { -readonly [K in keyof QualityPipelineStats]: number };

/** The pipeline from sampled requests to stored, evaluated pairs and quality series. */
export class QualityPipeline {
  private readonly o: QualityPipelineOptions;
  private readonly logger: Logger;
  private readonly mono: () => number;
  private readonly lengths: LengthTracker;
  private readonly maxQueue: number;
  private readonly maxJudgeQueue: number;
  private readonly batchSize: number;
  private readonly judgeName: string;
  private readonly idPrefix: string;
  private readonly queue: SampleInput[] = [];
  private readonly judgeQueue: JudgeJob[] = [];
  private readonly pendingEvals: Evaluation[] = [];
  private readonly pendingScores: QualityScore[] = [];
  private readonly abort = new AbortController();
  private readonly waiters: (() => void)[] = [];
  private readonly c: Counters;
  private seq = 0;
  private looping = false;
  private flushing = 0;
  private flushChain: Promise<void> = Promise.resolve();
  private closed = false;
  private budgetHour = -1;
  private tokensUsed = 0;
  private tokensReserved = 0;

  constructor(o: QualityPipelineOptions) {
    this.o = o;
    this.logger = o.logger ?? noopLogger;
    this.mono = o.monotonicMs ?? (() => performance.now());
    this.lengths = new LengthTracker(o.lengths);
    this.maxQueue = Math.max(1, o.maxQueue ?? 10_000);
    this.maxJudgeQueue = Math.max(0, o.maxJudgeQueue ?? 1_000);
    this.batchSize = Math.max(1, o.batchSize ?? 256);
    this.judgeName = `judge:${o.judge?.model ?? 'judge'}`;
    this.idPrefix = Math.floor(o.random() * 2 ** 32).toString(36);
    this.c = {
      accepted: 0, dropped: 0, queued: 0, pairsStored: 0, stage1Evaluations: 0, stage1Flags: 0, judgeQueued: 0, judgeCalls: 0, judged: 0, judgeErrors: 0,
      judgeSkippedBudget: 0, judgeDropped: 0, judgeInFlight: 0, judgeTokensThisHour: 0, storeErrors: 0, metricsErrors: 0,
    };
  }

  /** Queues one sample; never blocks or throws. Drops (and counts) when the queue is full or the pipeline is closed. */
  accept(sample: SampleInput): void {
    if (this.closed || this.queue.length >= this.maxQueue) {
      this.c.dropped++;
      return;
    }
    this.c.accepted++;
    this.queue.push(sample);
    if (!this.looping) {
      this.looping = true;
      queueMicrotask(() => void this.loop());
    }
  }

  /** Resolves once everything accepted so far is stored and evaluated (judge calls included) and the metrics are flushed. */
  async drain(): Promise<void> {
    while (!this.idle()) await new Promise<void>((resolve) => this.waiters.push(resolve));
    await this.flushChain;
    try {
      await this.o.metrics.flush?.();
    } catch (e) {
      this.c.metricsErrors++;
      this.logger.warn('quality: flushing the metrics failed', { err: String(e) });
    }
  }

  /** Stops accepting, cancels waiting and running judge calls (they are recorded as `aborted`), and drains what is left. */
  async close(): Promise<void> {
    this.closed = true;
    this.c.judgeDropped += this.judgeQueue.length;
    this.judgeQueue.length = 0;
    this.abort.abort();
    await this.drain();
  }

  /** Counters since the start. */
  stats(): QualityPipelineStats {
    this.rollHour();
    return { ...this.c, queued: this.queue.length, judgeInFlight: this.c.judgeInFlight, judgeTokensThisHour: this.tokensUsed };
  }

  private idle(): boolean {
    return this.queue.length === 0 && !this.looping && this.judgeQueue.length === 0 && this.c.judgeInFlight === 0 && this.pendingEvals.length === 0 && this.flushing === 0;
  }

  private notify(): void {
    if (!this.idle()) return;
    for (const w of this.waiters.splice(0)) w();
  }

  private record(e: EvaluationRecord): void {
    try {
      const r = this.o.metrics.recordEvaluation(e);
      if (r instanceof Promise) r.catch(() => this.c.metricsErrors++);
    } catch {
      this.c.metricsErrors++;
    }
  }

  private async loop(): Promise<void> {
    try {
      while (this.queue.length > 0) await this.batch(this.queue.splice(0, this.batchSize));
    } catch (e) {
      // Unreachable by design (every step catches its own failures); kept so that a bug cannot wedge the loop.
      this.logger.error('quality: the pipeline loop failed', { err: String(e) });
    } finally {
      this.looping = false;
      if (this.queue.length > 0) {
        this.looping = true;
        queueMicrotask(() => void this.loop());
      }
      this.notify();
    }
  }

  private async batch(samples: SampleInput[]): Promise<void> {
    const o = this.o;
    const pairs: SampledPair[] = [];
    for (const s of samples) {
      try {
        pairs.push(toSampledPair(s, `${s.tMs.toString(36)}-${this.idPrefix}-${(this.seq++).toString(36)}`, o.redact));
      } catch (e) {
        this.c.dropped++;
        this.logger.warn('quality: a sample could not be read', { err: String(e) });
      }
    }
    if (pairs.length === 0) return;
    try {
      await o.store.putPairs(pairs);
      this.c.pairsStored += pairs.length;
    } catch (e) {
      this.c.storeErrors++;
      this.logger.warn('quality: storing sampled pairs failed; they are lost', { pairs: pairs.length, err: String(e) });
      return;
    }
    const tMs = o.clock();
    const evals: Evaluation[] = [];
    for (let i = 0; i < pairs.length; i++) {
      // Stage 1 is CPU work: yield to the event loop between slices of a batch, so that a batch
      // of long answers does not hold requests and queries behind it.
      if (i > 0 && i % YIELD_EVERY === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      const p = pairs[i];
      for (const e of runStage1(p, { ...o.stage1, lengths: this.lengths, tMs, monotonicMs: this.mono })) {
        evals.push(e);
        if (e.flag !== null) this.c.stage1Flags++;
        this.record({ model: p.model, component: p.component, dimension: null, evaluator: e.evaluator, durationS: e.durationS, judgeTokens: null, error: null, flag: e.flag, tMs });
      }
    }
    this.c.stage1Evaluations += evals.length;
    try {
      await o.store.putEvaluations(evals);
    } catch (e) {
      this.c.storeErrors++;
      this.logger.warn('quality: storing stage-1 evaluations failed; they are lost', { evaluations: evals.length, err: String(e) });
    }
    if (o.judge === null || o.rubrics.length === 0 || o.judgeShare <= 0 || this.closed) return;
    for (const p of pairs) {
      if (o.random() >= o.judgeShare) continue;
      for (const rubric of o.rubrics) {
        if (this.judgeQueue.length >= this.maxJudgeQueue) this.c.judgeDropped++;
        else {
          this.judgeQueue.push({ pair: p, rubric });
          this.c.judgeQueued++;
        }
      }
    }
    this.pumpJudges();
  }

  private rollHour(): void {
    const hour = Math.floor(this.o.clock() / HOUR_MS);
    if (hour !== this.budgetHour) {
      this.budgetHour = hour;
      this.tokensUsed = 0;
    }
  }

  /** What a call will cost before it is made: four characters a token of what is sent, plus the answer's `max_tokens`. */
  private estimate(job: JudgeJob): number {
    const chars = Math.min(job.pair.prompt.length, MAX_JUDGED_CHARS) + Math.min(job.pair.response.length, MAX_JUDGED_CHARS) + job.rubric.instruction.length + 800;
    return Math.ceil(chars / 4) + (this.o.judgeOutputTokens ?? 256);
  }

  private pumpJudges(): void {
    const judge = this.o.judge;
    if (judge === null) return;
    while (this.c.judgeInFlight < this.o.maxConcurrency && this.judgeQueue.length > 0) {
      const job = this.judgeQueue.shift()!;
      this.rollHour();
      const cost = this.estimate(job);
      if (this.tokensUsed + this.tokensReserved + cost > this.o.tokenBudgetPerHour) {
        this.c.judgeSkippedBudget++;
        continue;
      }
      this.c.judgeInFlight++;
      this.c.judgeCalls++;
      this.tokensReserved += cost;
      const t0 = this.mono();
      const done = (e: Evaluation, score: QualityScore | null, reason: string | null): void => {
        this.c.judgeInFlight--;
        this.tokensReserved -= cost;
        this.rollHour();
        if (e.judgeTokens !== null) this.tokensUsed += e.judgeTokens.input + e.judgeTokens.output;
        if (reason === null) this.c.judged++;
        else this.c.judgeErrors++;
        const p = job.pair;
        this.record({ model: p.model, component: p.component, dimension: job.rubric.dimension, evaluator: this.judgeName, durationS: e.durationS, judgeTokens: e.judgeTokens, error: reason, flag: null, tMs: e.tMs });
        this.pendingEvals.push(e);
        if (score !== null) this.pendingScores.push(score);
        if (this.pendingEvals.length >= this.batchSize || (this.judgeQueue.length === 0 && this.c.judgeInFlight === 0)) this.flushJudged();
        this.pumpJudges();
        this.notify();
      };
      judge.judge(job.pair, job.rubric, this.abort.signal).then(
        (v) => {
          const tMs = this.o.clock();
          const base = { pairId: job.pair.id, stage: 2 as const, evaluator: `judge:${job.rubric.id}`, dimension: job.rubric.dimension, flag: null, tMs };
          done(
            { ...base, score: v.score, detail: v.reasoning, error: null, durationS: v.durationS, judgeTokens: v.tokens },
            { model: job.pair.model, component: job.pair.component, dimension: job.rubric.dimension, score: v.score, evaluator: this.judgeName, requestId: job.pair.id, tMs },
            null,
          );
        },
        (err: unknown) => {
          const reason = err instanceof JudgeError ? err.reason : 'error';
          const message = err instanceof Error ? err.message : String(err);
          const base = { pairId: job.pair.id, stage: 2 as const, evaluator: `judge:${job.rubric.id}`, dimension: job.rubric.dimension, flag: null, tMs: this.o.clock() };
          done({ ...base, score: null, detail: '', error: `${reason}: ${message}`, durationS: Math.max(0, (this.mono() - t0) / 1000), judgeTokens: null }, null, reason);
        },
      );
    }
    // Every waiting call was skipped: write what the finished ones left.
    if (this.c.judgeInFlight === 0 && this.judgeQueue.length === 0) this.flushJudged();
  }

  /** Writes the judged evaluations and scores gathered so far, one store transaction and one metrics call. */
  private flushJudged(): void {
    const evals = this.pendingEvals.splice(0);
    const scores = this.pendingScores.splice(0);
    if (evals.length === 0) return;
    this.flushing++;
    const metrics: PipelineMetrics = this.o.metrics;
    this.flushChain = this.flushChain
      .then(async () => {
        try {
          await this.o.store.putEvaluations(evals);
        } catch (e) {
          this.c.storeErrors++;
          this.logger.warn('quality: storing judge evaluations failed; they are lost', { evaluations: evals.length, err: String(e) });
        }
        if (scores.length === 0) return;
        try {
          await metrics.recordScores(scores);
        } catch (e) {
          this.c.metricsErrors++;
          this.logger.warn('quality: recording judge scores failed', { scores: scores.length, err: String(e) });
        }
      })
      .finally(() => {
        this.flushing--;
        this.notify();
      });
  }
}
