/**
 * SGLang's native exposition: scheduler metrics (`model_name`, `engine_type`, `tp_rank`,
 * `pp_rank`, `moe_ep_rank` labels) and tokenizer-manager metrics (`model_name` only), counters
 * with `_total`, `le` spelled as Python does.
 */
import { FamilySet } from './families.js';
import type { Histogram } from './histogram.js';
import type { Replica } from './replica.js';
import type { EngineStats } from './stats.js';

const SCHED = { engine_type: 'unified', tp_rank: '0', pp_rank: '0', moe_ep_rank: '0' };

/** Builds the families of one SGLang replica; `nowMs` gives the virtual time (throughput gauges). */
export function sglangFamilies(r: Replica, nowMs: () => number): FamilySet {
  const fs = new FamilySet({ model_name: r.component.model.name });
  const s = (): EngineStats => r.stats!;
  const b = () => r.batcher;
  let lastTokens = 0;
  let lastMs = Number.NaN;
  let lastStats: EngineStats | undefined;
  let throughput = 0;
  fs.gauge('sglang:num_running_reqs', 'The number of running requests.', () => b()?.running.length ?? 0, SCHED);
  fs.gauge('sglang:num_used_tokens', 'The number of used tokens.', () => b()?.kvTokens ?? 0, SCHED);
  fs.gauge('sglang:token_usage', 'The token usage.', () => {
    const x = b();
    return x === undefined || x.perf.kvCapacityTokens === 0 ? 0 : x.kvTokens / x.perf.kvCapacityTokens;
  }, SCHED);
  fs.gauge('sglang:gen_throughput', 'The generation throughput (token/s).', () => {
    const st = s();
    const t = nowMs();
    if (st === lastStats && t > lastMs) throughput = ((st.generationTokens - lastTokens) * 1000) / (t - lastMs);
    if (st !== lastStats || t > lastMs) {
      lastStats = st;
      lastTokens = st.generationTokens;
      lastMs = t;
    }
    return throughput;
  }, SCHED);
  fs.gauge('sglang:num_queue_reqs', 'The number of requests in the waiting queue.', () => b()?.waiting.length ?? 0, SCHED);
  fs.gauge('sglang:cache_hit_rate', 'The prefix cache hit rate.', () => (s().prefixQueryTokens > 0 ? s().cachedTokens / s().prefixQueryTokens : 0), SCHED);
  fs.gauge('sglang:max_total_num_tokens', 'Maximum total number of tokens in the KV cache pool.', () => r.perf?.kvCapacityTokens ?? 0, SCHED);
  // A replica slowed beyond its instance is the throughput-below-benchmark misconfiguration, which
  // runs without CUDA graphs (eager mode); every other batch runs as a graph.
  fs.gauge('sglang:is_cuda_graph', 'Whether the batch is using CUDA graph.', () => (r.limits.slowdown > r.instance.slowdown ? 0 : 1), SCHED);
  fs.gauge('sglang:engine_startup_time', 'The time taken for the engine to start up.', () => r.timings.startupS, SCHED);
  fs.gauge('sglang:engine_load_weights_time', 'The time taken for the engine to load weights.', () => r.timings.loadS, SCHED);
  fs.counter('sglang:num_retracted_requests_total', 'Total number of retracted requests due to kvcache full.', () => s().preemptions, SCHED);
  fs.counter('sglang:num_retracted_input_tokens_total', 'Total number of retracted input tokens.', () => s().retractedInputTokens, SCHED);
  fs.counter('sglang:num_retracted_output_tokens_total', 'Total number of retracted output tokens.', () => s().retractedOutputTokens, SCHED);
  fs.counter('sglang:realtime_tokens_total', 'Total number of tokens processed (updated on each log interval).', () => s().prefillComputeTokens, { ...SCHED, mode: 'prefill_compute' });
  fs.counter('sglang:realtime_tokens_total', 'Total number of tokens processed (updated on each log interval).', () => s().cachedTokens, { ...SCHED, mode: 'prefill_cache' });
  const h = (name: string, help: string, pick: (st: EngineStats) => Histogram | null, labels?: Record<string, string>) => {
    const first = pick(s());
    if (first !== null) fs.histogram(name, help, first.upper, () => pick(s()), { labels });
  };
  h('sglang:queue_time_seconds', 'Histogram of queueing time in seconds.', (x) => x.h.queue, SCHED);
  fs.counter('sglang:prompt_tokens_total', 'Number of prefill tokens processed.', () => s().promptTokens);
  fs.counter('sglang:generation_tokens_total', 'Number of generation tokens processed.', () => s().generationTokens);
  fs.counter('sglang:cached_tokens_total', 'Number of cached prompt tokens.', () => s().cachedTokens);
  fs.counter('sglang:num_requests_total', 'Number of requests processed.', () => s().finished);
  fs.counter('sglang:num_aborted_requests_total', 'Number of requests aborted.', () => s().finishedAbort);
  h('sglang:time_to_first_token_seconds', 'Histogram of time to first token in seconds.', (x) => x.h.ttft);
  h('sglang:inter_token_latency_seconds', 'Histogram of inter-token latency in seconds.', (x) => x.h.itl);
  h('sglang:e2e_request_latency_seconds', 'Histogram of End-to-end request latency in seconds', (x) => x.h.e2e);
  h('sglang:prompt_tokens_histogram', 'Histogram of prompt token length.', (x) => x.h.promptTokens);
  h('sglang:generation_tokens_histogram', 'Histogram of generation token length.', (x) => x.h.generationTokens);
  h('sglang:num_retractions', 'Histogram of retractions for each request.', (x) => x.h.preemptions);
  return fs;
}
