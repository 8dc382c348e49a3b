/**
 * Insights, tokens: input and output throughput against the stored benchmark of each model on
 * its instance type, each replica's efficiency against the benchmark at the concurrency it sees
 * (src/cost), and the workload's shape
 * (prompt and output lengths over time).
 */
import { heatmapBuckets, rate, sel, sumBy } from './queries.js';
import { ofSelectedComponents } from './selection.js';
import type { Panel, Row } from './types.js';

const BENCHMARK = 'llm_benchmark_output_tokens_per_second';
/** Observed output TPS of a replica ÷ the benchmark's at its observed concurrency (src/cost); the Cost dashboard reads it too. */
export const BENCHMARK_EFFICIENCY = 'llm_benchmark_efficiency_ratio';
const GENERATED = 'llm_generation_tokens_total';
const KEY = ['model', 'instance_type'];

/** The benchmark per model × instance type (joined on those labels). */
const benchmark = `max by (model, instance_type) (${sel(BENCHMARK)})`;

const THROUGHPUT: Panel = {
  id: 'token-throughput',
  title: 'Token throughput',
  description:
    'Input (prompt) and output tokens per second per inference component; the dashed line is the benchmark output throughput of each model on its instance type, times the replicas in the selection.',
  viz: 'timeseries',
  unit: 'tokens/s',
  queries: [
    { refId: 'input', legend: '{{component}} input', expr: sumBy(['component'], rate('llm_prompt_tokens_total')) },
    { refId: 'output', legend: '{{component}} output', expr: sumBy(['component'], rate(GENERATED)) },
    {
      refId: 'benchmark',
      legend: '{{model}} on {{instance_type}} benchmark',
      expr: `${benchmark} * on (${KEY.join(', ')}) count by (${KEY.join(', ')}) (count by (${[...KEY, 'replica'].join(', ')}) (${sel(GENERATED)}))`,
      reference: true,
    },
  ],
  width: 12,
  height: 8,
  emptyHint: 'The benchmark line needs llm_benchmark_output_tokens_per_second (the demo fleet exports it; a real fleet from a benchmark table).',
};

const EFFICIENCY: Panel = {
  id: 'benchmark-efficiency',
  title: 'Throughput vs benchmark',
  description:
    "Output tokens per second of each replica against its model's benchmark on its instance type and engine at the concurrency the replica sees (src/cost's llm_benchmark_efficiency_ratio), averaged per component: a healthy fleet at low demand reads near 1, a throttled or misconfigured engine well below it.",
  viz: 'timeseries',
  unit: 'ratio',
  // Per replica without an instance label: a hex selection narrows it to the selected components.
  queries: [{ refId: 'A', legend: '{{component}}', expr: ofSelectedComponents(`avg by (component) (${sel(BENCHMARK_EFFICIENCY)})`) }],
  width: 12,
  height: 8,
  emptyHint: 'Needs llm_benchmark_efficiency_ratio: a benchmark of the model on its instance type and engine in the cost module\'s benchmark catalog.',
};

/** A token-length distribution over time. */
function lengths(id: string, title: string, histogram: string, description: string): Panel {
  return {
    id,
    title,
    // The buckets stay per engine (heatmapBuckets): each engine's layout is differenced on its own.
    description: `${description} Each engine's buckets are kept apart, as their bounds differ.`,
    viz: 'heatmap',
    unit: 'tokens',
    queries: [{ refId: 'A', legend: '{{le}}', expr: heatmapBuckets(histogram) }],
    width: 12,
    height: 8,
    emptyHint: 'vLLM, TGI and TensorRT-LLM report length histograms; SGLang only when it collects token histograms, DJL/LMI not at all.',
  };
}

/** The token throughput row. */
export const THROUGHPUT_ROW: Row = { id: 'throughput', title: 'Token throughput', panels: [THROUGHPUT, EFFICIENCY] };

/** The workload-shape row. */
export const WORKLOAD_ROW: Row = {
  id: 'workload',
  title: 'Workload shape',
  panels: [
    lengths('prompt-length', 'Prompt length', 'llm_request_prompt_tokens', 'Prompt tokens per request over time (requests per second in each length bucket). A shift to longer prompts raises prefill time and TTFT.'),
    lengths('output-length', 'Output length', 'llm_request_generation_tokens', 'Generated tokens per request over time. Longer answers hold KV cache longer and raise E2E latency.'),
  ],
};
