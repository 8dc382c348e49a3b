/**
 * Test helpers for the `Timers` port: a manual clock and timer queue. `advance` moves time and
 * runs due timers in order, letting async work settle after each; no test sleeps. Used by the
 * scrape manager's and the gateway's tests.
 */
import type { Clock, DurationMs, UnixMs } from '../index.js';
import type { Timers } from '../timers.js';
import { VirtualTimers } from '../virtual-timers.js';

/** Lets promise chains and stream callbacks that are already runnable finish (no time passes). */
export async function flushAsync(rounds = 30): Promise<void> {
  // Test code only, run by vitest under Node: setImmediate lets I/O callbacks run between rounds.
  // eslint-disable-next-line no-restricted-globals
  for (let i = 0; i < rounds; i++) await new Promise<void>((r) => setImmediate(r));
}

/**
 * A manual clock and timer queue: `advance` moves time and runs due timers in time order (ties in
 * the order they were set), letting async work settle after each one. Tests drive scrape loops
 * with it and never sleep. The queue is the model's `VirtualTimers`.
 */
export class FakeTimers implements Timers {
  private readonly timers: VirtualTimers;

  constructor(now: UnixMs) {
    this.timers = new VirtualTimers(now);
  }

  /** The current fake time. */
  get now(): UnixMs {
    return this.timers.nowMs;
  }

  set now(tMs: UnixMs) {
    this.timers.nowMs = tMs;
  }

  /** The fake clock, to inject as `Clock`. */
  readonly clock: Clock = () => this.timers.nowMs;

  setTimeout(fn: () => void, delayMs: DurationMs): () => void {
    return this.timers.setTimeout(fn, delayMs);
  }

  /** The number of timers still pending. */
  get pending(): number {
    return this.timers.pendingCount();
  }

  /** Moves time forward by `ms`, running every timer that falls due on the way. */
  async advance(ms: DurationMs): Promise<void> {
    const end = this.now + ms;
    for (;;) {
      await flushAsync();
      if (!this.timers.fireOneUntil(end)) break;
    }
    this.timers.moveTo(end);
    await flushAsync();
  }
}
