/**
 * Test helpers for the `Timers` port: a manual clock and timer queue. `advance` moves time and
 * runs due timers in order, letting async work settle after each; no test sleeps. Used by the
 * scrape manager's and the gateway's tests.
 */
import type { Clock, DurationMs, UnixMs } from '../index.js';
import type { Timers } from '../timers.js';

interface Pending {
  at: UnixMs;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

/** Lets promise chains and stream callbacks that are already runnable finish (no time passes). */
export async function flushAsync(rounds = 30): Promise<void> {
  // Test code only, run by vitest under Node: setImmediate lets I/O callbacks run between rounds.
  // eslint-disable-next-line no-restricted-globals
  for (let i = 0; i < rounds; i++) await new Promise<void>((r) => setImmediate(r));
}

/**
 * A manual clock and timer queue: `advance` moves time and runs due timers in time order,
 * letting async work settle after each one. Tests drive scrape loops with it and never sleep.
 */
export class FakeTimers implements Timers {
  private readonly queue: Pending[] = [];
  private seq = 0;

  constructor(public now: UnixMs) {}

  /** The fake clock, to inject as `Clock`. */
  readonly clock: Clock = () => this.now;

  setTimeout(fn: () => void, delayMs: DurationMs): () => void {
    const p: Pending = { at: this.now + Math.max(0, delayMs), seq: this.seq++, fn, cancelled: false };
    this.queue.push(p);
    return () => {
      p.cancelled = true;
    };
  }

  /** The number of timers still pending. */
  get pending(): number {
    return this.queue.filter((p) => !p.cancelled).length;
  }

  /** Moves time forward by `ms`, running every timer that falls due on the way. */
  async advance(ms: DurationMs): Promise<void> {
    const end = this.now + ms;
    for (;;) {
      await flushAsync();
      let next: Pending | undefined;
      for (const p of this.queue) if (!p.cancelled && p.at <= end && (next === undefined || p.at < next.at || (p.at === next.at && p.seq < next.seq))) next = p;
      if (next === undefined) break;
      this.queue.splice(this.queue.indexOf(next), 1);
      this.now = Math.max(this.now, next.at);
      next.fn();
    }
    this.now = end;
    for (let i = this.queue.length - 1; i >= 0; i--) if (this.queue[i].cancelled) this.queue.splice(i, 1);
    await flushAsync();
  }
}
