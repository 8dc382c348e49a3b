import { QueryError } from '../errors.js';

/**
 * A counting semaphore bounding how many queries evaluate at once (Prometheus'
 * `--query.max-concurrency`). Waiters are served in arrival order; an aborted waiter leaves the
 * queue with a `canceled` error.
 */
export class Gate {
  private active = 0;
  private readonly waiters: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  /** Waits for a slot; call the returned function exactly once to give it back. */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    if (this.active < this.limit) {
      this.active++;
      return this.releaser();
    }
    await new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        const i = this.waiters.indexOf(grant);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(new QueryError('canceled', 'query was canceled while waiting for a free query slot'));
      };
      const grant = (): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(grant);
    });
    return this.releaser();
  }

  private releaser(): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.waiters.shift();
      if (next) next();
      else this.active--;
    };
  }
}
