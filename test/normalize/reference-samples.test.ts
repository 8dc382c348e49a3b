// Every real exposition excerpt in ../shared/reference/samples/ is parsed (src/wire) and written
// through the normalizer (src/normalize); the unified series each file must give are spelled out
// below. It lives in test/ because it joins two modules that may not import each other
// (scripts/check-deps.mjs: normalize may not import wire, not even in tests).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Labels } from '../../src/model/index.js';
import { NormalizingAppendable, type NormalizeOptions } from '../../src/normalize/index.js';
import { MemoryStorage } from '../../src/storage/testing/index.js';
import { parseExposition } from '../../src/wire/index.js';

const dir = new URL('../../../shared/reference/samples/', import.meta.url);
const present = existsSync(dir);
const T = 1_700_000_000_000;

/** Parses a sample file, adds `extra` labels (target labels a scraper would attach), normalizes, commits. */
async function normalizeFile(file: string, options: NormalizeOptions = {}, extra: Record<string, string> = {}): Promise<MemoryStorage> {
  const inner = new MemoryStorage();
  const app = new NormalizingAppendable(inner, options).appender();
  parseExposition(readFileSync(new URL(file, dir), 'utf8'), 'prometheus-0.0.4', (s) => {
    const labels = Object.keys(extra).length === 0 ? s.labels : Labels.from({ ...s.labels.toRecord(), ...extra });
    app.append(0, labels, T, s.value);
  });
  await app.commit();
  return inner;
}

/** The committed series as `name{labels} value` lines, sorted. */
const lines = (m: MemoryStorage): string[] => m.dump();
/** Series names with how many series each has. */
function names(m: MemoryStorage): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of m.read([], 0, Infinity)) out[s.labels.metricName] = (out[s.labels.metricName] ?? 0) + 1;
  return out;
}

const LLAMA = 'meta-llama/Llama-3.1-8B-Instruct';
/** One expected line, labels in the sorted order `dump` prints them. */
const line = (name: string, labels: Record<string, string>, value: number): string => `${Labels.from({ __name__: name, ...labels }).toString()} ${value}`;
const GPU = 'GPU-604ac76c-d9cf-fef3-62e9-d92044ab6e52';

