import { describe, expect, it } from 'vitest';
import { CATALOG, DROPPED_METRICS, MAPPING_ROWS, droppedSeries, engineRenames, mappingTable, renderMetricsDoc, SOURCE_IDS, type SourceId } from './index.js';

describe('mapping tables', () => {
  it.each([
    // vLLM V1 names and the renamed ones across versions.
    ['vllm', 'vllm:kv_cache_usage_perc', 'llm_kv_cache_usage_ratio'],
    ['vllm', 'vllm:gpu_cache_usage_perc', 'llm_kv_cache_usage_ratio'],
    ['vllm', 'vllm:inter_token_latency_seconds_bucket', 'llm_inter_token_latency_seconds_bucket'],
    ['vllm', 'vllm:time_per_output_token_seconds_bucket', 'llm_inter_token_latency_seconds_bucket'],
    ['vllm', 'vllm:request_time_per_output_token_seconds_sum', 'llm_time_per_output_token_seconds_sum'],
    ['vllm', 'vllm:prefix_cache_queries_total', 'llm_prefix_cache_queried_tokens_total'],
    ['vllm', 'vllm:gpu_prefix_cache_queries_total', 'llm_prefix_cache_queried_tokens_total'],
    ['vllm', 'vllm:gpu_prefix_cache_hits_total', 'llm_prefix_cache_hit_tokens_total'],
    ['vllm', 'vllm:prompt_tokens', 'llm_prompt_tokens_total'],
    ['vllm', 'vllm:iteration_tokens_total_bucket', 'llm_iteration_tokens_bucket'],
    ['vllm', 'vllm:cache_config_info', 'llm_kv_cache_capacity_blocks'],
    ['sglang', 'sglang:num_queue_reqs', 'llm_requests_waiting'],
    ['sglang', 'sglang:token_usage', 'llm_kv_cache_usage_ratio'],
    ['sglang', 'sglang:num_retracted_requests_total', 'llm_preemptions_total'],
    ['tgi', 'tgi_request_duration_sum', 'llm_e2e_request_latency_seconds_sum'],
    ['tgi', 'tgi_request_failure', 'llm_request_errors_total'],
    ['trtllm', 'trtllm_request_success_total', 'llm_requests_finished_total'],
    ['trtllm', 'trtllm_kv_cache_max_blocks', 'llm_kv_cache_capacity_blocks'],
    ['trtllm_triton', 'nv_trt_llm_kv_cache_block_metrics', 'llm_kv_cache_usage_ratio'],
    ['trtllm_triton', 'nv_llm_input_token_len_bucket', 'llm_request_prompt_tokens_bucket'],
    ['triton', 'nv_inference_queue_summary_us_sum', 'llm_request_queue_time_seconds_sum'],
    ['triton', 'nv_inference_first_response_histogram_ms_bucket', 'llm_time_to_first_token_seconds_bucket'],
    ['djl', 'QueueTime_bucket', 'llm_request_queue_time_seconds_bucket'],
    ['djl', 'Response_5XX_total', 'llm_http_responses_total'],
    ['dcgm', 'DCGM_FI_DEV_FB_USED', 'gpu_memory_used_bytes'],
    ['dcgm', 'DCGM_FI_PROF_PIPE_TENSOR_ACTIVE', 'gpu_tensor_pipe_active_ratio'],
    ['otel', 'gen_ai.server.time_to_first_token_bucket', 'llm_time_to_first_token_seconds_bucket'],
    ['otel', 'gen_ai_server_time_to_first_token_seconds_bucket', 'llm_time_to_first_token_seconds_bucket'],
    ['otel', 'gen_ai_client_token_usage_sum', 'llm_client_request_tokens_sum'],
  ] as const)('%s: %s → %s', (source: SourceId, from, to) => {
    expect(mappingTable(source).filter((r) => r.from === from).map((r) => r.to)).toContain(to);
  });

  it('has a table for every engine', () => {
    for (const id of SOURCE_IDS) expect(mappingTable(id).length, id).toBeGreaterThan(0);
  });

  it('lists the vLLM renames across versions', () => {
    const renames = engineRenames('vllm').map((r) => `${r.from} → ${r.replacedBy}`);
    expect(renames).toEqual(
      expect.arrayContaining([
        'vllm:gpu_cache_usage_perc → vllm:kv_cache_usage_perc',
        'vllm:time_per_output_token_seconds → vllm:inter_token_latency_seconds',
        'vllm:gpu_prefix_cache_queries → vllm:prefix_cache_queries',
        'vllm:gpu_prefix_cache_hits → vllm:prefix_cache_hits',
      ]),
    );
  });

  it('keeps the bucket conversion on le and off _count', () => {
    const rows = mappingTable('triton').filter((r) => r.to.startsWith('llm_time_to_first_token_seconds'));
    expect(rows.map((r) => [r.member, r.convert])).toEqual([
      ['bucket', 'ms_to_seconds'],
      ['sum', 'ms_to_seconds'],
      ['count', 'ms_to_seconds'],
    ]);
  });
});

describe('DROPPED_METRICS', () => {
  it('drops no name that a mapping row maps, and says why in a sentence', () => {
    const mapped = new Set(MAPPING_ROWS.map((r) => r.from));
    for (const d of droppedSeries()) expect(mapped.has(d.name), d.name).toBe(false);
    for (const m of DROPPED_METRICS) expect(m.reason).toMatch(/^[A-Z].*\.$/);
    expect(droppedSeries().map((d) => d.name)).toContain('vllm:request_max_num_generation_tokens_bucket');
  });
});

describe('renderMetricsDoc', () => {
  it('is deterministic and names every metric and every engine', () => {
    const doc = renderMetricsDoc();
    expect(renderMetricsDoc()).toBe(doc);
    expect(doc.endsWith('\n')).toBe(true);
    for (const m of CATALOG) expect(doc).toContain(`\`${m.name}\``);
    for (const id of SOURCE_IDS) expect(doc).toContain(`(\`${id}\`)`);
    for (const m of DROPPED_METRICS) expect(doc).toContain(`\`${m.metric}\``);
  });
});
