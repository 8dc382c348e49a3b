/**
 * Small honest stand-ins for src/quality's parts in the server's tests: a pipeline that stores
 * each accepted gateway sample as a pair (with one stage-1 check, `empty`) behind a bounded
 * queue, a drift runner with fixed events, and builders of pairs and evaluations. They test the
 * wiring and the routes (what reaches the store, what the API answers), not the evaluators or
 * the statistics, which src/quality's own tests cover.
 */
import type { GatewaySample } from '../../gateway/index.js';
import type { UnixMs } from '../../model/index.js';
import type { DriftEvent, Evaluation, SampledPair } from '../../quality/index.js';
import type { DriftRunnerPort, QualityPipelinePort, QualityPipelinePorts, QualityWiringOptions } from '../quality-wiring.js';
import { MemorySampleStore } from './memory-sample-store.js';

/** A pair with test defaults. */
export function testPair(id: string, tMs: UnixMs, over: Partial<SampledPair> = {}): SampledPair {
  return {
    id,
    tMs,
    endpoint: 'chat',
    component: 'llama-a',
    model: 'llama-3-8b',
    prompt: 'user: hello',
    response: 'Hello! How can I help?',
    status: 200,
    finishReason: 'stop',
    promptTokens: 3,
    completionTokens: 6,
    wantJson: false,
    ttftS: 0.12,
    e2eS: 0.8,
    ...over,
  };
}

/** A judge's evaluation of `pairId` on `dimension`. */
export function testJudgeEvaluation(pairId: string, dimension: Evaluation['dimension'], score: number, tMs: UnixMs, detail = 'fine'): Evaluation {
  return { pairId, stage: 2, evaluator: `judge:${dimension ?? 'none'}`, dimension, score, flag: null, detail, error: null, durationS: 0.4, judgeTokens: { input: 120, output: 30 }, tMs };
}

/** A stage-1 flag on `pairId`. */
export function testFlag(pairId: string, flag: NonNullable<Evaluation['flag']>, tMs: UnixMs): Evaluation {
  return { pairId, stage: 1, evaluator: `stage1:${flag}`, dimension: null, score: 0, flag, detail: `${flag} detected`, error: null, durationS: 0.0001, judgeTokens: null, tMs };
}

/** The prompt of a chat request as one text (role-prefixed lines), or its `prompt`. */
function promptText(request: unknown): string {
  const r = (request ?? {}) as { messages?: { role?: unknown; content?: unknown }[]; prompt?: unknown };
  if (Array.isArray(r.messages)) return r.messages.map((m) => `${String(m.role)}: ${typeof m.content === 'string' ? m.content : JSON.stringify(m.content)}`).join('\n');
  return typeof r.prompt === 'string' ? r.prompt : '';
}

/** See the file comment: stores each sample as a pair plus an `empty` check, `maxQueue` pending at most. */
export class TestPipeline implements QualityPipelinePort {
  accepted = 0;
  dropped = 0;
  private readonly pending: Promise<void>[] = [];
  private seq = 0;

  constructor(
    readonly ports: QualityPipelinePorts,
    private readonly maxQueue = 64,
  ) {}

  accept(sample: GatewaySample): void {
    if (this.pending.length >= this.maxQueue) {
      this.dropped++;
      return;
    }
    this.accepted++;
    const id = `s-${++this.seq}`;
    const pair: SampledPair = {
      id,
      tMs: sample.tMs,
      endpoint: sample.labels.endpoint ?? '',
      component: sample.labels.component ?? '',
      model: sample.model,
      prompt: this.ports.redact(promptText(sample.request)),
      response: this.ports.redact(sample.response.text),
      status: sample.status,
      finishReason: sample.response.finishReasons[0] ?? null,
      promptTokens: sample.usage?.promptTokens ?? null,
      completionTokens: sample.usage?.completionTokens ?? null,
      wantJson: false,
      ttftS: sample.timings.ttftS,
      e2eS: sample.timings.e2eS,
    };
    const empty = pair.response.trim() === '';
    const p = (async () => {
      await this.ports.store.putPairs([pair]);
      await this.ports.store.putEvaluations([{ pairId: id, stage: 1, evaluator: 'stage1:empty', dimension: null, score: empty ? 0 : 1, flag: empty ? 'empty' : null, detail: '', error: null, durationS: 0, judgeTokens: null, tMs: sample.tMs }]);
    })().catch(() => undefined);
    this.pending.push(p);
  }

  async drain(): Promise<void> {
    await Promise.all(this.pending.splice(0));
  }

  close(): void {}

  stats(): { queued: number; accepted: number; dropped: number; judgeBudgetLeft: number } {
    return { queued: this.pending.length, accepted: this.accepted, dropped: this.dropped, judgeBudgetLeft: this.ports.tokenBudgetPerHour };
  }
}

/** A drift runner whose events are fixed; counts its replays and starts. */
export class TestDriftRunner implements DriftRunnerPort {
  replays: [UnixMs, UnixMs][] = [];
  started = 0;
  stopped = 0;

  constructor(private readonly fixed: readonly DriftEvent[]) {}

  async replay(fromMs: UnixMs, toMs: UnixMs): Promise<void> {
    this.replays.push([fromMs, toMs]);
  }

  start(): void {
    this.started++;
  }

  stop(): void {
    this.stopped++;
  }

  events(startMs: UnixMs, endMs: UnixMs): readonly DriftEvent[] {
    return this.fixed.filter((e) => e.detectedMs >= startMs && e.onsetMs <= endMs);
  }
}

/** A drift event of `model` on safety, with onset `onsetMs`. */
export function testDriftEvent(id: string, onsetMs: UnixMs, model = 'llama-3-8b'): DriftEvent {
  return { id, model, component: 'llama-a', subject: { kind: 'score', dimension: 'safety' }, test: 'page-hinkley', statistic: 12.5, threshold: 8, onsetMs, detectedMs: onsetMs + 4 * 60_000, summary: 'safety fell from 0.95 to 0.71' };
}

/** The parts a test server gets, and the options that bind them (quality on without a `quality:` section). */
export function testQualityParts(events: readonly DriftEvent[] = [], store: MemorySampleStore = new MemorySampleStore()): {
  store: MemorySampleStore;
  drift: TestDriftRunner;
  pipelines: TestPipeline[];
  options: QualityWiringOptions;
} {
  const drift = new TestDriftRunner(events);
  const pipelines: TestPipeline[] = [];
  return {
    store,
    drift,
    pipelines,
    options: {
      openStore: async () => store,
      createPipeline: (ports) => {
        const p = new TestPipeline(ports);
        pipelines.push(p);
        return p;
      },
      createDriftRunner: () => drift,
      defaults: {},
    },
  };
}
