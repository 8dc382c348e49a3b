/**
 * Continuous batching with a paged KV cache, as vLLM V1 schedules it: every step gives each
 * decoding sequence one token and spends the rest of the token budget on prefill chunks (running
 * requests first, then waiting ones in arrival order); a request is admitted only when its chunk's
 * KV blocks are free; when a decoding sequence needs a block and none is free, the most recently
 * admitted request is preempted (its blocks freed, recomputed later). Runs of identical decode
 * steps are advanced in one go, so the cost is per event (arrival, completion), not per token.
 */
import { stepTime, type PerfModel, type StepTime } from './perf.js';
import type { SimRequest } from './request.js';

/** What the batcher reports; the replica turns it into engine metrics and request outcomes. */
export interface BatcherHooks {
  /** `n` identical steps ran, each `st` long, each computing `tokens` for `seqs` sequences (`decodeSeqs` of them decoding). */
  steps(n: number, st: StepTime, seqs: number, tokens: number, decodeSeqs: number, prefillTokens: number, cachedTokens: number): void;
  firstToken(r: SimRequest, tMs: number): void;
  /** `count` more tokens after the first, the first of them at `firstMs`, then every `intervalMs`. */
  tokens(r: SimRequest, count: number, firstMs: number, intervalMs: number): void;
  finished(r: SimRequest, tMs: number, reason: 'stop' | 'length'): void;
  aborted(r: SimRequest, tMs: number): void;
  preempted(r: SimRequest, tMs: number): void;
}

/** Limits a fault may change while the engine runs. */
export interface BatcherLimits {
  maxNumSeqs: number;
  /** ≥ 1: every step takes this many times longer. */
  slowdown: number;
}

/** One replica's scheduler state. Time is virtual milliseconds, fractions allowed. */
export class Batcher {
  /** The replica's local time: it may run up to one step past the last `advance` target. */
  tMs: number;
  readonly pending: SimRequest[] = [];
  private pendingHead = 0;
  readonly waiting: SimRequest[] = [];
  readonly running: SimRequest[] = [];
  usedBlocks = 0;
  kvTokens = 0;
  private reserved = 0;
  private readonly st: StepTime = { totalS: 0, computeS: 0, memoryS: 0 };
  private readonly chunk: number[] = [];

  /** Creates an idle batcher at `startMs`. */
  constructor(
    readonly perf: PerfModel,
    readonly limits: BatcherLimits,
    private readonly hooks: BatcherHooks,
    startMs: number,
  ) {
    this.tMs = startMs;
  }

  /** Queues a request that arrives at `r.arrivalMs` (requests must be added in arrival order). */
  add(r: SimRequest): void {
    this.pending.push(r);
  }

  /** Requests waiting or running (including those that have not arrived yet). */
  get outstanding(): number {
    return this.pending.length - this.pendingHead + this.waiting.length + this.running.length;
  }

  /** Drops every request (the engine crashed or stopped) and returns them. */
  clear(): SimRequest[] {
    const all = [...this.running, ...this.waiting, ...this.pending.slice(this.pendingHead)];
    this.running.length = 0;
    this.waiting.length = 0;
    this.pending.length = 0;
    this.pendingHead = 0;
    this.usedBlocks = 0;
    this.kvTokens = 0;
    return all;
  }

  /** Runs the engine until its local time reaches `untilMs`. */
  advance(untilMs: number): void {
    while (this.tMs < untilMs) {
      this.takeArrivals();
      if (!this.step(untilMs)) {
        const next = this.pendingHead < this.pending.length ? this.pending[this.pendingHead].arrivalMs : untilMs;
        this.tMs = Math.max(this.tMs, Math.min(next, untilMs));
      }
    }
    this.takeArrivals();
  }

  private takeArrivals(): void {
    while (this.pendingHead < this.pending.length && this.pending[this.pendingHead].arrivalMs <= this.tMs) {
      this.waiting.push(this.pending[this.pendingHead++]);
    }
    if (this.pendingHead > 256 && this.pendingHead * 2 > this.pending.length) {
      this.pending.splice(0, this.pendingHead);
      this.pendingHead = 0;
    }
  }

