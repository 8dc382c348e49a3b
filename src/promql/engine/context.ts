import type { Querier } from '../../storage/index.js';
import type { Annotations } from '../annotations.js';
import { QueryError, tooManySamplesError } from '../errors.js';
import type { QueryFrame } from './preprocess.js';

/** Settings shared by every evaluator of one query (the outer one and those of subqueries). */
export interface QueryContextInit {
  readonly querier: Querier;
  readonly frame: QueryFrame;
  readonly lookbackDeltaMs: number;
  readonly maxSamples: number;
  readonly noStepSubqueryIntervalMs: number;
  readonly delayedNameRemoval: boolean;
  /** Whether the fused hot paths may replace the general evaluation of their shapes. */
  readonly fusedPaths: boolean;
  readonly annotations: Annotations;
  /** Wall clock (ms) for the timeout. */
  readonly now: () => number;
  readonly deadlineMs: number;
  readonly signal: AbortSignal | undefined;
  /**
   * How long the evaluation may now hold the event loop before it yields (ms of `now`); other
   * requests (`/-/healthy`, other queries, the client's disconnect) run in between. A function:
   * the engine shares its budget among the queries evaluating at once, because every query
   * waiting to resume runs in the same turn of the loop.
   */
  readonly sliceMs: () => number;
}

/** Units of work (steps, samples, series × steps) between two reads of the clock. */
const WORK_PER_CLOCK_READ = 1024;

/** Lets the event loop run everything that is ready (I/O included), then resumes. */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * The mutable state of one query: the sample budget and the deadline. Prometheus counts the
 * samples an evaluation holds at once (`currentSamples`) and fails when they pass `maxSamples`;
 * we do the same, adding a node's output when it is produced and releasing its inputs' samples
 * once it is done with them.
 */
export class QueryContext {
  currentSamples = 0;
  peakSamples = 0;
  totalQueryableSamples = 0;
  /** Work counted since the clock was last read. */
  private work = 0;
  /** Clock reads so far (each a point where the deadline and the signal were checked). */
  clockReads = 0;
  private lastYieldMs: number;
  /** Points produced by the node being evaluated that `addSamples` has not counted yet. */
  private pending = 0;

  constructor(readonly init: QueryContextInit) {
    this.lastYieldMs = init.now();
  }

  /** Accounts for `n` more samples held; throws when the query holds too many. */
  addSamples(n: number, where: string): void {
    this.pending = 0;
    this.currentSamples += n;
    if (this.currentSamples > this.init.maxSamples) throw tooManySamplesError(where);
    if (this.currentSamples > this.peakSamples) this.peakSamples = this.currentSamples;
  }

  /**
   * Notes `n` (default one) more points produced (or samples read) by the node being evaluated,
   * before the node accounts for its whole output, so that a query over millions of steps fails
   * early instead of filling memory first.
   */
  point(n = 1): void {
    this.pending += n;
    if (this.pending + this.currentSamples > this.init.maxSamples) throw tooManySamplesError('query evaluation');
  }

  /** Releases `n` samples held. */
  releaseSamples(n: number): void {
    this.currentSamples -= n;
  }

  /**
   * Counts `work` units (one step, one sample read, or a step over `n` series) and, every
   * `WORK_PER_CLOCK_READ` units, reads the clock: fails the query when its deadline passed or it
   * was cancelled. Returns true when the evaluation has held the event loop for `sliceMs()`:
   * an async caller then awaits `pause()`; a synchronous one ignores it. Cheap enough for inner
   * loops.
   */
  check(work = 1): boolean {
    this.work += work;
    if (this.work < WORK_PER_CLOCK_READ) return false;
    this.work = 0;
    const t = this.checkNow();
    return t - this.lastYieldMs >= this.init.sliceMs();
  }

  /** Like `check`, but always reads the clock; returns the time read. */
  checkNow(): number {
    this.clockReads++;
    if (this.init.signal?.aborted) throw new QueryError('canceled', 'query was canceled');
    const t = this.init.now();
    if (t > this.init.deadlineMs) throw new QueryError('timeout', 'query timed out in expression evaluation');
    return t;
  }

  /**
   * Yields to the event loop (after `check` returned true), then checks again: the client may
   * have gone away, or the deadline passed, while others ran.
   */
  async pause(): Promise<void> {
    await yieldToEventLoop();
    this.lastYieldMs = this.checkNow();
  }
}
