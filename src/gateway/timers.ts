import type { DurationMs } from '../model/index.js';

/**
 * The timer port of the gateway (flushes, health checks, request deadlines): one-shot callbacks
 * after a delay. Production binds Node's timers; tests bind `FakeTimers` (testing/fake-timers.ts)
 * and move time by hand, so no test waits for time to pass.
 */
export interface Timers {
  /** Calls `fn` once after `delayMs`; the returned function cancels it (a no-op once it ran). */
  setTimeout(fn: () => void, delayMs: DurationMs): () => void;
}

/** Node's timers; they do not keep the process alive on their own. */
export const systemTimers: Timers = {
  setTimeout(fn, delayMs) {
    const h = setTimeout(fn, Math.max(0, delayMs));
    h.unref();
    return () => clearTimeout(h);
  },
};
