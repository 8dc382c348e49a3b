/**
 * Writes the gateway's metrics through an `Appendable` at a fixed interval and once more on close:
 * every instrument's current value at one timestamp, in one appender, like a scrape of itself. So
 * the same gateway feeds the embedded store or a remote one. Flushes never overlap; timestamps
 * strictly increase; a refused sample or a failed commit is logged and the next flush tries again.
 */
import type { Clock, DurationMs, Logger, UnixMs } from '../model/index.js';
import type { Appendable } from '../storage/index.js';
import type { MetricsRegistry } from './metrics.js';
import type { Timers } from './timers.js';

/** Options of `MetricsFlusher`. */
export interface FlusherOptions {
  readonly intervalMs: DurationMs;
  readonly now: Clock;
  readonly timers: Timers;
  readonly logger: Logger;
  /** Runs before each write (refreshes time-dependent gauges). */
  readonly before?: (tMs: UnixMs) => void;
}

/** The periodic writer. */
export class MetricsFlusher {
  private lastTMs: UnixMs = -Infinity;
  private chain: Promise<void> = Promise.resolve();
  private cancel: (() => void) | null = null;
  private closed = false;
  /** Flushes done and samples written, for status and tests. */
  flushes = 0;
  samples = 0;
  rejected = 0;

  /** Writes `reg` into `appendable`. */
  constructor(
    private readonly reg: MetricsRegistry,
    private readonly appendable: Appendable,
    private readonly o: FlusherOptions,
  ) {}

  /** Starts the interval. */
  start(): void {
    const tick = (): void => {
      if (this.closed) return;
      void this.flush().finally(() => {
        if (!this.closed) this.cancel = this.o.timers.setTimeout(tick, this.o.intervalMs);
      });
    };
    this.cancel = this.o.timers.setTimeout(tick, this.o.intervalMs);
  }

  /** Writes every value now (after any flush in progress). Never rejects. */
  flush(): Promise<void> {
    this.chain = this.chain.then(() => this.write());
    return this.chain;
  }

  private async write(): Promise<void> {
    const t = Math.max(Math.floor(this.o.now()), this.lastTMs + 1);
    this.lastTMs = t;
    this.o.before?.(t);
    let app;
    try {
      app = this.appendable.appender();
    } catch (e) {
      this.o.logger.warn('gateway: cannot write metrics', { err: e instanceof Error ? e.message : String(e) });
      return;
    }
    const r = this.reg.writeTo(app, t);
    this.rejected += r.rejected;
    if (r.firstError !== null) this.o.logger.warn('gateway: the storage refused metric samples', { rejected: r.rejected, err: r.firstError.message });
    try {
      await app.commit();
      this.flushes++;
      this.samples += r.samples;
    } catch (e) {
      this.o.logger.warn('gateway: committing metrics failed', { err: e instanceof Error ? e.message : String(e) });
    }
  }

  /** Stops the interval and writes a last time. */
  async close(): Promise<void> {
    this.closed = true;
    this.cancel?.();
    await this.flush();
  }
}
