import { describe, expect, it } from 'vitest';
import type { ComponentRuntime } from './fleet.js';
import type { Replica } from './replica.js';
import { SCENARIOS, isScenarioName, scenarioByName } from './scenarios.js';
import { Simulation } from './simulation.js';
import { FAULT_KINDS } from './spec.js';

const T0 = Date.UTC(2025, 0, 6, 9);
const MIN = 60_000;

function sim(name: string): Simulation {
  return new Simulation({ scenario: scenarioByName(name), seed: 11, startMs: T0 });
}

const at = (s: Simulation, minute: number): Simulation => {
  s.advanceTo(T0 + minute * MIN);
  return s;
};
const comp = (s: Simulation, name: string): ComponentRuntime => s.component(name)!;
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const itl = (r: Replica): number => (r.stats?.h.itl?.sum ?? 0) / Math.max(1, r.stats?.h.itl?.count ?? 0);

describe('built-in scenarios', () => {
  it('cover every fault kind, each with its fault inside the run', () => {
    const kinds = new Set(Object.values(SCENARIOS).flatMap((s) => s.faults.map((f) => f.kind)));
    expect([...kinds].sort()).toEqual([...FAULT_KINDS].sort());
    for (const s of Object.values(SCENARIOS)) for (const f of s.faults) expect(f.endMs).toBeLessThanOrEqual(s.durationMs);
  });

  it('are deterministic for a seed', () => {
    const a = at(sim('steady'), 5);
    const b = at(sim('steady'), 5);
    expect(a.fleet.replicas.map((r) => r.stats?.generationTokens)).toEqual(b.fleet.replicas.map((r) => r.stats?.generationTokens));
  });
});

describe('each fault shows in the data it should', () => {
  it('kv-cache-pressure: preemptions on the component, none in the steady run', () => {
    const pre = (s: Simulation) => comp(s, 'qwen2-5-7b-instruct').replicas.reduce((n, r) => n + (r.stats?.preemptions ?? 0), 0);
    expect(pre(at(sim('kv-cache-pressure'), 15))).toBeGreaterThan(0);
    expect(pre(at(sim('steady'), 15))).toBe(0);
  });

  it('gpu-memory-saturation: framebuffer full, the engines crash and restart with a smaller KV cache', () => {
    const s = at(sim('gpu-memory-saturation'), 14);
    const inst = s.fleet.instances.find((i) => i.id === 'chat-prod-i2')!;
    expect(inst.gpus[0].fbFreeMiB / inst.type.gpu.memoryMiB).toBeLessThan(0.05);
    const rs = inst.replicas();
    expect(rs.length).toBeGreaterThan(0);
    expect(rs.some((r) => r.restarts > 0)).toBe(true);
    for (const r of rs) {
      expect(r.perf!.kvCapacityTokens).toBeLessThan(0.5 * s.fleet.replicas.find((x) => x.component === r.component && x.instance !== inst)!.perf!.kvCapacityTokens);
    }
    expect(comp(s, 'gpt-oss-20b').frontdoor.midStreamErrors + comp(s, 'gpt-oss-20b').frontdoor.requests5xx).toBeGreaterThan(0);
  });

  it('prompt-length-shift: prompts triple', () => {
    const s = at(sim('prompt-length-shift'), 4);
    const prompt = (x: Simulation) => comp(x, 'gpt-oss-20b').replicas.reduce((a, r) => [a[0] + (r.stats?.h.promptTokens?.sum ?? 0), a[1] + (r.stats?.h.promptTokens?.count ?? 0)], [0, 0]);
    const [s0, n0] = prompt(s);
    const [s1, n1] = prompt(at(s, 15));
    expect((s1 - s0) / (n1 - n0)).toBeGreaterThan((2.2 * s0) / n0);
  });

  it('slow-instance: hot, slow-clocked GPUs and inter-token latency outliers on that instance only', () => {
    const s = at(sim('slow-instance'), 15);
    const slow = s.fleet.replicas.filter((r) => r.instance.id === 'chat-prod-i1' && r.component.spec.name === 'gpt-oss-20b');
    const fast = s.fleet.replicas.filter((r) => r.instance.id !== 'chat-prod-i1' && r.component.spec.name === 'gpt-oss-20b');
    expect(mean(slow.map(itl))).toBeGreaterThan(2 * mean(fast.map(itl)));
    const g = slow[0].instance.gpus[0];
    expect(g.tempC).toBeGreaterThan(80);
    expect(g.thermalViolationNs).toBeGreaterThan(0);
    expect(g.smClockMHz).toBeLessThan(g.spec.smClockMHz * 0.5);
  });

  it('rate-limit-burst: 429s at the front door, none without the burst', () => {
    expect(comp(at(sim('rate-limit-burst'), 10), 'gpt-oss-20b').frontdoor.requests429).toBeGreaterThan(100);
    expect(comp(at(sim('steady'), 10), 'gpt-oss-20b').frontdoor.requests429).toBe(0);
  });

  it('engine-errors: 5xx and mid-stream failures on the component', () => {
    const fd = comp(at(sim('engine-errors'), 12), 'qwen2-5-7b-instruct').frontdoor;
    expect(fd.requests5xx).toBeGreaterThan(10);
    expect(fd.midStreamErrors).toBeGreaterThan(10);
  });

  it('throughput-below-benchmark: batch capped at 4, slower steps, a queue', () => {
    const s = at(sim('throughput-below-benchmark'), 4);
    const rs = () => comp(s, 'gpt-oss-20b').replicas.filter((r) => r.ready);
    const before = mean(rs().map(itl));
    at(s, 12);
    expect(Math.max(...rs().map((r) => r.batcher!.running.length))).toBeLessThanOrEqual(4);
    const queue = rs().reduce((n, r) => n + (r.stats?.h.queue?.sum ?? 0), 0) / rs().reduce((n, r) => n + (r.stats?.h.queue?.count ?? 0), 0);
    expect(queue).toBeGreaterThan(1);
    expect(mean(rs().map(itl))).toBeGreaterThan(before);
  });

  it('quality-drift: relevance falls, latency does not', () => {
    const drift = at(sim('quality-drift'), 25);
    const base = at(sim('steady'), 25);
    const q = (s: Simulation) => comp(s, 'gpt-oss-20b').quality.dims.relevance.score;
    expect(q(drift)).toBeLessThan(q(base) - 0.1);
    const ttft = (s: Simulation) => comp(s, 'gpt-oss-20b').frontdoor.ttft;
    expect(ttft(drift).sum / ttft(drift).count).toBeCloseTo(ttft(base).sum / ttft(base).count, 1);
  });
});

describe('scenario names', () => {
  it.each([
    ['demo', true],
    ['steady', true],
    ['az-traffic-skew', true],
    ['fleet-1', true],
    ['fleet-1000', true],
    ['fleet-5000', true],
    ['fleet-5001', false],
    ['fleet-0', false],
    ['fleet-01', false],
    ['fleet-', false],
    ['toString', false],
    ['__proto__', false],
  ])('%s → %s', (name, known) => {
    expect(isScenarioName(name)).toBe(known);
    if (known) expect(scenarioByName(name).name).toBe(name);
    else expect(() => scenarioByName(name)).toThrow(/unknown scenario/);
  });

  it('fleet-<N> runs N single-GPU instances', () => {
    const s = scenarioByName('fleet-25');
    const instances = s.fleet.endpoints.reduce((n, e) => n + e.instances.initial, 0);
    expect(instances).toBe(25);
  });
});
