/**
 * One replica (a copy of an inference component) on GPUs of one instance: its lifecycle (container
 * start, model download, weight load, warm-up, serving, draining, crash and restart) and the engine
 * process that serves while it is up. Requests reach it only when it is ready; a restart starts a
 * new process with fresh counters.
 */
import { Batcher, type BatcherHooks, type BatcherLimits } from './batcher.js';
import { buildPerfModel, type PerfModel, type StepTime } from './perf.js';
import type { RequestOutcome, SimRequest } from './request.js';
import type { Rng } from './rng.js';
import { EngineStats, recordFinished } from './stats.js';
import type { ComponentRuntime, Instance } from './fleet.js';

/** Lifecycle phases in order; `stopped` is final. */
export type ReplicaPhase = 'waiting-instance' | 'container' | 'downloading' | 'loading' | 'warming' | 'ready' | 'draining' | 'stopped';

/**
 * The phases of a start that the platform times: waiting for a new instance to launch, the
 * container, the model download (skipped when the instance has the model cached), engine start and
 * weight load, and warm-up until the engine serves.
 */
export type StartPhase = 'instance' | 'container' | 'download' | 'load' | 'warmup';

/** The start phases in the order a start runs them. */
export const START_PHASES: readonly StartPhase[] = ['instance', 'container', 'download', 'load', 'warmup'];

const START_PHASE_OF: Partial<Record<ReplicaPhase, StartPhase>> = { 'waiting-instance': 'instance', container: 'container', downloading: 'download', loading: 'load', warming: 'warmup' };

/** Error rates a fault sets on a replica (probabilities per request). */
export interface ReplicaErrorRates {
  http500: number;
  http503: number;
  midStreamAbort: number;
}

/** Times of the last start, seconds (engines report some of these natively). */
export interface StartTimings {
  downloadS: number;
  loadS: number;
  startupS: number;
}

/** A replica and its engine. */
export class Replica {
  phase: ReplicaPhase = 'waiting-instance';
  private phaseEndMs = Number.POSITIVE_INFINITY;
  readonly createdMs: number;
  containerStartMs = -1;
  readyMs = -1;
  firstServedMs = -1;
  perf: PerfModel | undefined;
  stats: EngineStats | undefined;
  batcher: Batcher | undefined;
  readonly limits: BatcherLimits;
  readonly errors: ReplicaErrorRates = { http500: 0, http503: 0, midStreamAbort: 0 };
  readonly timings: StartTimings = { downloadS: 0, loadS: 0, startupS: 0 };
  /** Restarts so far (crashes). */
  restarts = 0;
  /** Part of the fleet when the simulation began (no cold start), and when a scaling decision created or drained it. */
  initial = false;
  scaleOutDecisionMs = -1;
  scaleInDecisionMs = -1;
  private processStartMs = -1;
  /** When each phase of the last start began and ended (virtual ms; -1: not yet, or still running). */
  private readonly spans = Object.fromEntries(START_PHASES.map((p) => [p, { startMs: -1, endMs: -1 }])) as Record<StartPhase, { startMs: number; endMs: number }>;

  /** Creates a replica at `createdMs`; it waits for its instance, then starts. */
  constructor(
    readonly id: string,
    readonly component: ComponentRuntime,
    readonly instance: Instance,
    readonly gpuIndices: readonly number[],
    createdMs: number,
    private readonly rng: Rng,
  ) {
    this.createdMs = createdMs;
    this.spans.instance.startMs = createdMs;
    this.limits = { maxNumSeqs: 0, slowdown: 1 };
  }

  /** True while the engine's HTTP server answers (DJL serves metrics while it loads; vLLM and SGLang only once ready). */
  get up(): boolean {
    if (this.phase === 'ready' || this.phase === 'draining') return true;
    return this.component.spec.engine === 'djl' && (this.phase === 'loading' || this.phase === 'warming');
  }

  /** True when the router may send it requests. */
  get ready(): boolean {
    return this.phase === 'ready';
  }

  /** Requests queued or running. */
  get outstanding(): number {
    return this.batcher?.outstanding ?? 0;
  }

  /** Advances the lifecycle and the engine to `untilMs`. */
  advance(untilMs: number): void {
    for (let guard = 0; guard < 16 && this.phaseEndMs <= untilMs; guard++) this.enterNext(this.phaseEndMs);
    if (this.phase === 'waiting-instance' && this.instance.readyMs <= untilMs) this.enter('container', Math.max(this.createdMs, this.instance.readyMs));
    for (let guard = 0; guard < 16 && this.phaseEndMs <= untilMs; guard++) this.enterNext(this.phaseEndMs);
    if (this.batcher !== undefined && (this.phase === 'ready' || this.phase === 'draining')) {
      this.batcher.advance(untilMs);
      if (this.phase === 'draining' && this.batcher.outstanding === 0) this.enter('stopped', untilMs);
    }
  }

