import { describe, expect, it } from 'vitest';
import { Labels, STALE_NAN, isStaleNaN } from '../model/index.js';
import { StorageErrorCode, isStorageError, type Appendable, type Appender } from '../storage/index.js';
import { MemoryStorage, runAppenderSuite } from '../storage/testing/index.js';
import { NormalizingAppendable, type NormalizeOptions } from './index.js';

const T = 1_000;
/** DCGM's "not supported" int64 sentinel as the text parser reads it (a float: 2^63). */
const DCGM_NOT_SUPPORTED = Number('9223372036854775794');

/** Normalizes one sample per series and returns what was committed, as `labels value` lines. */
async function normalize(series: [Record<string, string>, number][], options: NormalizeOptions = {}): Promise<string[]> {
  const inner = new MemoryStorage();
  const app = new NormalizingAppendable(inner, options).appender();
  for (const [labels, value] of series) app.append(0, Labels.from(labels), T, value);
  await app.commit();
  return inner.dump();
}

async function check(input: [Record<string, string>, number][], want: string[], options?: NormalizeOptions): Promise<void> {
  expect(await normalize(input, options)).toEqual([...want].sort());
}

runAppenderSuite('NormalizingAppendable', async () => memoryUnderTest((m) => new NormalizingAppendable(m)), {
  validatesOrder: true,
  persistent: false,
});
runAppenderSuite('NormalizingAppendable with keepRaw', async () => memoryUnderTest((m) => new NormalizingAppendable(m, { keepRaw: true })), {
  validatesOrder: true,
  persistent: false,
});

function memoryUnderTest(wrap: (m: MemoryStorage) => MemoryStorage | NormalizingAppendable) {
  const inner = new MemoryStorage();
  return {
    appendable: wrap(inner),
    read: async (...args: Parameters<MemoryStorage['read']>) => inner.read(...args),
    close: async () => undefined,
  };
}

const M = 'meta-llama/Llama-3.1-8B-Instruct';

