import { describe, expect, it } from 'vitest';
import {
  AREAS,
  CATALOG,
  CONVERSIONS,
  IDENTITY_LABELS,
  MAPPING_ROWS,
  METRIC,
  SOURCES,
  catalogMetadata,
  catalogMetric,
  type ConversionId,
  type MetricDef,
  type Unit,
} from './index.js';

const UNITS: readonly Unit[] = [
  'seconds', 'bytes', 'ratio', 'tokens', 'blocks', 'celsius', 'watts', 'joules', 'hertz',
  'bytes_per_second', 'tokens_per_second', 'flops', 'dollars', 'dollars_per_hour',
];

/** The unit a name ends with (before `_total`), longest match first; '' when none. */
function unitInName(name: string): string {
  const base = name.endsWith('_total') ? name.slice(0, -'_total'.length) : name;
  return [...UNITS].sort((a, b) => b.length - a.length).find((u) => base.endsWith(`_${u}`)) ?? '';
}

/** The metric unit each conversion produces. */
const CONVERSION_UNITS: Readonly<Record<ConversionId, readonly Unit[]>> = {
  none: [...UNITS, ''],
  us_to_seconds: ['seconds'],
  ms_to_seconds: ['seconds'],
  ns_to_seconds: ['seconds'],
  mib_to_bytes: ['bytes'],
  mb_to_bytes: ['bytes'],
  gb_to_bytes: ['bytes', 'bytes_per_second'],
  percent_to_ratio: ['ratio'],
  mj_to_joules: ['joules'],
  mhz_to_hertz: ['hertz'],
};

const byMetric = CATALOG.map((m): [string, MetricDef] => [m.name, m]);

