import { describe, expect, it } from 'vitest';
import { LatencyLog, exactQuantile, type TruthKind } from './latency-truth.js';
import { scenarioByName } from './scenarios.js';
import { Simulation } from './simulation.js';
import type { EngineHistograms } from './stats.js';

describe('LatencyLog', () => {
  it('keeps the newest values up to its capacity, oldest first', () => {
    const l = new LatencyLog(3);
    for (let i = 1; i <= 5; i++) l.record(i * 1000, i, 1, i % 2 === 0 ? 'a' : 'b');
    expect(l.size).toBe(3);
    expect(l.oldestMs).toBe(3000);
    expect(l.samples(0, 10_000).map((s) => s.valueS)).toEqual([3, 4, 5]);
    expect(l.samples(3000, 5000).map((s) => s.valueS)).toEqual([4, 5]);
    expect(l.samples(0, 10_000, 'b').map((s) => s.valueS)).toEqual([3, 5]);
  });

  it('grows past its first allocation and ignores empty weights', () => {
    const l = new LatencyLog(1000);
    for (let i = 0; i < 700; i++) l.record(i, i, i === 5 ? 0 : 1, '');
    expect(l.size).toBe(699);
    expect(l.samples(-1, 1000).length).toBe(699);
    expect(new LatencyLog(0).oldestMs).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('exactQuantile', () => {
  const v = (valueS: number, weight = 1) => ({ valueS, weight });
  it.each([
    [0.5, [v(3), v(1), v(2)], 2],
    [0.99, [v(3), v(1), v(2)], 3],
    [0.5, [v(1), v(2), v(3), v(4)], 2],
    [0.5, [v(1, 1), v(9, 3)], 9],
    [0.25, [v(1, 1), v(9, 3)], 1],
    [0, [v(5), v(7)], 5],
    [1, [v(5), v(7)], 7],
    [0.5, [], Number.NaN],
  ])('q=%s of %j is %s', (q, samples, want) => {
    expect(exactQuantile(q, samples)).toBe(want);
  });
});

describe('the simulation records what its histograms observe', () => {
  const sim = new Simulation({ scenario: scenarioByName('demo'), seed: 3, startMs: 0 });
  for (let t = 1000; t <= 120_000; t += 1000) sim.advanceTo(t);

  const engineKinds: [TruthKind, keyof EngineHistograms][] = [
    ['ttft', 'ttft'],
    ['itl', 'itl'],
    ['tpot', 'tpot'],
    ['e2e', 'e2e'],
  ];
  it.each(sim.fleet.components.flatMap((c) => engineKinds.map(([kind, h]) => [c.spec.name, c.spec.engine, kind, h] as const)))(
    '%s (%s) %s: the same count and sum as the engines',
    (name, _engine, kind, h) => {
      const c = sim.fleet.components.find((x) => x.spec.name === name)!;
      const hs = c.replicas.map((r) => r.stats?.h[h]).filter((x) => x !== null && x !== undefined);
      const samples = c.truth.log(kind).samples(-Infinity, Infinity);
      const count = hs.reduce((s, x) => s + x.count, 0);
      expect(samples.reduce((s, x) => s + x.weight, 0)).toBe(count);
      expect(samples.reduce((s, x) => s + x.valueS * x.weight, 0)).toBeCloseTo(hs.reduce((s, x) => s + x.sum, 0), 6);
      if (hs.length === 0) expect(samples).toEqual([]);
      for (const s of samples) expect(c.replicas.some((r) => r.instance.id === s.instance)).toBe(true);
    },
  );

  it.each(sim.fleet.components.map((c) => [c.spec.name, c] as const))('%s: the front door as its histograms', (_name, c) => {
    expect(c.truth.log('client_ttft').samples(-Infinity, Infinity).length).toBe(c.frontdoor.ttft.count);
    const durations = c.frontdoor.routes().reduce((n, r) => n + r.duration.count, 0);
    expect(c.truth.log('client_e2e').samples(-Infinity, Infinity).length).toBe(durations);
    expect(durations).toBeGreaterThan(0);
  });
});
