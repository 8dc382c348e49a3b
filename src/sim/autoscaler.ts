/**
 * Target tracking on concurrent requests per copy, as SageMaker's inference-component autoscaling
 * does with `ConcurrentRequestsPerCopy`: every evaluation period the mean in-flight requests give
 * the copies needed (`ceil(concurrency / target)`); scale-out adds them at once after its cooldown,
 * scale-in drains one copy at a time after a longer cooldown. Each action counts as a scaling event.
 */
import type { ComponentRuntime, Fleet } from './fleet.js';
import type { AutoscalingSpec } from './spec.js';

/** The autoscaler of one component. */
export class Autoscaler {
  private sum = 0;
  private samples = 0;
  private nextEvalMs: number;

  /** An autoscaler whose first evaluation is one period after `startMs`. */
  constructor(
    private readonly c: ComponentRuntime,
    private readonly spec: AutoscalingSpec,
    startMs: number,
  ) {
    this.nextEvalMs = startMs + spec.evaluationPeriodMs;
    // The fleet just started: no scale-in before a full cooldown of observation.
    c.lastScaleInMs = startMs;
  }

  /** Samples the concurrency at `tMs` and acts when an evaluation period has passed. */
  tick(tMs: number, fleet: Fleet): void {
    let concurrency = 0;
    for (const r of this.c.replicas) if (r.ready || r.phase === 'draining') concurrency += r.outstanding;
    this.sum += concurrency;
    this.samples++;
    if (tMs < this.nextEvalMs) return;
    this.nextEvalMs = tMs + this.spec.evaluationPeriodMs;
    const mean = this.sum / Math.max(1, this.samples);
    this.sum = 0;
    this.samples = 0;
    const { min, max } = this.c.spec.copies;
    const current = this.c.active.length;
    const desired = Math.min(max, Math.max(min, Math.ceil(mean / this.spec.targetConcurrencyPerCopy)));
    if (desired > current && tMs - this.c.lastScaleOutMs >= this.spec.scaleOutCooldownMs) {
      let added = 0;
      for (let i = current; i < desired; i++) {
        const r = fleet.addReplica(this.c, tMs);
        if (r === undefined) break;
        r.scaleOutDecisionMs = tMs;
        added++;
      }
      if (added > 0) {
        this.c.platform.scaleOut++;
        this.c.lastScaleOutMs = tMs;
      }
    } else if (desired < current && tMs - this.c.lastScaleInMs >= this.spec.scaleInCooldownMs && tMs - this.c.lastScaleOutMs >= this.spec.scaleInCooldownMs) {
      if (fleet.removeReplica(this.c, tMs)) {
        this.c.platform.scaleIn++;
        this.c.lastScaleInMs = tMs;
      }
    }
  }
}
