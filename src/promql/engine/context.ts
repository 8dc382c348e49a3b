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
  readonly annotations: Annotations;
  /** Wall clock (ms) for the timeout. */
  readonly now: () => number;
  readonly deadlineMs: number;
  readonly signal: AbortSignal | undefined;
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
  private ticks = 0;
  /** Points produced by the node being evaluated that `addSamples` has not counted yet. */
  private pending = 0;

  constructor(readonly init: QueryContextInit) {}

  /** Accounts for `n` more samples held; throws when the query holds too many. */
  addSamples(n: number, where: string): void {
    this.pending = 0;
    this.currentSamples += n;
    if (this.currentSamples > this.init.maxSamples) throw tooManySamplesError(where);
    if (this.currentSamples > this.peakSamples) this.peakSamples = this.currentSamples;
  }

  /**
   * Notes one more point produced (or sample read) by the node being evaluated, before the node
   * accounts for its whole output, so that a query over millions of steps fails early instead
   * of filling memory first.
   */
  point(): void {
    if (++this.pending + this.currentSamples > this.init.maxSamples) throw tooManySamplesError('query evaluation');
  }

  /** Releases `n` samples held. */
  releaseSamples(n: number): void {
    this.currentSamples -= n;
  }

  /**
   * Fails the query when its deadline passed or it was cancelled. Cheap enough to call in loops:
   * the clock is read once every 256 calls.
   */
  check(): void {
    if ((++this.ticks & 255) !== 0) return;
    this.checkNow();
  }

  /** Like `check`, but always reads the clock. */
  checkNow(): void {
    if (this.init.signal?.aborted) throw new QueryError('canceled', 'query was canceled');
    if (this.init.now() > this.init.deadlineMs) {
      throw new QueryError('timeout', 'query timed out in expression evaluation');
    }
  }
}
