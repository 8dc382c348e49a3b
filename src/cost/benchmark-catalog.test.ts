import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config/index.js';
import { benchmarkCatalog, defaultBenchmarkCatalog, expectedOutputTps, parseBenchmarkCatalog } from './benchmark-catalog.js';
import { latencyCapacity } from './capacity.js';
import type { BenchmarkEntry } from './types.js';

const entry: BenchmarkEntry = {
  model: 'm',
  instanceType: 't',
  engine: 'vllm',
  gpusPerReplica: 1,
  source: 'test',
  points: [
    { concurrency: 1, outputTpsPerSequence: 50, outputTpsAggregate: 50 },
    { concurrency: 4, outputTpsPerSequence: 40, outputTpsAggregate: 160 },
    { concurrency: 16, outputTpsPerSequence: 25, outputTpsAggregate: 400 },
  ],
};

describe('expectedOutputTps', () => {
  it.each([
    [0, 0],
    [0.5, 25],
    [1, 50],
    [2.5, 105],
    [4, 160],
    [10, 280],
    [16, 400],
    [64, 400],
  ])('at concurrency %d is %d', (c, want) => {
    expect(expectedOutputTps(entry, c)).toBeCloseTo(want, 9);
  });
});

describe('latencyCapacity', () => {
  it('is where the aggregate reaches 80 % of the peak', () => {
    // 320 TPS lies between 160 (c=4) and 400 (c=16): two thirds of the way.
    expect(latencyCapacity(entry)).toEqual({ concurrency: 12, outputTps: 320 });
  });
});

describe('the default benchmark catalog', () => {
  it('holds the demo fleet and the seed example, each with its source', () => {
    const c = defaultBenchmarkCatalog();
    expect(c.lookup('openai/gpt-oss-20b', 'ml.g5.12xlarge', 'vllm')?.source).toBe('infersight simulator perf model (src/sim/perf.ts), for the demo');
    expect(c.lookup('Qwen/Qwen2.5-7B-Instruct', 'ml.g5.12xlarge', 'sglang')).toBeDefined();
    expect(c.lookup('meta-llama/Llama-3.1-8B-Instruct', 'ml.g6.4xlarge', 'djl')).toBeDefined();
    expect(c.lookup('meta-llama/Llama-3.1-8B-Instruct', 'ml.g6.4xlarge', 'vllm')?.source).toMatch(/seed material/);
    expect(c.lookup('nope', 'ml.g5.12xlarge', 'vllm')).toBeUndefined();
    for (const e of c.entries) expect(e.points.length).toBeGreaterThan(0);
  });
});

describe('an override file', () => {
  it('replaces an entry of the same key and adds new ones', () => {
    const base = benchmarkCatalog([entry]);
    const c = parseBenchmarkCatalog(
      'benchmarks:\n  - { model: m, instance_type: t, engine: vllm, source: mine, points: [{ concurrency: 8, output_tps_per_sequence: 10, output_tps: 80 }] }\n  - { model: m, instance_type: t, engine: sglang, source: mine, prompt_tokens: 512, points: [{ concurrency: 1, output_tps_per_sequence: 9, output_tps: 9, ttft_s: 0.2 }] }\n',
      'b.yml',
      base,
    );
    expect(c.entries).toHaveLength(2);
    expect(c.lookup('m', 't', 'vllm')?.source).toBe('mine');
    expect(c.lookup('m', 't', 'sglang')?.points[0]).toEqual({ concurrency: 1, outputTpsPerSequence: 9, outputTpsAggregate: 9, ttftS: 0.2, promptTokens: 512 });
  });

  it.each([
    ['an unknown field', 'benchmarks:\n  - { model: m, instance_type: t, engine: e, source: s, tps: 1, points: [] }\n', /^b\.yml:2:57: benchmarks\[0\]\.tps: unknown field "tps"/],
    ['no source', 'benchmarks:\n  - { model: m, instance_type: t, engine: e, points: [] }\n', /a benchmark needs source/],
    ['no points', 'benchmarks:\n  - { model: m, instance_type: t, engine: e, source: s, points: [] }\n', /needs at least one point/],
    ['unsorted points', 'benchmarks:\n  - { model: m, instance_type: t, engine: e, source: s, points: [{ concurrency: 4, output_tps_per_sequence: 1, output_tps: 4 }, { concurrency: 2, output_tps_per_sequence: 1, output_tps: 2 }] }\n', /points must be sorted by concurrency/],
    ['a negative rate', 'benchmarks:\n  - { model: m, instance_type: t, engine: e, source: s, points: [{ concurrency: 1, output_tps_per_sequence: -1, output_tps: 1 }] }\n', /output_tps_per_sequence must be at least 0/],
    ['a duplicate', 'benchmarks:\n  - { model: m, instance_type: t, engine: e, source: s, points: [{ concurrency: 1, output_tps_per_sequence: 1, output_tps: 1 }] }\n  - { model: m, instance_type: t, engine: e, source: s, points: [{ concurrency: 1, output_tps_per_sequence: 1, output_tps: 1 }] }\n', /^b\.yml:3:5: benchmarks\[1\]: duplicate benchmark for m on t with e$/],
  ])('refuses %s', (_name, text, want) => {
    expect(() => parseBenchmarkCatalog(text, 'b.yml', benchmarkCatalog([]))).toThrow(ConfigError);
    expect(() => parseBenchmarkCatalog(text, 'b.yml', benchmarkCatalog([]))).toThrow(want);
  });
});
