import { describe, expect, it } from 'vitest';
import { Labels } from '../model/index.js';
import { buildMappingIndex, isDcgmBlank, planSeries, resolveHint, type PlanOptions } from './plan.js';

const base: PlanOptions = { keepRaw: false, engine: undefined, hintLabels: ['engine', 'job'] };

describe('resolveHint', () => {
  it.each([
    [{ job: 'djl-lmi' }, base, 'djl'],
    [{ job: 'LMI' }, base, 'djl'],
    [{ job: 'vllm-llama' }, base, 'vllm'],
    [{ engine: '0', job: 'sglang' }, base, 'sglang'],
    [{ engine: 'tgi', job: 'vllm' }, base, 'tgi'],
    [{ job: 'vllmx' }, base, undefined],
    [{ job: 'inference' }, base, undefined],
    [{ job: 'djl' }, { ...base, engine: 'vllm' as const }, 'vllm'],
    [{ scrape: 'djl' }, { ...base, hintLabels: ['scrape'] }, 'djl'],
  ])('%j → %s', (labels, options, want) => {
    expect(resolveHint(Labels.from(labels), options)).toBe(want);
  });
});

describe('planSeries', () => {
  const index = buildMappingIndex();

  it('plans one pass-through output for unknown series, and shares their labels', () => {
    const l = Labels.from({ __name__: 'up', job: 'x' });
    const [only, ...rest] = planSeries(l, index, base);
    expect(rest).toEqual([]);
    expect(only.labels).toBe(l);
    expect([only.multiply, only.divide, only.constant]).toEqual([1, 1, undefined]);
  });

  it('precomputes the value transform: buckets keep counts, sums rescale', () => {
    const plan = (name: string, extra: Record<string, string> = {}) => planSeries(Labels.from({ __name__: name, ...extra }), index, base)[0];
    expect(plan('nv_inference_first_response_histogram_ms_bucket', { le: '5' })).toMatchObject({ multiply: 1, divide: 1 });
    expect(plan('nv_inference_first_response_histogram_ms_bucket', { le: '5' }).labels.get('le')).toBe('0.005');
    expect(plan('nv_inference_first_response_histogram_ms_sum')).toMatchObject({ multiply: 1, divide: 1000 });
    // Without a unit change the bound is left exactly as it came (remote_write may send "15.0").
    expect(plan('vllm:e2e_request_latency_seconds_bucket', { le: '15.0' }).labels.get('le')).toBe('15.0');
    expect(plan('DCGM_FI_DEV_FB_FREE')).toMatchObject({ multiply: 1_048_576, divide: 1, dropBlank: true });
    expect(plan('vllm:cache_config_info', { num_gpu_blocks: 'x', block_size: '16' }).labels.metricName).toBe('llm_kv_cache_block_size_tokens');
  });

  it.each<[Record<string, string>, PlanOptions, number]>([
    [{ __name__: 'vllm:request_max_num_generation_tokens_bucket', le: '10' }, base, 0],
    [{ __name__: 'DCGM_FI_DEV_VGPU_LICENSE_STATUS', gpu: '0' }, base, 0],
    [{ __name__: 'sglang:func_latency_seconds_count', name: 'generate_request' }, base, 0],
    [{ __name__: 'vllm:request_max_num_generation_tokens_count' }, { ...base, keepRaw: true }, 1],
  ])('drops a metric the catalog leaves out on purpose: %j (raw with keepRaw)', (labels, options, outputs) => {
    const l = Labels.from(labels);
    const plans = planSeries(l, index, options);
    expect(plans).toHaveLength(outputs);
    for (const p of plans) expect(p.labels).toBe(l);
  });

  it('drops a generic dropped name only when the hint names its engine', () => {
    const dropped = buildMappingIndex([], [{ name: 'BatchStatus', needsHint: true, metric: { source: 'djl', metric: 'BatchStatus', type: 'gauge', reason: 'test.' } }]);
    expect(planSeries(Labels.from({ __name__: 'BatchStatus', job: 'djl-lmi' }), dropped, base)).toEqual([]);
    expect(planSeries(Labels.from({ __name__: 'BatchStatus', job: 'other' }), dropped, base)).toHaveLength(1);
  });

  it('passes an info series through when no value can be read from it', () => {
    const l = Labels.from({ __name__: 'vllm:cache_config_info', cache_dtype: 'auto' });
    expect(planSeries(l, index, base).map((o) => o.labels)).toEqual([l]);
  });
});

describe('isDcgmBlank', () => {
  it.each([
    [Number('9223372036854775792'), true],
    [Number('9223372036854775794'), true],
    [140737488355328, true],
    [140737488355331, true],
    [140737488355332, false],
    [2147483632, false],
    [0, false],
    [1e18, false],
  ])('%d → %s', (v, want) => {
    expect(isDcgmBlank(v)).toBe(want);
  });
});