describe('NormalizingAppendable mapping', () => {
  it.each<[string, [Record<string, string>, number][], string[], NormalizeOptions?]>([
    ['vLLM gauge; engine (dp index) becomes dp_rank',
      [[{ __name__: 'vllm:num_requests_running', model_name: M, engine: '0' }, 8]],
      [`llm_requests_running{dp_rank="0", engine="vllm", model="${M}"} 8`]],
    ['vLLM engine label that is not an index is overwritten',
      [[{ __name__: 'vllm:num_requests_running', engine: 'vllm' }, 1]],
      ['llm_requests_running{engine="vllm"} 1']],
    ['a target model label wins over model_name, which then stays',
      [[{ __name__: 'vllm:num_requests_waiting', model: 'a', model_name: 'b' }, 2]],
      ['llm_requests_waiting{engine="vllm", model="a", model_name="b"} 2']],
    ['model_name repeating the target model label is dropped',
      [[{ __name__: 'vllm:num_requests_waiting', model: 'a', model_name: 'a' }, 2]],
      ['llm_requests_waiting{engine="vllm", model="a"} 2']],
    ['vLLM renamed gauge gpu_cache_usage_perc',
      [[{ __name__: 'vllm:gpu_cache_usage_perc', model_name: 'q' }, 0.25]],
      ['llm_kv_cache_usage_ratio{engine="vllm", model="q"} 0.25']],
    ['vLLM counter with _total; _created passes unchanged',
      [[{ __name__: 'vllm:prompt_tokens_total' }, 10], [{ __name__: 'vllm:prompt_tokens_created' }, 1.7e9]],
      ['llm_prompt_tokens_total{engine="vllm"} 10', 'vllm:prompt_tokens_created 1700000000']],
    ['vLLM renamed counters and histograms',
      [
        [{ __name__: 'vllm:gpu_prefix_cache_hits_total' }, 3],
        [{ __name__: 'vllm:time_per_output_token_seconds_bucket', le: '0.05' }, 4],
        [{ __name__: 'vllm:time_per_output_token_seconds_sum' }, 0.2],
      ],
      [
        'llm_prefix_cache_hit_tokens_total{engine="vllm"} 3',
        'llm_inter_token_latency_seconds_bucket{engine="vllm", le="0.05"} 4',
        'llm_inter_token_latency_seconds_sum{engine="vllm"} 0.2',
      ]],
    ['vLLM finished_reason becomes finish_reason',
      [[{ __name__: 'vllm:request_success_total', finished_reason: 'stop' }, 5]],
      ['llm_requests_finished_total{engine="vllm", finish_reason="stop"} 5']],
    ['vLLM cache_config_info gives capacity and block size, identity labels only',
      [[{ __name__: 'vllm:cache_config_info', block_size: '16', num_gpu_blocks: '2048', cache_dtype: 'auto', engine: '0', job: 'vllm' }, 1]],
      [
        'llm_kv_cache_block_size_tokens{dp_rank="0", engine="vllm", job="vllm"} 16',
        'llm_kv_cache_capacity_blocks{dp_rank="0", engine="vllm", job="vllm"} 2048',
      ]],
    ['SGLang keeps its parallelism labels',
      [[{ __name__: 'sglang:num_queue_reqs', model_name: 'm', tp_rank: '0', engine_type: 'unified' }, 7]],
      ['llm_requests_waiting{engine="sglang", engine_type="unified", model="m", tp_rank="0"} 7']],
    ['TGI error class and a counter without _total',
      [[{ __name__: 'tgi_request_failure', err: 'overloaded' }, 2], [{ __name__: 'tgi_request_count' }, 9]],
      ['llm_request_errors_total{engine="tgi", error_class="overloaded"} 2', 'llm_requests_received_total{engine="tgi"} 9']],
    ['Triton summary in µs: _sum rescaled, _count kept, quantiles stay raw',
      [
        [{ __name__: 'nv_inference_queue_summary_us_sum', model: 'm', version: '1' }, 11110],
        [{ __name__: 'nv_inference_queue_summary_us_count', model: 'm', version: '1' }, 161],
        [{ __name__: 'nv_inference_queue_summary_us', model: 'm', version: '1', quantile: '0.5' }, 55],
      ],
      [
        'llm_request_queue_time_seconds_sum{engine="triton", model="m", version="1"} 0.01111',
        'llm_request_queue_time_seconds_count{engine="triton", model="m", version="1"} 161',
        'nv_inference_queue_summary_us{model="m", quantile="0.5", version="1"} 55',
      ]],
    ['Triton histogram in ms: le and _sum rescaled, +Inf and _count kept',
      [
        [{ __name__: 'nv_inference_first_response_histogram_ms_bucket', le: '100' }, 5],
        [{ __name__: 'nv_inference_first_response_histogram_ms_bucket', le: '0.3' }, 1],
        [{ __name__: 'nv_inference_first_response_histogram_ms_bucket', le: '+Inf' }, 6],
        [{ __name__: 'nv_inference_first_response_histogram_ms_sum' }, 250],
        [{ __name__: 'nv_inference_first_response_histogram_ms_count' }, 6],
      ],
      [
        'llm_time_to_first_token_seconds_bucket{engine="triton", le="0.1"} 5',
        'llm_time_to_first_token_seconds_bucket{engine="triton", le="0.0003"} 1',
        'llm_time_to_first_token_seconds_bucket{engine="triton", le="+Inf"} 6',
        'llm_time_to_first_token_seconds_sum{engine="triton"} 0.25',
        'llm_time_to_first_token_seconds_count{engine="triton"} 6',
      ]],
    ['TensorRT-LLM Triton backend: a label selects the metric; unmapped values stay raw',
      [
        [{ __name__: 'nv_trt_llm_kv_cache_block_metrics', kv_cache_block_type: 'fraction', model: 'tensorrt_llm', version: '1' }, 0.5],
        [{ __name__: 'nv_trt_llm_kv_cache_block_metrics', kv_cache_block_type: 'reused', model: 'tensorrt_llm', version: '1' }, 3],
      ],
      [
        'llm_kv_cache_usage_ratio{engine="triton", model="tensorrt_llm", version="1"} 0.5',
        'nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type="reused", model="tensorrt_llm", version="1"} 3',
      ]],
    ['DCGM: MiB to bytes, GPU labels renamed, no engine label',
      [[{ __name__: 'DCGM_FI_DEV_FB_USED', gpu: '0', UUID: 'GPU-1', modelName: 'NVIDIA L4', Hostname: 'h1' }, 100]],
      ['gpu_memory_used_bytes{gpu="0", gpu_model="NVIDIA L4", gpu_uuid="GPU-1", hostname="h1"} 104857600']],
    ['DCGM: lower-case hostname and percent to ratio',
      [[{ __name__: 'DCGM_FI_DEV_GPU_UTIL', gpu: '1', hostname: 'h2' }, 42]],
      ['gpu_utilization_ratio{gpu="1", hostname="h2"} 0.42']],
    ['DCGM: mJ, ns, MHz and an added direction label',
      [
        [{ __name__: 'DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION', gpu: '0' }, 5000],
        [{ __name__: 'DCGM_FI_DEV_POWER_VIOLATION', gpu: '0' }, 2e9],
        [{ __name__: 'DCGM_FI_DEV_SM_CLOCK', gpu: '0' }, 1410],
        [{ __name__: 'DCGM_FI_PROF_PCIE_TX_BYTES', gpu: '0' }, 1e6],
      ],
      [
        'gpu_energy_consumption_joules_total{gpu="0"} 5',
        'gpu_throttle_seconds_total{gpu="0", reason="power"} 2',
        'gpu_sm_clock_hertz{gpu="0"} 1410000000',
        'gpu_pcie_throughput_bytes_per_second{direction="tx", gpu="0"} 1000000',
      ]],
    ['DCGM blank sentinels are not measurements',
      [[{ __name__: 'DCGM_FI_DEV_MEMORY_TEMP', gpu: '0' }, DCGM_NOT_SUPPORTED], [{ __name__: 'DCGM_FI_PROF_SM_ACTIVE', gpu: '0' }, 140737488355328]],
      []],
    ['DJL names map only with a hint',
      [[{ __name__: 'QueueTime_bucket', Model: 'm', le: '1000' }, 1]],
      ['QueueTime_bucket{Model="m", le="1000"} 1']],
    ['DJL with a job hint: µs buckets to seconds, Model to model',
      [[{ __name__: 'QueueTime_bucket', Model: 'm', le: '1000', job: 'djl-lmi' }, 1], [{ __name__: 'Response_5XX_total', Model: 'm', job: 'djl-lmi' }, 2]],
      [
        'llm_request_queue_time_seconds_bucket{engine="djl", job="djl-lmi", le="0.001", model="m"} 1',
        'llm_http_responses_total{engine="djl", job="djl-lmi", model="m", status_class="5xx"} 2',
      ]],
    ['DJL with the engine option',
      [[{ __name__: 'LoadModel', Model: 'm' }, 2_500_000]],
      ['llm_model_load_duration_seconds{engine="djl", model="m"} 2.5'],
      { engine: 'djl' }],
    ['vLLM generic HTTP names need a hint',
      [[{ __name__: 'http_requests_total', handler: '/v1/completions', method: 'POST', status: '2xx' }, 201]],
      ['http_requests_total{handler="/v1/completions", method="POST", status="2xx"} 201']],
    ['vLLM generic HTTP names with a job hint',
      [[{ __name__: 'http_requests_total', handler: '/v1/completions', method: 'POST', status: '2xx', job: 'vllm' }, 201]],
      ['llm_http_responses_total{engine="vllm", handler="/v1/completions", job="vllm", method="POST", status_class="2xx"} 201']],
    ['OpenTelemetry names in both spellings; an existing engine label is kept',
      [
        [{ __name__: 'gen_ai_server_time_to_first_token_seconds_bucket', gen_ai_request_model: 'm', le: '0.1' }, 3],
        [{ __name__: 'gen_ai.client.token.usage_count', 'gen_ai.token.type': 'input', engine: 'bedrock' }, 4],
      ],
      [
        'llm_time_to_first_token_seconds_bucket{engine="otel", le="0.1", model="m"} 3',
        'llm_client_request_tokens_count{engine="bedrock", token_type="input"} 4',
      ]],
    ['unknown metrics pass unchanged',
      [[{ __name__: 'process_cpu_seconds_total', job: 'vllm' }, 1.5], [{ __name__: 'vllm:something_new' }, 1]],
      ['process_cpu_seconds_total{job="vllm"} 1.5', 'vllm:something_new 1']],
    ['keepRaw writes the engine series too (a blank sentinel stays raw only)',
      [[{ __name__: 'sglang:token_usage', model_name: 'm' }, 0.3], [{ __name__: 'DCGM_FI_DEV_GPU_TEMP', gpu: '0' }, DCGM_NOT_SUPPORTED]],
      ['llm_kv_cache_usage_ratio{engine="sglang", model="m"} 0.3', 'sglang:token_usage{model_name="m"} 0.3', 'DCGM_FI_DEV_GPU_TEMP{gpu="0"} 9223372036854776000'],
      { keepRaw: true }],
  ])('%s', async (_name, input, want, options) => {
    await check(input, want, options);
  });
});

