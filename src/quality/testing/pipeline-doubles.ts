/**
 * Honest doubles of the pipeline's ports for tests: an in-memory sample store that keeps what it
 * is given (and can be told to fail, as a full disk would), a recording metrics writer, and a
 * scripted judge. The real store and metrics writer run their own suites; the full loop runs them
 * together.
 */
import type { EvaluationRecord, PipelineMetrics } from '../pipeline-types.js';
import type { SampleInput } from '../sample-input.js';
import type { Evaluation, Judge, JudgeVerdict, QualityScore, Rubric, SampledPair, SampleStore } from '../types.js';

/** Keeps pairs and evaluations; `failNext` makes the next writes reject. */
export class MemoryPairStore implements Pick<SampleStore, 'putPairs' | 'putEvaluations'> {
  readonly pairs = new Map<string, SampledPair>();
  readonly evaluations: Evaluation[] = [];
  /** The size of each `putPairs` call (one transaction each). */
  readonly pairBatches: number[] = [];
  failNext = 0;

  async putPairs(pairs: readonly SampledPair[]): Promise<void> {
    await Promise.resolve();
    if (this.failNext > 0) {
      this.failNext--;
      throw new Error('ENOSPC: no space left on device');
    }
    this.pairBatches.push(pairs.length);
    for (const p of pairs) {
      if (this.pairs.has(p.id)) throw new Error(`duplicate pair id ${p.id}`);
      this.pairs.set(p.id, p);
    }
  }

  async putEvaluations(evaluations: readonly Evaluation[]): Promise<void> {
    await Promise.resolve();
    for (const e of evaluations) if (!this.pairs.has(e.pairId)) throw new Error(`evaluation of an unknown pair ${e.pairId}`);
    this.evaluations.push(...evaluations);
  }
}

/** Records what the pipeline hands the metrics writer. */
export class RecordingMetrics implements PipelineMetrics {
  readonly scores: QualityScore[] = [];
  readonly evaluations: EvaluationRecord[] = [];
  /** What the server's sample port counted as sampled (`QualityMetrics.recordSampled`). */
  readonly sampled: { readonly model: string; readonly component: string; readonly tMs: number }[] = [];
  flushes = 0;
  async recordScores(scores: readonly QualityScore[]): Promise<void> {
    await Promise.resolve();
    this.scores.push(...scores);
  }
  recordEvaluation(e: EvaluationRecord): void {
    this.evaluations.push(e);
  }
  recordSampled(s: { readonly model: string; readonly component: string; readonly tMs: number }): void {
    this.sampled.push(s);
  }
  async flush(): Promise<void> {
    await Promise.resolve();
    this.flushes++;
  }
}

/** A judge whose answer per call a function decides (a verdict, an error to throw, or `hang` until aborted). */
export class ScriptedJudge implements Judge {
  readonly model = 'scripted';
  calls = 0;
  inFlight = 0;
  maxInFlight = 0;
  constructor(private readonly answer: (pair: SampledPair, rubric: Rubric, call: number) => JudgeVerdict | Error | 'hang') {}
  judge(pair: SampledPair, rubric: Rubric, signal?: AbortSignal): Promise<JudgeVerdict> {
    const a = this.answer(pair, rubric, this.calls++);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    const end = <T>(v: T): T => {
      this.inFlight--;
      return v;
    };
    if (a === 'hang') {
      return new Promise<JudgeVerdict>((_, reject) => {
        signal?.addEventListener('abort', () => reject(end(new Error('aborted'))), { once: true });
      });
    }
    return a instanceof Error ? Promise.reject(end(a)) : Promise.resolve(end(a));
  }
}

/** A gateway-shaped sample (chat) with `text` as the answer. */
export function sampleInput(i: number, over: Partial<SampleInput> & { readonly content?: string } = {}): SampleInput {
  const { content, ...rest } = over;
  return {
    tMs: 1_767_600_000_000 + i * 1000,
    model: 'openai/gpt-oss-20b',
    stream: true,
    status: 200,
    labels: { endpoint: 'chat', component: 'gpt-oss-20b', model: 'openai/gpt-oss-20b', replica: 'r1' },
    request: { model: 'openai/gpt-oss-20b', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: content ?? `Explain how the KV cache works, part ${i}.` }] },
    response: { text: `The KV cache keeps the keys and values of past tokens, so that they are not recomputed (${i}).`, finishReasons: ['stop'], error: null },
    usage: { promptTokens: 20, completionTokens: 25, estimated: false },
    timings: { ttftS: 0.2, e2eS: 1.2, modelS: 1.1, overheadS: 0.01, chunks: 25, meanItlS: 0.04 },
    ...rest,
  };
}
