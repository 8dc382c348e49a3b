/**
 * "Throughput vs benchmark" must read about 100 % only when an engine really runs at its
 * benchmark: a healthy, moderately loaded fleet reads far below it, a saturated replica close to
 * it and never above. Rates here are per simulated second (manual mode, speed 1). (The simulator no
 * longer exports the gauge; src/cost's benchmark catalog, generated from the same perf model, does.)
 */
import { describe, expect, it } from 'vitest';
import { componentBenchmarkTps } from './expose-aux.js';
import { scenarioByName } from './scenarios.js';
import { Simulation } from './simulation.js';
import type { ScenarioSpec } from './spec.js';
import { TargetRegistry } from './targets.js';
import { singleReplica } from './testing/scenario.js';
import { scrape, total } from './testing/scrape.js';

const MIN = 60_000;
const GENERATED: Readonly<Record<string, string>> = { vllm: 'vllm:generation_tokens_total', sglang: 'sglang:generation_tokens_total' };

/** Each vLLM/SGLang replica's output tokens per second over `minutes` after a 20-minute warm-up, as a share of its benchmark. */
function shares(spec: ScenarioSpec, minutes: number): number[] {
  const sim = new Simulation({ scenario: spec, seed: 1, startMs: 0 });
  const reg = new TargetRegistry(sim);
  sim.advanceTo(20 * MIN);
  reg.sync();
  const engines = () => reg.list().filter((t) => t.kind === 'engine' && GENERATED[t.component!.spec.engine] !== undefined);
  const before = new Map(engines().map((t) => [t.id, total(scrape(t), GENERATED[t.component!.spec.engine])]));
  sim.advanceTo((20 + minutes) * MIN);
  reg.sync();
  return engines()
    .filter((t) => before.has(t.id))
    .map((t) => (total(scrape(t), GENERATED[t.component!.spec.engine]) - before.get(t.id)!) / (minutes * 60) / componentBenchmarkTps(t.component!));
}

describe('throughput vs benchmark', () => {
  it('reads far below 100 % on the healthy demo fleet', () => {
    const s = shares(scenarioByName('demo'), 10);
    expect(s.length).toBeGreaterThanOrEqual(6);
    for (const x of s) expect(x).toBeLessThan(0.5);
  });

  it.each(['vllm', 'sglang'] as const)('reads close to but not above 100 %% on a saturated %s replica', (engine) => {
    const [x] = shares(singleReplica(engine, 40, { prompt: { kind: 'fixed', value: 1024 }, output: { kind: 'fixed', value: 128 } }), 5);
    expect(x).toBeGreaterThan(0.6);
    expect(x).toBeLessThanOrEqual(1.05);
  });
});