describe('the catalog', () => {
  it('has at least 100 metrics with unique names, in every area', () => {
    expect(CATALOG.length).toBeGreaterThanOrEqual(100);
    expect(new Set(CATALOG.map((m) => m.name)).size).toBe(CATALOG.length);
    for (const area of AREAS) expect(CATALOG.some((m) => m.area === area), area).toBe(true);
  });

  it.each(byMetric)('%s follows the naming rules', (name, m) => {
    expect(name).toMatch(/^(llm|gpu)_[a-z0-9]+(_[a-z0-9]+)*$/);
    expect(name.startsWith('llm_quality_')).toBe(m.area === 'quality');
    expect(name.endsWith('_total')).toBe(m.type === 'counter');
    if (m.type === 'histogram') expect(name).not.toMatch(/_(bucket|sum|count)$/);
    expect(m.unit).toBe(unitInName(name));
    expect(m.help).toMatch(/^[A-Z0-9].*\.$/);
    expect(new Set(m.labels).size).toBe(m.labels.length);
    for (const l of m.labels) expect(IDENTITY_LABELS as readonly string[]).not.toContain(l);
    expect(m.sources.length > 0 || m.producer !== undefined).toBe(true);
  });

  it.each(byMetric)('%s: sources fit its type, unit and labels', (_name, m) => {
    for (const s of m.sources) {
      const what = `${s.source} ${s.metric}`;
      const fits = m.type === 'histogram' ? s.type === 'histogram' || s.type === 'summary' : s.type === m.type;
      expect(fits, `${what}: ${s.type} into ${m.type}`).toBe(true);
      expect(CONVERSION_UNITS[s.convert ?? 'none'], what).toContain(m.unit);
      for (const label of Object.keys(s.addLabels ?? {})) expect(m.labels, what).toContain(label);
      if (s.valueFromLabel !== undefined) expect(s.type, what).toBe('gauge');
      const info = SOURCES[s.source];
      if (s.needsHint !== true && !info.needsHint) {
        expect(info.prefixes.some((p) => s.metric.startsWith(p)), `${what} lacks a ${s.source} prefix`).toBe(true);
      }
    }
  });

  it('gives every exposed name to one engine only, and to each unified series once', () => {
    const owners = new Map<string, Set<string>>();
    const seen = new Set<string>();
    for (const row of MAPPING_ROWS) {
      owners.set(row.from, (owners.get(row.from) ?? new Set()).add(row.source));
      const key = `${row.from} ${JSON.stringify(row.sourceMetric.match ?? {})} ${row.to} ${JSON.stringify(row.sourceMetric.addLabels ?? {})}`;
      expect(seen.has(key), key).toBe(false);
      seen.add(key);
    }
    for (const [from, sources] of owners) expect([...sources], from).toHaveLength(1);
  });

  it('derives one constant per metric', () => {
    expect(METRIC.LLM_TIME_TO_FIRST_TOKEN_SECONDS).toBe('llm_time_to_first_token_seconds');
    expect(METRIC.GPU_MEMORY_USED_BYTES).toBe('gpu_memory_used_bytes');
    expect(METRIC.LLM_QUALITY_SCORE).toBe('llm_quality_score');
    expect(Object.keys(METRIC)).toHaveLength(CATALOG.length);
    for (const [key, name] of Object.entries(METRIC)) expect(key).toBe(name.toUpperCase());
    expect(catalogMetric(METRIC.LLM_KV_CACHE_USAGE_RATIO)?.area).toBe('kv_cache');
    expect(catalogMetric('vllm:num_requests_running')).toBeUndefined();
  });

  it('covers the areas the design asks for', () => {
    const names = new Set(CATALOG.map((m) => m.name));
    for (const n of [
      'llm_time_to_first_token_seconds', 'llm_inter_token_latency_seconds', 'llm_time_per_output_token_seconds',
      'llm_e2e_request_latency_seconds', 'llm_request_queue_time_seconds', 'llm_request_prefill_time_seconds',
      'llm_request_decode_time_seconds', 'llm_request_inference_time_seconds', 'llm_requests_running',
      'llm_requests_waiting', 'llm_requests_waiting_by_reason', 'llm_preemptions_total', 'llm_admission_rejections_total',
      'llm_kv_cache_usage_ratio', 'llm_kv_cache_capacity_blocks', 'llm_prefix_cache_queried_tokens_total',
      'llm_prefix_cache_hit_tokens_total', 'llm_kv_offload_bytes_total', 'llm_prompt_tokens_total', 'llm_generation_tokens_total',
      'llm_prompt_cached_tokens_total', 'llm_request_prompt_tokens', 'llm_request_generation_tokens', 'llm_iteration_tokens',
      'llm_requests_finished_total', 'llm_request_errors_total', 'llm_spec_decode_accepted_tokens_total',
      'llm_model_download_duration_seconds', 'llm_model_load_duration_seconds', 'llm_engine_startup_duration_seconds',
      'gpu_utilization_ratio', 'gpu_sm_active_ratio', 'gpu_tensor_pipe_active_ratio', 'gpu_dram_active_ratio',
      'gpu_memory_used_bytes', 'gpu_memory_free_bytes', 'gpu_power_usage_watts', 'gpu_energy_consumption_joules_total',
      'gpu_temperature_celsius', 'gpu_sm_clock_hertz', 'gpu_pcie_throughput_bytes_per_second', 'gpu_nvlink_traffic_total',
      'gpu_last_xid_error', 'llm_client_time_to_first_token_seconds', 'llm_client_inter_token_latency_seconds',
      'llm_client_model_latency_seconds', 'llm_client_overhead_latency_seconds', 'llm_client_requests_total',
      'llm_client_mid_stream_errors_total', 'llm_replicas', 'llm_instance_ready', 'llm_scaling_events_total',
      'llm_quality_score', 'llm_quality_evaluation_duration_seconds', 'llm_quality_sampled_responses_total',
      'llm_cost_dollars_total',
    ]) {
      expect(names.has(n), n).toBe(true);
    }
  });
});

describe('catalogMetadata', () => {
  it('has the shape of Prometheus /api/v1/metadata', () => {
    const md = catalogMetadata();
    expect(Object.keys(md)).toHaveLength(CATALOG.length);
    expect(md.llm_time_to_first_token_seconds).toEqual([
      { type: 'histogram', unit: 'seconds', help: catalogMetric('llm_time_to_first_token_seconds')?.help },
    ]);
    expect(md.llm_prompt_tokens_total[0]).toMatchObject({ type: 'counter', unit: 'tokens' });
    expect(md.llm_requests_running[0]).toMatchObject({ type: 'gauge', unit: '' });
    md.llm_requests_running.push({ type: 'gauge', help: 'mutated', unit: '' });
    expect(catalogMetadata().llm_requests_running).toHaveLength(1);
  });
});

describe('CONVERSIONS', () => {
  it.each([
    ['us_to_seconds', 1_500_000, 1.5],
    ['ms_to_seconds', 250, 0.25],
    ['ns_to_seconds', 2e9, 2],
    ['mib_to_bytes', 2, 2_097_152],
    ['percent_to_ratio', 42, 0.42],
    ['mj_to_joules', 5000, 5],
    ['mhz_to_hertz', 1410, 1.41e9],
  ] as const)('%s', (id, input, want) => {
    const c = CONVERSIONS[id];
    expect((input * c.multiply) / c.divide).toBe(want);
  });
});