  private blocksFor(tokens: number): number {
    return Math.ceil(tokens / this.perf.blockSize);
  }

  /** Free blocks, less those reserved for this step's decoding sequences. */
  private get freeBlocks(): number {
    return this.perf.kvBlocks - this.usedBlocks - this.reserved;
  }

  private release(r: SimRequest): void {
    this.usedBlocks -= r.blocks;
    this.kvTokens -= r.ctx;
    r.blocks = 0;
    r.ctx = 0;
  }

  /** Preempts the most recently admitted running request other than `keep`; false when none. */
  private preemptOne(keep: SimRequest | undefined): boolean {
    for (let i = this.running.length - 1; i >= 0; i--) {
      const victim = this.running[i];
      if (victim === keep) continue;
      this.running.splice(i, 1);
      this.release(victim);
      victim.prefilled = 0;
      victim.prefillTarget = victim.promptTokens + victim.generated;
      victim.preemptions++;
      this.waiting.unshift(victim);
      this.hooks.preempted(victim, this.tMs);
      return true;
    }
    return false;
  }

  /** Schedules and runs one step (or a run of identical decode steps); false when idle. */
  private step(untilMs: number): boolean {
    const p = this.perf;
    // Decoding sequences first: each needs room for one more token, preempting others if not.
    this.reserved = 0;
    for (let i = 0; i < this.running.length; i++) {
      const r = this.running[i];
      if (r.prefilled < r.prefillTarget) continue;
      const need = this.blocksFor(r.ctx + 1) - r.blocks;
      while (need > this.freeBlocks && this.preemptOne(r));
      i = this.running.indexOf(r);
      if (need > this.freeBlocks) {
        // Alone and still too big for the cache: the engine fails it.
        this.running.splice(i--, 1);
        this.release(r);
        this.hooks.aborted(r, this.tMs);
        continue;
      }
      this.reserved += need;
    }
    let decodeSeqs = 0;
    for (const r of this.running) if (r.prefilled >= r.prefillTarget) decodeSeqs++;
    let budget = p.maxBatchedTokens - decodeSeqs;
    // Prefill chunks: running requests still prefilling, then waiting ones in order.
    this.chunk.length = 0;
    let prefillTokens = 0;
    let cachedTokens = 0;
    let ctxSum = 0;
    let prefillSeqs = 0;
    const assign = (r: SimRequest, take: number): void => {
      this.chunk.push(take);
      budget -= take;
      prefillTokens += take;
      ctxSum += take * (r.ctx + take / 2);
      if (take > 0) prefillSeqs++;
      this.grow(r, take);
    };
    for (const r of this.running) if (r.prefilled < r.prefillTarget) assign(r, this.fitChunk(r, budget));
    while (this.waiting.length > 0 && budget > 0 && this.running.length < this.limits.maxNumSeqs) {
      const r = this.waiting[0];
      if (r.generated === 0 && r.prefilled === 0 && r.cachedTokens > 0 && r.preemptions === 0) {
        // A prefix-cache hit: those tokens need blocks but no compute.
        if (this.blocksFor(r.cachedTokens + 1) > this.freeBlocks) break;
        r.prefilled = r.cachedTokens;
        this.grow(r, r.cachedTokens);
        cachedTokens += r.cachedTokens;
      }
      // Admit only when the whole prompt fits beside a 1% watermark, so admissions do not
      // immediately force preemptions of running sequences (vLLM's block-manager watermark).
      if (this.blocksFor(r.prefillTarget + 1) - r.blocks > this.freeBlocks - Math.ceil(p.kvBlocks * 0.01) && this.running.length > 0) break;
      const take = this.fitChunk(r, budget);
      if (take === 0) break;
      this.waiting.shift();
      this.running.push(r);
      if (r.scheduledMs < 0) r.scheduledMs = this.tMs;
      assign(r, take);
    }
    if (decodeSeqs === 0 && prefillTokens === 0) {
      if (this.running.length === 0 && this.waiting.length > 0) {
        // The head of the queue can never fit in the cache: the engine fails it.
        const r = this.waiting.shift()!;
        this.release(r);
        this.hooks.aborted(r, this.tMs);
        return true;
      }
      return false;
    }
    const seqs = decodeSeqs + prefillSeqs;
    const n = prefillTokens === 0 ? this.decodeRun(untilMs, decodeSeqs) : 1;
    const kvAvg = this.kvTokens + (decodeSeqs * (n + 1)) / 2;
    const st = stepTime(p, seqs, decodeSeqs + prefillTokens, kvAvg, prefillTokens > 0 ? ctxSum / prefillTokens : 0, this.limits.slowdown, this.st);
    this.hooks.steps(n, st, seqs, decodeSeqs + prefillTokens, decodeSeqs, prefillTokens, cachedTokens);
    this.reserved = 0;
    this.finishStep(n, st.totalS * 1000);
    return true;
  }

