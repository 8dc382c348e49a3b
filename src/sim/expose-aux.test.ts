import { describe, expect, it } from 'vitest';
import { replicaIdentity } from './expose-aux.js';
import type { ComponentRuntime } from './fleet.js';
import { START_PHASES } from './replica.js';
import { scenarioByName } from './scenarios.js';
import { Simulation } from './simulation.js';
import { TargetRegistry } from './targets.js';
import { scrape, total } from './testing/scrape.js';

const MIN = 60_000;

function run(scenario: string, minutes: number): { sim: Simulation; registry: TargetRegistry } {
  const sim = new Simulation({ scenario: scenarioByName(scenario), seed: 2, startMs: Date.UTC(2025, 0, 6) });
  sim.advanceTo(sim.startMs + minutes * MIN);
  const registry = new TargetRegistry(sim);
  return { sim, registry };
}

const comp = (sim: Simulation, name: string): ComponentRuntime => sim.component(name)!;

describe('front door exposition', () => {
  const { sim, registry } = run('rate-limit-burst', 8);
  const c = comp(sim, 'gpt-oss-20b');
  const s = scrape(registry.get('frontdoor-gpt-oss-20b')!)!;
  const replicas = new Map(c.replicas.map((r) => [r.id, replicaIdentity(r)]));

  it('labels every routed request with the identity of the replica it went to', () => {
    const routed = s.samples.filter((x) => x.labels.has('replica'));
    const ids = new Set(routed.map((x) => x.labels.get('replica')));
    expect(ids.size).toBeGreaterThanOrEqual(3);
    for (const id of ids) expect(replicas.has(id), id).toBe(true);
    for (const x of routed) {
      const want = replicas.get(x.labels.get('replica'))!;
      for (const [k, v] of Object.entries(want)) expect(x.labels.get(k), `${x.name} ${k}`).toBe(v);
    }
  });

  it('counts refusals before routing under the component only, and adds up to its totals', () => {
    const unrouted = s.samples.filter((x) => !x.labels.has('replica'));
    expect(unrouted.map((x) => `${x.name} ${x.labels.get('status_class')} ${x.labels.get('engine')}`).sort()).toEqual(['llm_client_requests_total 429 vllm', 'llm_client_requests_total 5xx vllm']);
    expect(unrouted.every((x) => !x.labels.has('instance') && !x.labels.has('az'))).toBe(true);
    const fd = c.frontdoor;
    expect(fd.refused429).toBeGreaterThan(100);
    const cases: [string, number][] = [
      ['2xx', fd.requests2xx],
      ['4xx', fd.requests4xx],
      ['429', fd.requests429],
      ['5xx', fd.requests5xx],
    ];
    for (const [cls, want] of cases) expect(total(s, 'llm_client_requests_total', { status_class: cls }), cls).toBe(want);
    expect(total(s, 'llm_client_requests_in_flight')).toBe(fd.inFlight);
    expect(total(s, 'llm_client_time_to_first_token_seconds_count')).toBe(fd.ttft.count);
  });
});

describe('platform exposition', () => {
  const { sim, registry } = run('cold-start-storm', 26);
  const c = comp(sim, 'llama-3-1-8b-instruct');
  const s = scrape(registry.get('platform-llama-3-1-8b-instruct')!)!;
  const started = [...c.platform.starts.keys()];

  it('times each phase of the start of every replica created since the simulation began', () => {
    expect(started.length).toBeGreaterThan(2);
    // Replicas of the start get no start timings (only their lifecycle state, `llm_replica_state`).
    expect(c.replicas.filter((r) => r.initial).every((r) => !s.samples.some((x) => x.name !== 'llm_replica_state' && x.labels.get('replica') === r.id))).toBe(true);
    for (const r of started) {
      const phase = (p: string) => total(s, 'llm_cold_start_phase_duration_seconds', { replica: r.id, phase: p });
      expect(s.samples.filter((x) => x.name === 'llm_cold_start_phase_duration_seconds' && x.labels.get('replica') === r.id).map((x) => x.labels.get('phase'))).toEqual([...START_PHASES]);
      if (r.ready) {
        // A start's phases add up to the time from creation to ready; 20 MB/s makes the download the longest.
        expect(START_PHASES.reduce((a, p) => a + phase(p), 0)).toBeCloseTo((r.readyMs - r.createdMs) / 1000, 6);
        expect(phase('download')).toBeGreaterThan(phase('load') + phase('warmup') + phase('container'));
        expect(total(s, 'llm_cold_start_duration_seconds_count', { replica: r.id })).toBe(1);
      } else {
        expect(total(s, 'llm_cold_start_duration_seconds_count', { replica: r.id })).toBe(0);
      }
    }
    expect(started.some((r) => r.ready) && started.some((r) => !r.ready)).toBe(true);
  });

  it('keeps component-level series without replica identity', () => {
    for (const name of ['llm_replicas', 'llm_scaling_events_total', 'llm_insufficient_capacity_errors_total']) {
      const mine = s.samples.filter((x) => x.name === name);
      expect(mine.length, name).toBeGreaterThan(0);
      expect(mine.every((x) => !x.labels.has('replica') && !x.labels.has('instance')), name).toBe(true);
    }
  });

  it('drops the series of a stopped replica', () => {
    const before = c.platform.version;
    const r = started[0];
    r.drain(sim.nowMs);
    sim.advanceTo(sim.nowMs + 5 * MIN);
    expect(c.platform.version).toBeGreaterThan(before);
    const after = scrape(registry.get('platform-llama-3-1-8b-instruct')!)!;
    expect(after.samples.some((x) => x.labels.get('replica') === r.id)).toBe(false);
  });
});