  private enterNext(tMs: number): void {
    switch (this.phase) {
      case 'container':
        this.enter(this.instance.cachedModels.has(this.component.model.name) ? 'loading' : 'downloading', tMs);
        return;
      case 'downloading':
        this.instance.cachedModels.add(this.component.model.name);
        this.enter('loading', tMs);
        return;
      case 'loading':
        this.enter('warming', tMs);
        return;
      case 'warming':
        this.enter('ready', tMs);
        return;
      default:
        this.phaseEndMs = Number.POSITIVE_INFINITY;
    }
  }

  /**
   * Seconds phase `p` of the last start took, or has taken so far at `nowMs` while it runs; 0 when
   * it has not run (a cached model's download). A restart after a crash runs load and warm-up again.
   */
  startPhaseS(p: StartPhase, nowMs: number): number {
    const s = this.spans[p];
    return s.startMs < 0 ? 0 : ((s.endMs < 0 ? nowMs : s.endMs) - s.startMs) / 1000;
  }

  private timePhases(next: ReplicaPhase, tMs: number): void {
    const leaving = START_PHASE_OF[this.phase];
    if (leaving !== undefined) this.spans[leaving].endMs = tMs;
    const entering = START_PHASE_OF[next];
    if (entering === undefined) return;
    // Entering a phase starts it afresh and forgets the later phases of the previous start.
    for (const p of START_PHASES.slice(START_PHASES.indexOf(entering) + 1)) Object.assign(this.spans[p], { startMs: -1, endMs: -1 });
    if (entering === 'load' && this.phase === 'container') Object.assign(this.spans.download, { startMs: -1, endMs: -1 });
    Object.assign(this.spans[entering], { startMs: tMs, endMs: -1 });
  }

  private enter(phase: ReplicaPhase, tMs: number): void {
    this.timePhases(phase, tMs);
    this.phase = phase;
    this.phaseEndMs = Number.POSITIVE_INFINITY;
    const ctx = this.component.ctx;
    const spec = this.component.spec;
    switch (phase) {
      case 'container':
        this.containerStartMs = tMs;
        this.phaseEndMs = tMs + ctx.containerStartMs;
        break;
      case 'downloading': {
        this.timings.downloadS = (this.component.model.weightGiB * 1073.741824) / ctx.downloadMBps(this);
        this.phaseEndMs = tMs + this.timings.downloadS * 1000;
        break;
      }
      case 'loading': {
        // A new engine process: new counters, a KV budget sized by the memory free right now.
        this.perf = buildPerfModel(this.component.model, this.instance.type, this.gpuIndices.length, spec.engine, {
          downloadMBps: 1,
          foreignMiBPerGpu: this.instance.foreignMiBPerGpu,
          kvBudgetFactor: this.component.kvBudgetFactor,
        });
        this.limits.maxNumSeqs = this.perf.maxNumSeqs;
        this.processStartMs = tMs;
        this.stats = new EngineStats(spec.engine, spec.maxModelLen, tMs);
        this.timings.loadS = this.perf.loadS;
        this.phaseEndMs = tMs + (this.perf.processStartS + this.perf.loadS) * 1000;
        break;
      }
      case 'warming':
        this.phaseEndMs = tMs + this.perf!.warmupS * 1000;
        break;
      case 'ready':
        this.timings.startupS = (tMs - this.processStartMs) / 1000;
        this.readyMs = tMs;
        this.batcher = new Batcher(this.perf!, this.limits, this.hooks, tMs);
        ctx.replicaReady(this, tMs);
        break;
      case 'stopped':
        this.batcher = undefined;
        ctx.replicaStopped(this, tMs);
        break;
      default:
        break;
    }
  }

  /** Stops taking requests and stops once the queue is empty. */
  drain(tMs: number): void {
    if (this.phase === 'ready') this.phase = 'draining';
    else if (this.phase !== 'draining' && this.phase !== 'stopped') this.enter('stopped', tMs);
  }

  /** The engine process dies (CUDA OOM, a bad GPU): its requests fail and it restarts. */
  crash(tMs: number, message: string): void {
    if (this.batcher !== undefined) {
      for (const r of this.batcher.clear()) {
        this.end(r, r.firstTokenMs >= 0 ? { kind: 'aborted', message } : { kind: 'rejected', status: 500, message }, tMs);
      }
    }
    this.batcher = undefined;
    this.restarts++;
    if (this.phase === 'draining') this.enter('stopped', tMs);
    else if (this.phase === 'loading' || this.phase === 'warming' || this.phase === 'ready') this.enter('loading', tMs);
  }

  /** Starts already warm at `tMs` (the fleet as it stands when the simulation begins). */
  bootReady(tMs: number): void {
    this.instance.cachedModels.add(this.component.model.name);
    this.containerStartMs = tMs;
    this.enter('loading', tMs);
    this.enter('warming', tMs);
    this.enter('ready', tMs);
  }