  /** The prefill tokens `r` can take within `budget` and the free KV blocks. */
  private fitChunk(r: SimRequest, budget: number): number {
    let take = Math.min(r.prefillTarget - r.ctx, budget);
    const free = this.freeBlocks + r.blocks;
    while (take > 0 && this.blocksFor(r.ctx + take) > free) take = Math.floor(take / 2);
    return Math.max(0, take);
  }

  private grow(r: SimRequest, tokens: number): void {
    const blocks = this.blocksFor(r.ctx + tokens);
    this.usedBlocks += blocks - r.blocks;
    r.blocks = blocks;
    r.ctx += tokens;
    this.kvTokens += tokens;
  }

  /** How many identical decode steps can run before anything changes (an arrival, a completion, the tick's end). */
  private decodeRun(untilMs: number, seqs: number): number {
    const est = stepTime(this.perf, seqs, seqs, this.kvTokens, 0, this.limits.slowdown, this.st).totalS * 1000;
    let n = Math.max(1, Math.ceil((untilMs - this.tMs) / est));
    if (this.pendingHead < this.pending.length) n = Math.min(n, Math.max(1, Math.ceil((this.pending[this.pendingHead].arrivalMs - this.tMs) / est)));
    for (const r of this.running) {
      n = Math.min(n, r.outputTokens - r.generated);
      if (r.abortAfterTokens > 0) n = Math.min(n, Math.max(1, r.abortAfterTokens - r.generated));
    }
    // Keep within the free KV blocks (waiting requests cannot be admitted before a completion).
    const free = this.perf.kvBlocks - this.usedBlocks;
    while (n > 1) {
      let need = 0;
      for (const r of this.running) need += this.blocksFor(r.ctx + n) - r.blocks;
      if (need <= free) break;
      n = Math.max(1, Math.floor(n / 2));
    }
    return Math.max(1, n);
  }

  private finishStep(n: number, dMs: number): void {
    const start = this.tMs;
    const end = start + n * dMs;
    this.tMs = end;
    const done: SimRequest[] = [];
    let c = 0;
    for (const r of this.running) {
      if (r.prefilled < r.prefillTarget) {
        r.prefilled += this.chunk[c++];
        if (r.prefilled < r.prefillTarget) continue;
        r.generated++;
        if (r.firstTokenMs < 0) {
          r.firstTokenMs = end;
          this.hooks.firstToken(r, end);
        } else this.hooks.tokens(r, 1, end, dMs);
      } else {
        // Decoding: one token per step; the previous token's KV is written (blocks reserved above).
        const extra = this.blocksFor(r.ctx + n) - r.blocks;
        this.usedBlocks += extra;
        r.blocks += extra;
        r.ctx += n;
        this.kvTokens += n;
        r.generated += n;
        this.hooks.tokens(r, n, start + dMs, dMs);
      }
      if (r.generated >= r.outputTokens || (r.abortAfterTokens > 0 && r.generated >= r.abortAfterTokens)) done.push(r);
    }
    for (const r of done) {
      this.running.splice(this.running.indexOf(r), 1);
      this.release(r);
      if (r.abortAfterTokens > 0 && r.generated >= r.abortAfterTokens && r.generated < r.outputTokens) this.hooks.aborted(r, end);
      else this.hooks.finished(r, end, r.outputTokens >= r.maxTokens ? 'length' : 'stop');
    }
  }
}
