/**
 * Test helpers: a manual clock and timer queue for the gateway's `Timers` port. `advance` moves
 * time and runs due timers in order, letting async work settle after each; no test sleeps.
 */
import type { Clock, DurationMs, UnixMs } from '../../model/index.js';
import type { Timers } from '../timers.js';

interface Pending {
  at: UnixMs;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

/** Lets already-runnable promise chains and I/O callbacks finish (no time passes). */
export async function settle(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((r) => setImmediate(r));
}

/** The fake timers. */
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

  /** Timers not yet run or cancelled. */
  get pending(): number {
    return this.queue.filter((p) => !p.cancelled).length;
  }

  /** Moves time forward by `ms`, running every timer that falls due on the way. */
  async advance(ms: DurationMs): Promise<void> {
    const end = this.now + ms;
    for (;;) {
      await settle();
      let next: Pending | undefined;
      for (const p of this.queue) if (!p.cancelled && p.at <= end && (next === undefined || p.at < next.at || (p.at === next.at && p.seq < next.seq))) next = p;
      if (next === undefined) break;
      this.queue.splice(this.queue.indexOf(next), 1);
      this.now = Math.max(this.now, next.at);
      next.fn();
    }
    this.now = end;
    for (let i = this.queue.length - 1; i >= 0; i--) if (this.queue[i].cancelled) this.queue.splice(i, 1);
    await settle();
  }
}
