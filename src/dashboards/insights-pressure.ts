/**
 * Insights, engine and request pressure: KV-cache usage and capacity, running and waiting requests
 * and preemptions, one legend entry per engine (the normalizer's `engine` label: vllm, sglang, djl,
 * tgi, trtllm…), so vLLM, SGLang and DJL/LMI sit on one chart.
 */
import { parseBand } from './variables.js';
import { rate, sel, sumBy } from './queries.js';
import type { Panel, Row } from './types.js';

/** The default of the `kv_band` variable: KV usage climbing to 40–50 % is the early signal to scale. */
export const KV_BAND_DEFAULT = '40-50';

const band = parseBand(KV_BAND_DEFAULT, 'ratio') ?? { from: 0.4, to: 0.5 };

const NO_DJL = 'DJL/LMI exposes no KV-cache or batch gauges; its replicas appear in the queue-time and latency panels.';

const KV_USAGE: Panel = {
  id: 'kv-cache-usage',
  title: 'KV-cache usage',
  description:
    'Share of the KV cache in use on the fullest replica of each engine. Usage that keeps climbing into the band (variable kv_band, percent) is the early signal to scale out before latency degrades.',
  viz: 'timeseries',
  unit: 'ratio',
  queries: [{ refId: 'A', legend: '{{engine}}', expr: `max by (engine) (${sel('llm_kv_cache_usage_ratio')})` }],
  band: { ...band, label: 'scale-out signal', variable: 'kv_band' },
  width: 6,
  height: 8,
  emptyHint: NO_DJL,
};

/**
 * Tokens the KV cache of each replica holds at most: SGLang (and TGI) report tokens, vLLM (and
 * TensorRT-LLM) blocks and the block size. Both come from the same engine series, so they match
 * one-to-one; `engine` in the grouping keeps the two answers apart.
 */
const kvCapacityPerReplica = `max by (component, replica, engine) (${sel('llm_kv_cache_capacity_tokens')}) or max by (component, replica, engine) (${sel('llm_kv_cache_capacity_blocks')} * ${sel('llm_kv_cache_block_size_tokens')})`;

const KV_CAPACITY: Panel = {
  id: 'kv-cache-capacity',
  title: 'KV-cache capacity',
  description:
    'Tokens the KV caches of each inference component can hold (dashed) against the tokens they hold now (usage times capacity, per replica). A capacity that drops after a restart means an engine came up beside foreign GPU memory with a smaller cache.',
  viz: 'timeseries',
  unit: 'tokens',
  queries: [
    { refId: 'used', legend: '{{component}} in use', expr: sumBy(['component'], `max by (component, replica, engine) (${sel('llm_kv_cache_usage_ratio')}) * on (component, replica, engine) (${kvCapacityPerReplica})`) },
    { refId: 'capacity', legend: '{{component}} capacity', expr: sumBy(['component'], kvCapacityPerReplica), reference: true },
  ],
  width: 6,
  height: 8,
  emptyHint: NO_DJL,
};

const REQUESTS: Panel = {
  id: 'running-waiting',
  title: 'Running and waiting requests',
  description: 'Requests in the running batch and waiting in the queue, summed per engine. Waiting requests while the batch is full mean the replicas are saturated.',
  viz: 'timeseries',
  unit: 'count',
  queries: [
    { refId: 'running', legend: '{{engine}} running', expr: sumBy(['engine'], sel('llm_requests_running')) },
    { refId: 'waiting', legend: '{{engine}} waiting', expr: sumBy(['engine'], sel('llm_requests_waiting')) },
  ],
  width: 6,
  height: 8,
  emptyHint: NO_DJL,
};

const PREEMPTIONS: Panel = {
  id: 'preemptions',
  title: 'Preemptions',
  description: 'Requests per second preempted (vLLM) or retracted (SGLang) because the KV cache ran out; each one recomputes its prompt and adds to latency.',
  viz: 'timeseries',
  unit: 'req/s',
  queries: [{ refId: 'A', legend: '{{engine}}', expr: sumBy(['engine'], rate('llm_preemptions_total')) }],
  thresholds: [{ value: 0.1, state: 'warning' }],
  width: 6,
  height: 8,
  emptyHint: 'No engine reported a preemption counter yet (vLLM and SGLang do).',
};

/** The pressure row. */
export const PRESSURE_ROW: Row = { id: 'pressure', title: 'Engine and request pressure', panels: [KV_USAGE, KV_CAPACITY, REQUESTS, PREEMPTIONS] };
