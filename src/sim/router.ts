/**
 * The router in front of one component: a token-bucket rate limit and a concurrency limit (429
 * when exceeded), then an AZ chosen in proportion to its ready replicas times the AZ's routing
 * factor (az-traffic-skew sets one to zero), then the least-outstanding-requests replica in it.
 */
import type { ComponentRuntime } from './fleet.js';
import type { Replica } from './replica.js';
import type { Rng } from './rng.js';

/** Routes the requests of one component. */
export class Router {
  private tokens = Number.POSITIVE_INFINITY;
  private lastMs: number;

  /** A router for `c` starting at `startMs`. */
  constructor(
    private readonly c: ComponentRuntime,
    private readonly rng: Rng,
    startMs: number,
  ) {
    this.lastMs = startMs;
  }

  /** Picks a replica for a request arriving at `tMs`, or the status it is refused with. */
  route(tMs: number): Replica | 429 | 503 {
    const limit = this.c.fx.rateLimitPerSec ?? this.c.spec.router?.rateLimitPerSec;
    if (limit !== undefined) {
      this.tokens = Math.min(limit, (Number.isFinite(this.tokens) ? this.tokens : limit) + ((tMs - this.lastMs) / 1000) * limit);
      this.lastMs = tMs;
      if (this.tokens < 1) return 429;
      this.tokens -= 1;
    }
    const maxConc = this.c.spec.router?.maxConcurrency;
    if (maxConc !== undefined && this.c.frontdoor.inFlight >= maxConc) return 429;
    const ready = this.c.replicas.filter((r) => r.ready);
    if (ready.length === 0) return 503;
    const ep = this.c.endpoint;
    let total = 0;
    const weights: number[] = [];
    for (const az of ep.spec.azs) {
      let n = 0;
      for (const r of ready) if (r.instance.az === az) n++;
      const w = n * (ep.azFactor.get(az) ?? 1);
      weights.push(w);
      total += w;
    }
    let pool = ready;
    if (total > 0) {
      let u = this.rng.next() * total;
      let az = ep.spec.azs[ep.spec.azs.length - 1];
      for (let i = 0; i < weights.length; i++) {
        u -= weights[i];
        if (u < 0) {
          az = ep.spec.azs[i];
          break;
        }
      }
      pool = ready.filter((r) => r.instance.az === az);
    }
    const start = this.rng.int(0, pool.length);
    let best = pool[start];
    for (let k = 1; k < pool.length; k++) {
      const r = pool[(start + k) % pool.length];
      if (r.outstanding < best.outstanding) best = r;
    }
    return best;
  }
}