/** Per file: what the normalized exposition must contain. */
const EXPECTATIONS: Record<string, () => Promise<void>> = {
  'dcgm-exporter-metrics.txt': async () => {
    expect(lines(await normalizeFile('dcgm-exporter-metrics.txt'))).toEqual([
      `gpu_memory_clock_hertz{gpu="0", gpu_uuid="${GPU}"} 405000000`,
      `gpu_sm_clock_hertz{gpu="0", gpu_uuid="${GPU}"} 139000000`,
      // DCGM_FI_DEV_MEMORY_TEMP is DCGM's "not supported" sentinel: no temperature is written.
    ]);
    const raw = await normalizeFile('dcgm-exporter-metrics.txt', { keepRaw: true });
    expect(names(raw)).toEqual({
      DCGM_FI_DEV_MEM_CLOCK: 1,
      DCGM_FI_DEV_MEMORY_TEMP: 1,
      DCGM_FI_DEV_SM_CLOCK: 1,
      gpu_memory_clock_hertz: 1,
      gpu_sm_clock_hertz: 1,
    });
  },

  'sglang-metrics.txt': async () => {
    const m = await normalizeFile('sglang-metrics.txt');
    expect(names(m)).toEqual({
      llm_e2e_request_latency_seconds_bucket: 16,
      llm_e2e_request_latency_seconds_count: 1,
      llm_e2e_request_latency_seconds_sum: 1,
      llm_generation_throughput_tokens_per_second: 1,
      llm_generation_tokens_total: 1,
      llm_inter_token_latency_seconds_bucket: 19, // from the legacy sglang:time_per_output_token_seconds
      llm_inter_token_latency_seconds_count: 1,
      llm_inter_token_latency_seconds_sum: 1,
      llm_kv_cache_usage_ratio: 1,
      llm_kv_cache_used_tokens: 1,
      llm_prefix_cache_hit_ratio: 1,
      llm_prompt_tokens_total: 1,
      llm_requests_running: 1,
      llm_requests_waiting: 1,
      llm_time_to_first_token_seconds_bucket: 21,
      llm_time_to_first_token_seconds_count: 1,
      llm_time_to_first_token_seconds_sum: 1,
      // The legacy sglang:func_latency_seconds is left out on purpose (semconv DROPPED_METRICS).
    });
    expect(names(await normalizeFile('sglang-metrics.txt', { keepRaw: true }))).toMatchObject({ 'sglang:func_latency_seconds_count': 1 });
    const l = { engine: 'sglang', model: LLAMA };
    expect(lines(m)).toEqual(
      expect.arrayContaining([
        line('llm_prompt_tokens_total', l, 8128902),
        line('llm_generation_tokens_total', l, 7557572),
        line('llm_kv_cache_usage_ratio', l, 0.28),
        line('llm_prefix_cache_hit_ratio', l, 0.007507552643049313),
        line('llm_time_to_first_token_seconds_bucket', { ...l, le: '0.04' }, 1),
        line('llm_time_to_first_token_seconds_bucket', { ...l, le: '+Inf' }, 11008),
        line('llm_time_to_first_token_seconds_count', l, 11008),
        line('llm_e2e_request_latency_seconds_count', l, 11228),
        line('llm_inter_token_latency_seconds_bucket', { ...l, le: '0.075' }, 433413),
        line('llm_inter_token_latency_seconds_count', l, 7400757),
        line('llm_requests_running', l, 162),
        line('llm_kv_cache_used_tokens', l, 123859),
        line('llm_generation_throughput_tokens_per_second', l, 86.50814177726902),
        line('llm_requests_waiting', l, 2826),
      ]),
    );
  },

  'triton-metrics.txt': async () => {
    const l = 'engine="triton", model="my_model", version="1"';
    const q = (quantile: string, v: number) => `nv_inference_queue_summary_us{model="my_model", quantile="${quantile}", version="1"} ${v}`;
    expect(lines(await normalizeFile('triton-metrics.txt'))).toEqual(
      [
        `llm_request_queue_time_seconds_count{${l}} 161`,
        `llm_request_queue_time_seconds_sum{${l}} 0.01111`,
        `llm_request_queue_seconds_total{${l}} 0.01111`,
        `llm_requests_finished_total{${l}} 161`,
        // Summary quantiles cannot join a histogram: they stay under Triton's name.
        q('0.5', 55), q('0.9', 97), q('0.95', 98), q('0.99', 101), q('0.999', 101),
      ].sort(),
    );
  },

  'vllm-metrics.txt': async () => {
    const l = { engine: 'vllm', model: LLAMA };
    const http = [
      'http_request_duration_highr_seconds_count 201',
      'http_request_duration_seconds_count{handler="/v1/completions", method="POST"} 201',
      'http_request_size_bytes_count{handler="/v1/completions"} 201',
      'http_requests_total{handler="/v1/completions", method="POST", status="2xx"} 201',
      'http_response_size_bytes_count{handler="/v1/completions"} 201',
    ];
    const ttft = ['0.001', '0.005', '0.01', '0.02', '0.04', '0.06', '0.08', '0.1'];
    const counts = [0, 0, 0, 13, 97, 123, 138, 140];
    expect(lines(await normalizeFile('vllm-metrics.txt'))).toEqual(
      [
        line('llm_requests_running', l, 8),
        line('llm_generation_tokens_total', l, 27453),
        line('llm_requests_finished_total', { ...l, finish_reason: 'stop' }, 1),
        line('llm_requests_finished_total', { ...l, finish_reason: 'length' }, 131),
        line('llm_requests_finished_total', { ...l, finish_reason: 'abort' }, 0),
        ...ttft.map((le, i) => line('llm_time_to_first_token_seconds_bucket', { ...l, le }, counts[i])),
        line('llm_time_to_first_token_seconds_count', l, 140),
        ...http, // generic names: unchanged without a hint
      ].sort(),
    );
    // With the scrape job as the hint, vLLM's HTTP server metrics join the catalog too.
    const hinted = lines(await normalizeFile('vllm-metrics.txt', {}, { job: 'vllm' }));
    expect(hinted).toEqual(
      expect.arrayContaining([
        'llm_http_responses_total{engine="vllm", handler="/v1/completions", job="vllm", method="POST", status_class="2xx"} 201',
        'llm_http_request_duration_seconds_count{engine="vllm", handler="/v1/completions", job="vllm", method="POST"} 201',
        'http_request_size_bytes_count{handler="/v1/completions", job="vllm"} 201',
      ]),
    );
    expect(hinted.some((x) => x.startsWith('http_requests_total'))).toBe(false);
  },

  'vllm-v1-0.8-production-stack-issue318-excerpt.txt': async () => {
    const l = 'engine="vllm", model="Qwen/Qwen2.5-Coder-32B-Instruct"';
    expect(lines(await normalizeFile('vllm-v1-0.8-production-stack-issue318-excerpt.txt'))).toEqual(
      [
        `llm_requests_running{${l}} 0`,
        `llm_requests_waiting{${l}} 0`,
        `llm_kv_cache_usage_ratio{${l}} 0`, // from the legacy vllm:gpu_cache_usage_perc
        'process_cpu_seconds_total 439.71999999999997',
        'process_max_fds 1048576',
        'process_open_fds 45',
        'process_start_time_seconds 1742624005.57',
      ].sort(),
    );
  },

  'vllm-v1-dp-engine-label-pr22227-excerpt.txt': async () => {
    // No unit change: the bounds stay exactly as exposed ("15.0").
    const les = ['15.0', '20.0', '30.0', '40.0', '50.0', '60.0', '120.0', '240.0', '480.0', '960.0', '1920.0', '7680.0', '+Inf'];
    expect(lines(await normalizeFile('vllm-v1-dp-engine-label-pr22227-excerpt.txt'))).toEqual(
      les
        .map((le) => `llm_request_decode_time_seconds_bucket{dp_rank="1", engine="vllm", le="${le}", model="/home/jovyan/qwen3-8b"} 1`)
        .sort(),
    );
  },
};

describe.skipIf(!present && process.env.CI !== 'true')('normalizing ../shared/reference/samples (skipped when absent outside CI)', () => {
  it('has expectations for exactly the files that exist', () => {
    expect(readdirSync(dir).filter((f) => f.endsWith('.txt')).sort()).toEqual(Object.keys(EXPECTATIONS).sort());
  });

  it.each(Object.keys(EXPECTATIONS))('%s', async (file) => {
    await EXPECTATIONS[file]();
  });
});