describe('NormalizingAppendable behaviour', () => {
  it('passes NaN, the stale marker included, bit-exactly through conversions', async () => {
    const inner = new MemoryStorage();
    const app = new NormalizingAppendable(inner).appender();
    app.append(0, Labels.from({ __name__: 'DCGM_FI_DEV_GPU_UTIL', gpu: '0' }), T, STALE_NAN);
    app.append(0, Labels.from({ __name__: 'vllm:cache_config_info', num_gpu_blocks: '8', block_size: '16' }), T, STALE_NAN);
    await app.commit();
    expect(inner.appended.map((a) => [a.labels.metricName, isStaleNaN(a.value)])).toEqual([
      ['gpu_utilization_ratio', true],
      ['llm_kv_cache_capacity_blocks', true],
      ['llm_kv_cache_block_size_tokens', true],
    ]);
  });

  it('resolves a returned ref without looking at the labels, across appenders', async () => {
    const inner = new MemoryStorage();
    const norm = new NormalizingAppendable(inner);
    const a = norm.appender();
    const ref = a.append(0, Labels.from({ __name__: 'DCGM_FI_DEV_FB_FREE', gpu: '3' }), T, 1);
    await a.commit();
    const b = norm.appender();
    // The contract lets an implementation ignore labels for a valid ref: this one does.
    expect(b.append(ref, Labels.EMPTY, 2 * T, 2)).toBe(ref);
    await b.commit();
    expect(inner.read([], 0, 10 * T).map((s) => [s.labels.toString(), s.samples.map((x) => x.value)])).toEqual([
      ['gpu_memory_free_bytes{gpu="3"}', [1_048_576, 2_097_152]],
    ]);
  });

  it('never routes an old ref to other labels after the cache forgets it', async () => {
    const inner = new MemoryStorage();
    // Room for about one entry per generation: every new series pushes older ones out.
    const norm = new NormalizingAppendable(inner, { maxCacheBytes: 1_600 });
    const l = (gpu: string) => Labels.from({ __name__: 'DCGM_FI_DEV_GPU_TEMP', gpu });
    const refs: number[] = [];
    for (const gpu of ['0', '1', '2']) {
      const app = norm.appender();
      refs.push(app.append(0, l(gpu), T, 40 + Number(gpu)));
      await app.commit();
    }
    expect(new Set(refs).size).toBe(3);
    const app = norm.appender();
    app.append(refs[0], l('0'), 2 * T, 50); // an old ref: forgotten now, resolved by labels
    await app.commit();
    expect(inner.dump()).toEqual([
      'gpu_temperature_celsius{gpu="0"} 50',
      'gpu_temperature_celsius{gpu="1"} 41',
      'gpu_temperature_celsius{gpu="2"} 42',
    ]);
    expect(norm.cacheStats().bytes).toBeLessThanOrEqual(1_600);
  });

  it.each([
    ['rolled back', (app: Appender) => {
      app.rollback();
      return Promise.resolve();
    }],
    ['refused at commit', (app: Appender) => app.commit().catch(() => undefined)],
  ])('caches nothing of a batch that was %s, however large its labels', async (_name, end) => {
    const inner = new MemoryStorage();
    const failing: Appendable = {
      appender: () => {
        const a = inner.appender();
        return { append: (r, l, t, v) => a.append(r, l, t, v), commit: () => Promise.reject(new Error('disk full')), rollback: () => a.rollback() };
      },
    };
    const norm = new NormalizingAppendable(failing);
    const app = norm.appender();
    for (let i = 0; i < 20; i++) app.append(0, Labels.from({ __name__: 'vllm:num_requests_running', pod: `${i}-${'x'.repeat(28 * 1024)}` }), T, 1);
    await end(app);
    expect(norm.cacheStats()).toEqual({ entries: 0, bytes: 0 });
  });

  it('stays within its byte budget under many distinct series', async () => {
    const inner = new MemoryStorage();
    const norm = new NormalizingAppendable(inner, { maxCacheBytes: 64 * 1024 });
    for (let batch = 0; batch < 20; batch++) {
      const app = norm.appender();
      for (let i = 0; i < 100; i++) app.append(0, Labels.from({ __name__: 'vllm:num_requests_running', pod: `p${batch}-${i}` }), T, 1);
      await app.commit();
      expect(norm.cacheStats().bytes).toBeLessThanOrEqual(64 * 1024);
    }
    expect(norm.cacheStats().entries).toBeGreaterThan(0);
  });

  it('keeps the series in use when the budget turns over, under the ref it last returned', async () => {
    const inner = new MemoryStorage();
    const norm = new NormalizingAppendable(inner, { maxCacheBytes: 16 * 1024 });
    const hot = Labels.from({ __name__: 'vllm:num_requests_running', pod: 'hot' });
    let app = norm.appender();
    let ref = app.append(0, hot, T, 0);
    await app.commit();
    for (let batch = 1; batch <= 10; batch++) {
      app = norm.appender();
      // By ref alone (no labels): it must still be known, possibly under a new ref.
      ref = app.append(ref, Labels.EMPTY, T + batch, batch);
      for (let i = 0; i < 5; i++) app.append(0, Labels.from({ __name__: 'vllm:num_requests_running', pod: `p${batch}-${i}` }), T, 1);
      await app.commit();
    }
    expect(inner.dump().filter((l) => l.includes('"hot"'))).toEqual(['llm_requests_running{engine="vllm", pod="hot"} 10']);
    expect(inner.appended.filter((a) => a.labels.get('pod') === 'hot').map((a) => a.value)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('rejects an out-of-order sample of a mapped series, tries every output, and stays usable', async () => {
    const inner = new MemoryStorage();
    const app = new NormalizingAppendable(inner, { keepRaw: true }).appender();
    const l = Labels.from({ __name__: 'sglang:num_running_reqs' });
    const ref = app.append(0, l, 2 * T, 1);
    let err: unknown;
    try {
      app.append(ref, l, T, 2);
    } catch (e) {
      err = e;
    }
    expect(isStorageError(err, StorageErrorCode.OUT_OF_ORDER_SAMPLE)).toBe(true);
    expect(inner.appended.filter((a) => a.tMs === T)).toHaveLength(2);
    app.append(ref, l, 3 * T, 3);
    await app.commit();
    expect(inner.dump()).toEqual(['llm_requests_running{engine="sglang"} 3', 'sglang:num_running_reqs 3']);
  });

  it('discards mapped samples on rollback and refuses use afterwards, even for series it drops', () => {
    const inner = new MemoryStorage();
    const app = new NormalizingAppendable(inner).appender();
    app.append(0, Labels.from({ __name__: 'vllm:num_requests_running' }), T, 1);
    app.rollback();
    expect(inner.dump()).toEqual([]);
    const blank = Labels.from({ __name__: 'DCGM_FI_DEV_GPU_TEMP' });
    expect(() => app.append(0, blank, T, DCGM_NOT_SUPPORTED)).toThrow(expect.objectContaining({ code: StorageErrorCode.APPENDER_CLOSED }));
  });
});
