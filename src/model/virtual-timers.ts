/**
 * A clock and timer queue in virtual time, for everything that waits on the `Timers` port and
 * must run faster than the wall clock: the demo's history replay (the scrape manager's loops,
 * timeouts and file_sd refreshes wait on it, and the replay moves it as fast as the work allows)
 * and tests (testing/fake-timers.ts builds `FakeTimers` on it). A binary heap, because a replay
 * fires tens of thousands of timers; settling async work between timers is left to the caller.
 */
import type { Clock, DurationMs, UnixMs } from './time.js';
import type { Timers } from './timers.js';

interface Pending {
  readonly atMs: UnixMs;
  readonly seq: number;
  readonly fn: () => void;
  cancelled: boolean;
}

const before = (a: Pending, b: Pending): boolean => a.atMs < b.atMs || (a.atMs === b.atMs && a.seq < b.seq);

/** Timers that fire only when `fireNext` says so, in time order (ties in the order they were set). */
export class VirtualTimers implements Timers {
  private readonly heap: Pending[] = [];
  private seq = 0;

  /** Starts the clock at `nowMs`. */
  constructor(public nowMs: UnixMs) {}

  /** The virtual clock, to inject as `Clock`. */
  readonly clock: Clock = () => this.nowMs;

  setTimeout(fn: () => void, delayMs: DurationMs): () => void {
    const p: Pending = { atMs: this.nowMs + Math.max(0, delayMs), seq: this.seq++, fn, cancelled: false };
    this.push(p);
    return () => {
      p.cancelled = true;
    };
  }

  /** The number of timers still pending (not fired, not cancelled). */
  pendingCount(): number {
    return this.heap.filter((p) => !p.cancelled).length;
  }

  /**
   * Fires the one earliest live timer if it is due at or before `endMs`, with the clock set to its
   * time (never back). Returns whether one fired.
   */
  fireOneUntil(endMs: UnixMs): boolean {
    const at = this.nextAtMs();
    if (at === undefined || at > endMs) return false;
    this.nowMs = Math.max(this.nowMs, at);
    this.pop().fn();
    return true;
  }

  /** When the next live timer is due; undefined when none is pending. */
  nextAtMs(): UnixMs | undefined {
    this.dropCancelled();
    return this.heap[0]?.atMs;
  }

  /**
   * Fires every live timer due at the earliest pending time, if that is before `endMs`, with the
   * clock set to that time (it never moves back). Returns how many fired (0: none before `endMs`).
   */
  fireNext(endMs: UnixMs): number {
    const at = this.nextAtMs();
    if (at === undefined || at >= endMs) return 0;
    this.nowMs = Math.max(this.nowMs, at);
    let fired = 0;
    while (this.heap.length > 0 && this.heap[0].atMs === at) {
      const p = this.pop();
      if (p.cancelled) continue;
      fired++;
      p.fn();
    }
    return fired;
  }

  /** Moves the clock to `tMs` (never back) without firing anything. */
  moveTo(tMs: UnixMs): void {
    this.nowMs = Math.max(this.nowMs, tMs);
  }

  private dropCancelled(): void {
    while (this.heap.length > 0 && this.heap[0].cancelled) this.pop();
  }

  private push(p: Pending): void {
    const h = this.heap;
    h.push(p);
    for (let i = h.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (!before(h[i], h[parent])) break;
      [h[i], h[parent]] = [h[parent], h[i]];
      i = parent;
    }
  }

  private pop(): Pending {
    const h = this.heap;
    const top = h[0];
    const last = h.pop()!;
    if (h.length > 0) {
      h[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && before(h[l], h[m])) m = l;
        if (r < h.length && before(h[r], h[m])) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m], h[i]];
        i = m;
      }
    }
    return top;
  }
}
