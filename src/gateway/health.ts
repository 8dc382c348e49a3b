/**
 * Active health checks: every interval, a GET of each replica's health path (default
 * `/v1/models`, which engines answer only once they serve). `unhealthyThreshold` failures in a row
 * take a replica out of rotation, `healthyThreshold` successes bring it back. A passing check
 * does not end a passive ejection early (as in Envoy): the ejection's backoff runs its course.
 */
import http from 'node:http';
import type { DurationMs, Logger } from '../model/index.js';
import type { GatewayConfig } from './config.js';
import type { Replica } from './pool.js';
import type { Timers } from './timers.js';

/** The probe port: resolves true when `url` answered 2xx within `timeoutMs`. Never rejects. */
export type HealthProbe = (url: string, timeoutMs: DurationMs) => Promise<boolean>;

/** A probe over node:http with `agent`. */
export function httpProbe(agent: http.Agent): HealthProbe {
  return (url, timeoutMs) =>
    new Promise<boolean>((resolve) => {
      let settled = false;
      const done = (ok: boolean): void => {
        if (settled) return;
        settled = true;
        resolve(ok);
      };
      try {
        const req = http.get(url, { agent, timeout: timeoutMs }, (res) => {
          res.resume();
          res.on('end', () => done(res.statusCode !== undefined && res.statusCode >= 200 && res.statusCode < 300));
          res.on('error', () => done(false));
        });
        req.on('timeout', () => req.destroy(new Error('health check timed out')));
        req.on('error', () => done(false));
      } catch {
        done(false);
      }
    });
}

/** Runs the checks over whatever replicas `replicas()` lists at each round. */
export class HealthChecker {
  private cancel: (() => void) | null = null;
  private stopped = false;
  private running: Promise<void> | null = null;

  /** `onChange` hears every change of a replica's verdict. */
  constructor(
    private readonly replicas: () => Iterable<Replica>,
    private readonly cfg: GatewayConfig['healthCheck'],
    private readonly probe: HealthProbe,
    private readonly timers: Timers,
    private readonly logger: Logger,
    private readonly onChange: (r: Replica, healthy: boolean) => void,
  ) {}

  /** Runs a round now, then one every interval. */
  start(): void {
    if (!this.cfg.enabled) return;
    const loop = (): void => {
      if (this.stopped) return;
      this.running = this.round().finally(() => {
        this.running = null;
        if (!this.stopped) this.cancel = this.timers.setTimeout(loop, this.cfg.intervalMs);
      });
    };
    loop();
  }

  /** One round: probes every replica at once and applies the thresholds. */
  async round(): Promise<void> {
    const list = [...this.replicas()].filter((r) => !r.removed);
    await Promise.all(
      list.map(async (r) => {
        const ok = await this.probe(`${r.config.url}${this.cfg.path}`, this.cfg.timeoutMs);
        if (ok) {
          r.hcFailures = 0;
          r.hcSuccesses++;
          if (!r.activeHealthy && r.hcSuccesses >= this.cfg.healthyThreshold) {
            r.activeHealthy = true;
            this.logger.info('gateway: replica passes health checks again', { url: r.config.url });
            this.onChange(r, true);
          }
        } else {
          r.hcSuccesses = 0;
          r.hcFailures++;
          if (r.activeHealthy && r.hcFailures >= this.cfg.unhealthyThreshold) {
            r.activeHealthy = false;
            this.logger.warn('gateway: replica fails health checks', { url: r.config.url, failures: r.hcFailures });
            this.onChange(r, false);
          }
        }
      }),
    );
  }

  /** Stops the loop and waits for a round in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.cancel?.();
    await this.running;
  }
}
