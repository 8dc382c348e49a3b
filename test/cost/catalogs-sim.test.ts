// The shipped catalogs against the simulator they describe: the SageMaker prices are the
// simulator's (the demo's ground truth), and the simulated benchmark entries are what
// scripts/gen-benchmark-catalog.ts computes from the simulator's perf model today.
import { describe, expect, it } from 'vitest';
import { defaultBenchmarkCatalog, defaultPriceCatalog, DEFAULT_BENCHMARK_CATALOG_YAML } from '../../src/cost/index.js';
import { INSTANCE_TYPES } from '../../src/sim/index.js';
import { benchmarkCatalogYaml, scenarioCombos } from '../../scripts/gen-benchmark-catalog.js';

describe('the default price catalog', () => {
  it.each(Object.values(INSTANCE_TYPES).map((t) => [t.name, t] as const))('prices %s as the simulator does', (name, t) => {
    const p = defaultPriceCatalog().instances.get(name);
    expect(p).toMatchObject({ provider: 'aws', onDemandPerHourUsd: t.pricePerHourUsd, gpuCount: t.gpuCount, gpuModel: t.gpu.modelName });
  });
});

describe('the default benchmark catalog', () => {
  it('is what the perf model gives today (run npx tsx scripts/gen-benchmark-catalog.ts)', () => {
    expect(DEFAULT_BENCHMARK_CATALOG_YAML).toBe(benchmarkCatalogYaml());
  });

  it('covers every model, instance type and engine the built-in scenarios run', () => {
    for (const c of scenarioCombos()) expect(defaultBenchmarkCatalog().lookup(c.model, c.instanceType, c.engine), `${c.model} ${c.instanceType} ${c.engine}`).toBeDefined();
  });
});
