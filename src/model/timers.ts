import type { DurationMs } from './time.js';

/**
 * The timer port of everything that waits (scrape loops, the gateway's flushes, health checks and
 * deadlines): one-shot callbacks after a delay. Production binds `systemTimers`; tests bind
 * `FakeTimers` (testing/fake-timers.ts) and move time by hand, so no test waits for time to pass.
 */
export interface Timers {
  /** Calls `fn` once after `delayMs`; the returned function cancels it (a no-op once it ran). */
  setTimeout(fn: () => void, delayMs: DurationMs): () => void;
}

/** The platform's timers; under Node they do not keep the process alive on their own. */
export const systemTimers: Timers = {
  setTimeout(fn, delayMs) {
    const h: unknown = setTimeout(fn, Math.max(0, delayMs));
    (h as { unref?: () => void }).unref?.();
    return () => clearTimeout(h as Parameters<typeof clearTimeout>[0]);
  },
};
