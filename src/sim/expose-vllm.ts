/**
 * vLLM's native exposition (V1 engine, prometheus_client): `vllm:*` families with `model_name` and
 * `engine` (the data-parallel index) labels, counters with `_total`, `le` spelled as Python does,
 * plus the API server's `http_requests_total`. `_created` series are left out, as with
 * `PROMETHEUS_DISABLE_CREATED_SERIES=true`.
 */
import { FamilySet } from './families.js';
import type { Histogram } from './histogram.js';
import type { Replica } from './replica.js';
import type { EngineStats } from './stats.js';

const NONE = { model_name: '', engine: '' };

/** Builds the families of one vLLM replica. */
export function vllmFamilies(r: Replica): FamilySet {
  const fs = new FamilySet({ model_name: r.component.model.name, engine: '0' });
  const s = (): EngineStats => r.stats!;
  const b = () => r.batcher;
  fs.gauge('vllm:num_requests_running', 'Number of requests in model execution batches.', () => b()?.running.length ?? 0);
  fs.gauge('vllm:num_requests_waiting', 'Number of requests waiting to be processed.', () => b()?.waiting.length ?? 0);
  fs.gauge('vllm:kv_cache_usage_perc', 'KV-cache usage. 1 means 100 percent usage.', () => {
    const x = b();
    return x === undefined || x.perf.kvBlocks === 0 ? 0 : x.usedBlocks / x.perf.kvBlocks;
  });
  for (const state of ['awake', 'weights_offloaded', 'discard_all']) {
    fs.gauge('vllm:engine_sleep_state', 'Engine sleep state; awake = 0 means engine is sleeping; awake = 1 means engine is awake; weights_offloaded = 1 means sleep level 1; discard_all = 1 means sleep level 2.', () => (state === 'awake' ? 1 : 0), { sleep_state: state });
  }
  const p = r.perf!;
  fs.gauge('vllm:cache_config_info', 'Information of the LLMEngine CacheConfig', () => 1, {
    model_name: '',
    block_size: String(p.blockSize),
    cache_dtype: 'auto',
    enable_prefix_caching: 'True',
    gpu_memory_utilization: String(p.gpuMemoryUtilization),
    num_cpu_blocks: '0',
    num_gpu_blocks: String(p.kvBlocks),
  });
  fs.counter('vllm:num_preemptions_total', 'Cumulative number of preemption from the engine.', () => s().preemptions);
  fs.counter('vllm:prompt_tokens_total', 'Number of prefill tokens processed.', () => s().promptTokens);
  fs.counter('vllm:generation_tokens_total', 'Number of generation tokens processed.', () => s().generationTokens);
  for (const reason of ['stop', 'length', 'abort'] as const) {
    const get = reason === 'stop' ? () => s().finishedStop : reason === 'length' ? () => s().finishedLength : () => s().finishedAbort;
    fs.counter('vllm:request_success_total', 'Count of successfully processed requests.', get, { finished_reason: reason });
  }
  fs.counter('vllm:prefix_cache_queries_total', 'Prefix cache queries, in terms of number of queried tokens.', () => s().prefixQueryTokens);
  fs.counter('vllm:prefix_cache_hits_total', 'Prefix cache hits, in terms of number of cached tokens.', () => s().cachedTokens);
  const h = (name: string, help: string, pick: (st: EngineStats) => Histogram | null) => {
    const first = pick(s());
    if (first !== null) fs.histogram(name, help, first.upper, () => pick(s()));
  };
  h('vllm:iteration_tokens_total', 'Histogram of number of tokens per engine_step.', (x) => x.h.iterationTokens);
  h('vllm:request_prompt_tokens', 'Number of prefill tokens processed.', (x) => x.h.promptTokens);
  h('vllm:request_generation_tokens', 'Number of generation tokens processed.', (x) => x.h.generationTokens);
  h('vllm:request_max_num_generation_tokens', 'Histogram of maximum number of requested generation tokens.', (x) => x.h.generationTokens);
  h('vllm:request_params_n', 'Histogram of the n request parameter.', (x) => x.h.paramsN);
  h('vllm:request_params_max_tokens', 'Histogram of the max_tokens request parameter.', (x) => x.h.maxTokens);
  h('vllm:time_to_first_token_seconds', 'Histogram of time to first token in seconds.', (x) => x.h.ttft);
  h('vllm:inter_token_latency_seconds', 'Histogram of inter-token latency in seconds.', (x) => x.h.itl);
  h('vllm:request_time_per_output_token_seconds', 'Histogram of time_per_output_token_seconds per request.', (x) => x.h.tpot);
  h('vllm:e2e_request_latency_seconds', 'Histogram of e2e request latency in seconds.', (x) => x.h.e2e);
  h('vllm:request_queue_time_seconds', 'Histogram of time spent in WAITING phase for request.', (x) => x.h.queue);
  h('vllm:request_inference_time_seconds', 'Histogram of time spent in RUNNING phase for request.', (x) => x.h.inference);
  h('vllm:request_prefill_time_seconds', 'Histogram of time spent in PREFILL phase for request.', (x) => x.h.prefill);
  h('vllm:request_decode_time_seconds', 'Histogram of time spent in DECODE phase for request.', (x) => x.h.decode);
  for (const status of ['2xx', '4xx', '5xx'] as const) {
    const get = status === '2xx' ? () => s().http2xx : status === '4xx' ? () => s().http4xx : () => s().http5xx;
    fs.counter('http_requests_total', 'Total number of requests by method, status and handler.', get, { ...NONE, handler: '/v1/chat/completions', method: 'POST', status });
  }
  return fs;
}