  /** GPU memory the engine holds on each of its GPUs at `tMs`, MiB (it grows while weights load). */
  fbUsedMiB(tMs: number): number {
    const p = this.perf;
    if (p === undefined || !(this.phase === 'loading' || this.phase === 'warming' || this.phase === 'ready' || this.phase === 'draining')) return 0;
    if (this.phase === 'loading') {
      const startLoad = this.processStartMs + p.processStartS * 1000;
      const f = Math.min(1, Math.max(0, (tMs - startLoad) / (p.loadS * 1000)));
      return 350 + f * p.weightsMiBPerGpu;
    }
    return p.reservedMiBPerGpu;
  }

  /** True while weights stream over PCIe into GPU memory. */
  loadingWeights(tMs: number): boolean {
    const p = this.perf;
    return p !== undefined && this.phase === 'loading' && tMs >= this.processStartMs + p.processStartS * 1000;
  }

  /** Takes a request routed to this replica at `r.arrivalMs`, or fails it at once. */
  accept(r: SimRequest): void {
    r.replicaId = this.id;
    const s = this.stats;
    if (!this.ready || this.batcher === undefined || s === undefined) {
      this.end(r, { kind: 'rejected', status: 503, message: 'replica is not ready' }, r.arrivalMs);
      return;
    }
    if (r.promptTokens >= this.component.spec.maxModelLen) {
      s.http4xx++;
      const msg = `This model's maximum context length is ${this.component.spec.maxModelLen} tokens. However, you requested ${r.promptTokens} tokens in the messages.`;
      this.end(r, { kind: 'rejected', status: 400, message: msg }, r.arrivalMs);
      return;
    }
    const u = this.rng.next();
    if (u < this.errors.http500) {
      s.http5xx++;
      this.end(r, { kind: 'rejected', status: 500, message: 'Internal server error: engine step failed' }, r.arrivalMs);
      return;
    }
    if (u < this.errors.http500 + this.errors.http503) {
      s.http5xx++;
      this.end(r, { kind: 'rejected', status: 503, message: 'Service unavailable: engine is overloaded' }, r.arrivalMs);
      return;
    }
    if (u < this.errors.http500 + this.errors.http503 + this.errors.midStreamAbort && r.outputTokens > 1) r.abortAfterTokens = 1 + this.rng.int(0, r.outputTokens - 1);
    this.batcher.add(r);
  }

  private end(r: SimRequest, outcome: RequestOutcome, tMs: number): void {
    r.observer?.end(r, outcome, tMs);
    r.listener?.onEnd(outcome, tMs);
  }

  private readonly hooks: BatcherHooks = {
    steps: (n: number, st: StepTime, seqs: number, tokens: number, decodeSeqs: number, prefillTokens: number, cachedTokens: number) => {
      const s = this.stats!;
      s.busyS += n * st.totalS;
      s.computeS += n * st.computeS;
      s.memoryS += n * st.memoryS;
      s.steps += n;
      s.seqSteps += n * seqs;
      s.prefillComputeTokens += prefillTokens;
      s.cachedTokens += cachedTokens;
      s.generationTokens += n * decodeSeqs;
      s.h.iterationTokens?.observeN(tokens, n);
      s.h.itl?.observeN(st.totalS, n * decodeSeqs);
      if (s.h.itl !== null) this.component.truth.record('itl', this.batcher!.tMs, st.totalS, n * decodeSeqs, this.instance.id);
    },
    firstToken: (r: SimRequest, tMs: number) => {
      const s = this.stats!;
      if (this.firstServedMs < 0) {
        this.firstServedMs = tMs;
        this.component.ctx.replicaFirstServed(this, tMs);
      }
      s.promptTokens += r.promptTokens;
      s.prefixQueryTokens += r.promptTokens;
      s.generationTokens++;
      s.h.ttft?.observe((tMs - r.arrivalMs) / 1000);
      if (s.h.ttft !== null) this.component.truth.record('ttft', tMs, (tMs - r.arrivalMs) / 1000, 1, this.instance.id);
      r.observer?.firstToken(r, tMs);
      r.listener?.onTokens(1, tMs, 0);
    },
    tokens: (r: SimRequest, count: number, firstMs: number, intervalMs: number) => r.listener?.onTokens(count, firstMs, intervalMs),
    finished: (r: SimRequest, tMs: number, reason: 'stop' | 'length') => {
      const s = this.stats!;
      if (reason === 'stop') s.finishedStop++;
      else s.finishedLength++;
      s.http2xx++;
      recordFinished(s, r, tMs, this.component.truth, this.instance.id);
      this.end(r, { kind: 'finished', reason }, tMs);
    },
    aborted: (r: SimRequest, tMs: number) => {
      const s = this.stats!;
      s.finishedAbort++;
      if (r.firstTokenMs >= 0) s.http2xx++;
      else s.http5xx++;
      recordFinished(s, r, tMs, this.component.truth, this.instance.id);
      this.end(r, r.firstTokenMs >= 0 ? { kind: 'aborted', message: 'engine failure mid-stream' } : { kind: 'rejected', status: 500, message: 'engine failure' }, tMs);
    },
    preempted: (r: SimRequest) => {
      const s = this.stats!;
      s.preemptions++;
      s.retractedInputTokens += r.promptTokens;
      s.retractedOutputTokens += r.generated;
    },
  };
}
