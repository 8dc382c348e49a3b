import { describe, expect, it } from 'vitest';
import { GPUS, INSTANCE_TYPES } from './data/instance-types.js';
import { MODELS, kvBytesPerToken } from './data/models.js';
import { pythonFloat } from './families.js';
import { Histogram, buckets125 } from './histogram.js';
import { benchmarkOutputTokensPerSec, buildPerfModel } from './perf.js';
import { Rng } from './rng.js';

describe('Rng', () => {
  it('is a pure function of its seed, and forks independent streams by name', () => {
    const a = new Rng(42);
    const b = new Rng(42);
    expect([a.next(), a.next(), a.poisson(3)]).toEqual([b.next(), b.next(), b.poisson(3)]);
    expect(new Rng(42).fork('x').next()).toBe(new Rng(42).fork('x').next());
    expect(new Rng(42).fork('x').next()).not.toBe(new Rng(42).fork('y').next());
  });

  it.each([
    ['exponential', (r: Rng) => r.exponential(2), 0.5],
    ['poisson(4)', (r: Rng) => r.poisson(4), 4],
    ['poisson(50)', (r: Rng) => r.poisson(50), 50],
    ['normal', (r: Rng) => r.normal(3, 1), 3],
  ] as const)('%s has the right mean', (_n, draw, mean) => {
    const r = new Rng(1);
    let s = 0;
    for (let i = 0; i < 20_000; i++) s += draw(r);
    expect(Math.abs(s / 20_000 / mean - 1)).toBeLessThan(0.02);
  });
});

describe('formatting and buckets', () => {
  it.each([
    [1, '1.0'],
    [0.001, '0.001'],
    [2560, '2560.0'],
    [20000, '20000.0'],
    [1e6, '1e+06'],
    [1.1e6, '1.1e+06'],
    [1.5e-5, '1.5e-05'],
    [Infinity, '+Inf'],
  ])("pythonFloat(%d) is prometheus_client's %s", (v, want) => expect(pythonFloat(v)).toBe(want));

  it("builds vLLM's 1-2-5 buckets and counts observations cumulatively", () => {
    expect(buckets125(16384)).toEqual([1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000]);
    const h = new Histogram([1, 10]);
    h.observe(1);
    h.observeN(5, 3);
    h.observe(11);
    const c = new Float64Array(3);
    h.cumulative(c);
    expect([...c]).toEqual([1, 4, 5]);
    expect(h.sum).toBe(1 + 15 + 11);
  });
});

describe('engine model', () => {
  it('derives the KV budget from GPU memory and model size', () => {
    expect(kvBytesPerToken(MODELS['meta-llama/Llama-3.1-8B-Instruct'])).toBe(131072);
    const l4 = buildPerfModel(MODELS['meta-llama/Llama-3.1-8B-Instruct'], INSTANCE_TYPES['ml.g6.xlarge'], 1, 'vllm', { downloadMBps: 150 });
    const h100 = buildPerfModel(MODELS['meta-llama/Llama-3.1-8B-Instruct'], INSTANCE_TYPES['ml.p5.48xlarge'], 1, 'vllm', { downloadMBps: 150 });
    expect(l4.kvCapacityTokens).toBeGreaterThan(20_000);
    expect(l4.kvCapacityTokens).toBeLessThan(40_000);
    expect(h100.kvCapacityTokens).toBeGreaterThan(10 * l4.kvCapacityTokens);
    const squeezed = buildPerfModel(MODELS['meta-llama/Llama-3.1-8B-Instruct'], INSTANCE_TYPES['ml.g6.xlarge'], 1, 'vllm', { downloadMBps: 150, foreignMiBPerGpu: 4000 });
    expect(squeezed.kvCapacityTokens).toBeLessThan(l4.kvCapacityTokens / 2);
    expect(benchmarkOutputTokensPerSec(h100)).toBeGreaterThan(5 * benchmarkOutputTokensPerSec(l4));
    expect(GPUS.H100.memoryMiB).toBeGreaterThan(GPUS.L4.memoryMiB);
  });
});
