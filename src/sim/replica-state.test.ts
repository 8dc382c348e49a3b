import { describe, expect, it } from 'vitest';
import { REPLICA_STATES } from './expose-aux.js';
import { scenarioByName } from './scenarios.js';
import { Simulation } from './simulation.js';
import { TargetRegistry } from './targets.js';
import { scrape, total } from './testing/scrape.js';

const T0 = Date.UTC(2025, 0, 6, 9);
const MIN = 60_000;

/** What the platform said about one replica at one scrape, next to whether its engine answered. */
interface Seen {
  readonly replica: string;
  readonly state: string;
  readonly ones: number;
  readonly engineUp: boolean;
  readonly restarts: number;
  readonly initial: boolean;
}

/** Runs `name` for `minutes`, scraping every 15 virtual seconds; one `Seen` per replica and scrape. */
function observe(name: string, minutes: number): Seen[] {
  const sim = new Simulation({ scenario: scenarioByName(name), seed: 7, startMs: T0 });
  const reg = new TargetRegistry(sim);
  const out: Seen[] = [];
  for (let t = T0 + 15_000; t <= T0 + minutes * MIN; t += 15_000) {
    sim.advanceTo(t);
    reg.sync();
    for (const c of sim.fleet.components) {
      const p = scrape(reg.get(`platform-${c.spec.name}`)!);
      for (const r of c.replicas) {
        if (r.phase === 'stopped') continue;
        const ones = REPLICA_STATES.filter((state) => total(p, 'llm_replica_state', { replica: r.id, instance: r.instance.id, state }) === 1);
        const engine = reg.get(`replica-${r.id}`);
        out.push({ replica: r.id, state: ones[0] ?? '', ones: ones.length, engineUp: engine?.available() ?? false, restarts: r.restarts, initial: r.initial });
      }
    }
  }
  return out;
}

describe('llm_replica_state: the platform tells a cold start from a crash', () => {
  it('cold-start-storm: every replica has exactly one state; new replicas are pending or starting until they serve', () => {
    const seen = observe('cold-start-storm', 20);
    expect(seen.every((s) => s.ones === 1)).toBe(true);
    const cold = seen.filter((s) => !s.initial && !s.engineUp);
    expect(cold.length).toBeGreaterThan(0);
    expect(new Set(cold.map((s) => s.state))).toEqual(new Set(['pending', 'starting']));
    expect(seen.filter((s) => s.state === 'restarting')).toEqual([]);
  });

  it('gpu-memory-saturation: a crashed engine restarting is `restarting`, never `starting`', () => {
    const seen = observe('gpu-memory-saturation', 24);
    expect(seen.every((s) => s.ones === 1)).toBe(true);
    const restarting = seen.filter((s) => s.state === 'restarting');
    expect(restarting.length).toBeGreaterThan(0);
    expect(restarting.every((s) => s.restarts > 0)).toBe(true);
    expect(seen.filter((s) => s.restarts > 0 && !s.engineUp && s.state !== 'restarting')).toEqual([]);
  });
});
