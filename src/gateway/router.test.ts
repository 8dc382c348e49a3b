import { describe, expect, it } from 'vitest';
import { noopLogger } from '../model/index.js';
import { validateGatewayConfig, type GatewayConfig } from './config.js';
import { HealthChecker } from './health.js';
import { MetricsRegistry } from './metrics.js';
import { ModelPool, type Replica } from './pool.js';
import { hasRoute, pickReplica } from './router.js';
import { FakeTimers } from '../model/testing/fake-timers.js';

const T0 = Date.UTC(2025, 0, 6, 9);

function pool(azs: string[], raw: Record<string, unknown> = {}): { p: ModelPool; cfg: GatewayConfig; reg: MetricsRegistry } {
  const cfg = validateGatewayConfig({
    ...raw,
    models: [{ name: 'm', replicas: azs.map((az, i) => ({ url: `http://10.0.0.${i + 1}:8000`, labels: { replica: `r${i}`, az, component: 'c' } })) }],
  });
  const reg = new MetricsRegistry();
  return { p: new ModelPool(cfg.models[0], reg, () => T0), cfg, reg };
}

const ids = (rs: readonly Replica[]): string[] => rs.map((r) => r.labels.replica);

describe('pickReplica', () => {
  it('chooses the replica with the fewest outstanding requests, spreading ties', () => {
    const { p } = pool(['a', 'b', 'c']);
    p.replicas[0].outstanding = 2;
    p.replicas[1].outstanding = 1;
    p.replicas[2].outstanding = 1;
    const picks = [0, 1, 2, 3].map(() => pickReplica(p, T0, [], '', 0)!.replica.labels.replica);
    expect(new Set(picks)).toEqual(new Set(['r1', 'r2']));
    expect(pickReplica(p, T0, [], '', 0)!.decision).toBe('any_az');
  });

  it('prefers its own AZ at equal load and spills over when the local replicas are busier by more than the penalty', () => {
    const { p } = pool(['a', 'b', 'c']);
    expect(pickReplica(p, T0, [], 'b', 1)).toMatchObject({ replica: p.replicas[1], decision: 'local_az' });
    p.replicas[1].outstanding = 1;
    // A tie at 1: the local replica (1 + 0) against remote ones (0 + 1); rotation decides.
    p.replicas[1].outstanding = 2;
    const r = pickReplica(p, T0, [], 'b', 1)!;
    expect(r.decision).toBe('cross_az');
    expect(['r0', 'r2']).toContain(r.replica.labels.replica);
  });

  it('skips tried, ejected, unhealthy and removed replicas; null when none is left', () => {
    const { p } = pool(['a', 'b', 'c', 'd']);
    p.replicas[0].ejectedUntilMs = T0 + 1;
    p.replicas[1].activeHealthy = false;
    p.replicas[2].removed = true;
    expect(pickReplica(p, T0, [], '', 0)!.replica).toBe(p.replicas[3]);
    expect(pickReplica(p, T0, [p.replicas[3]], '', 0)).toBeNull();
    expect(hasRoute(p, T0, [p.replicas[3]])).toBe(false);
    expect(pickReplica(p, T0 + 1, [p.replicas[3]], '', 0)!.replica).toBe(p.replicas[0]);
  });
});

describe('passive ejection', () => {
  it('ejects after consecutive failures with exponential backoff, capped by the share of the pool', () => {
    const { p, cfg } = pool(['a', 'b', 'c'], { ejection: { consecutive_failures: 2, base_time: '10s', max_time: '25s', max_ejected_percent: 40 } });
    const [a, b] = p.replicas;
    const e = cfg.ejection;
    expect(p.recordFailure(a, T0, e)).toBe(false);
    expect(p.recordFailure(a, T0, e)).toBe(true);
    expect(a.ejectedUntilMs).toBe(T0 + 10_000);
    // A second replica would take 2 of 3 out (67% > 40%): not ejected.
    p.recordFailure(b, T0, e);
    expect(p.recordFailure(b, T0, e)).toBe(false);
    // Back in rotation, fails again: twice as long, then capped.
    p.recordFailure(a, T0 + 10_000, e);
    expect(p.recordFailure(a, T0 + 10_000, e)).toBe(true);
    expect(a.ejectedUntilMs).toBe(T0 + 30_000);
    p.recordFailure(a, T0 + 30_000, e);
    p.recordFailure(a, T0 + 30_000, e);
    expect(a.ejectedUntilMs).toBe(T0 + 55_000);
    // A success resets the streak; a success after a healthy spell forgives one ejection.
    p.recordSuccess(a, T0 + 70_000, e);
    expect(a.ejections).toBe(2);
    expect(a.consecutiveFailures).toBe(0);
  });

  it('keeps the state of replicas that stay in a reconfiguration and retires the series of those that leave', () => {
    const { p, reg } = pool(['a', 'b']);
    p.replicas[0].outstanding = 3;
    p.replicas[1].metrics.requests[1]['2xx'].inc();
    const next = validateGatewayConfig({ models: [{ name: 'm', replicas: [{ url: 'http://10.0.0.1:8000', labels: { replica: 'r0', az: 'a', component: 'c' } }, 'http://10.0.0.9:8000'] }] }).models[0];
    const before = reg.size;
    const removed = p.update(next);
    // One replica out, one in; the pool's own scope lost its shared `component` label and was replaced.
    expect(reg.size).toBe(before);
    expect(ids(removed)).toEqual(['r1']);
    expect(removed[0].removed).toBe(true);
    expect(p.replicas[0].outstanding).toBe(3);
    expect(ids(p.replicas)).toEqual(['r0', '10.0.0.9:8000']);
  });
});

describe('HealthChecker', () => {
  it('takes a replica out after the failure threshold and back after the success threshold, on its interval', async () => {
    const { p, cfg } = pool(['a', 'b'], { health_check: { interval: '10s', unhealthy_threshold: 2, healthy_threshold: 2 } });
    const timers = new FakeTimers(T0);
    const down = new Set<string>(['http://10.0.0.2:8000/v1/models']);
    const probed: string[] = [];
    const changes: string[] = [];
    const hc = new HealthChecker(() => p.replicas, cfg.healthCheck, async (url) => (probed.push(url), !down.has(url)), timers, noopLogger, (r, ok) => changes.push(`${r.labels.replica}:${ok}`));
    hc.start();
    await timers.advance(0);
    expect(probed).toHaveLength(2);
    expect(p.replicas[1].activeHealthy).toBe(true);
    await timers.advance(10_000);
    expect(p.replicas[1].activeHealthy).toBe(false);
    expect(changes).toEqual(['r1:false']);
    down.clear();
    await timers.advance(10_000);
    expect(p.replicas[1].activeHealthy).toBe(false);
    await timers.advance(10_000);
    expect(p.replicas[1].activeHealthy).toBe(true);
    expect(changes).toEqual(['r1:false', 'r1:true']);
    expect(probed).toHaveLength(8);
    await hc.stop();
    await timers.advance(60_000);
    expect(probed).toHaveLength(8);
  });
});
