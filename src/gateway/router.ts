/**
 * Replica choice: AZ-aware least outstanding requests. Each routable replica scores its
 * outstanding requests, plus `crossAzPenalty` when it is outside the gateway's AZ; the lowest
 * score wins, and the scan starts at a rotating position so that ties spread evenly. With no local
 * AZ configured the penalty is 0 and the choice is plain least-outstanding.
 */
import type { UnixMs } from '../model/index.js';
import type { ModelPool, Replica } from './pool.js';

/** Where the chosen replica is relative to the gateway. */
export type RoutingDecision = 'local_az' | 'cross_az' | 'any_az';

/** A choice. */
export interface Route {
  readonly replica: Replica;
  readonly decision: RoutingDecision;
}

/** Picks a replica of `pool` at `nowMs`, skipping those in `tried`; null when none is routable. */
export function pickReplica(pool: ModelPool, nowMs: UnixMs, tried: readonly Replica[], localAz: string, crossAzPenalty: number): Route | null {
  const rs = pool.replicas;
  const n = rs.length;
  if (n === 0) return null;
  const start = pool.rotation++ % n;
  if (pool.rotation > 1e9) pool.rotation = 0;
  let best: Replica | null = null;
  let bestScore = Infinity;
  for (let k = 0; k < n; k++) {
    const r = rs[(start + k) % n];
    if (!r.routable(nowMs) || tried.includes(r)) continue;
    const score = r.outstanding + (localAz !== '' && r.az !== localAz ? crossAzPenalty : 0);
    if (score < bestScore) {
      best = r;
      bestScore = score;
    }
  }
  if (best === null) return null;
  return { replica: best, decision: localAz === '' ? 'any_az' : best.az === localAz ? 'local_az' : 'cross_az' };
}

/** Whether a replica of `pool` other than those in `tried` is routable at `nowMs`. */
export function hasRoute(pool: ModelPool, nowMs: UnixMs, tried: readonly Replica[]): boolean {
  return pool.replicas.some((r) => r.routable(nowMs) && !tried.includes(r));
}
