import { describe, expect, it } from 'vitest';
import { scenarioByName } from './scenarios.js';
import { Simulation } from './simulation.js';
import { TargetRegistry } from './targets.js';
import { scrape, total } from './testing/scrape.js';

describe('sglang:is_cuda_graph', () => {
  it('is 0 on the replicas a throughput-below-benchmark fault runs eagerly, 1 elsewhere', () => {
    const sim = new Simulation({ scenario: scenarioByName('steady'), seed: 4, startMs: Date.UTC(2025, 0, 6, 9) });
    sim.advanceTo(sim.startMs + 3 * 60_000);
    const inScope = sim.fleet.instances.find((i) => i.replicas().some((r) => r.component.spec.engine === 'sglang'))!;
    sim.injectFault({ kind: 'throughput-below-benchmark', startMs: 0, endMs: 10 * 60_000, scope: { component: 'qwen2-5-7b-instruct', instance: inScope.id } });
    sim.advanceTo(sim.nowMs + 60_000);
    const graphs = new TargetRegistry(sim)
      .list()
      .filter((t) => t.kind === 'engine' && t.labels.job === 'sglang' && t.available())
      .map((t) => [t.replica!.instance.id === inScope.id, total(scrape(t), 'sglang:is_cuda_graph')]);
    expect(graphs.length).toBeGreaterThan(1);
    expect(graphs.some(([faulted]) => faulted)).toBe(true);
    for (const [faulted, value] of graphs) expect(value).toBe(faulted ? 0 : 1);
  });
});
