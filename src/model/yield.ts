/**
 * Lets the event loop run everything that is ready (timers and I/O included), then resumes. Long
 * loops of small awaits (a replay's ticks, a query's steps) call it between units of work, because
 * awaiting promises alone never lets a timer or a socket run: a live scrape or a `/-/healthy`
 * would wait for the whole loop.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
