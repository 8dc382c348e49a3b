/**
 * The Cost dashboard (id `cost`, issue 19): what each model (inference component) costs per hour
 * and per million tokens, the GPUs paid for that serve nothing and what they cost, whether each
 * replica is compute- or memory-bound, how close it runs to its benchmark at the concurrency it
 * sees, and how much capacity stands against the peak demand, next to TTFT and answer quality on
 * the same time axis. PromQL over the cost series src/cost writes (src/semconv/catalog-cost.ts),
 * filtered by the Insights variables; the Cost page (web/src/pages/Cost) renders it beside the
 * findings and verdicts of `/api/v1/cost/summary`, and it exports to Grafana with the others.
 */
import { INSIGHTS } from './insights.js';
import { BENCHMARK_EFFICIENCY } from './insights-tokens.js';
import { quantile, rate, sel, sumBy } from './queries.js';
import { ofSelectedComponents } from './selection.js';
import type { Dashboard, Panel, Row } from './types.js';

/** Per-component cost series: filtered by endpoint and component (and the hex selection's components). */
const perComponent = (agg: string, by: readonly string[], name: string, extra = ''): string => ofSelectedComponents(`${agg} by (${by.join(', ')}) (${sel(name, extra)})`);

/** Per-instance cost series (prices, idle GPUs): filtered by endpoint, AZ and instance, as the GPU panels are. */
const perInstance = (name: string, extra = ''): string => {
  const m = ['endpoint=~"$endpoint"', 'instance=~"$instance"', ...(extra === '' ? [] : [extra])];
  return `${name}{${m.join(', ')}}`;
};

const HINT = 'Needs the cost series of src/cost (llm_cost_*): the server computes them from the price catalog and the fleet.';

const stat = (id: string, title: string, description: string, unit: Panel['unit'], expr: string): Panel => ({
  id,
  title,
  description,
  viz: 'stat',
  unit,
  queries: [{ refId: 'A', expr, instant: true }],
  width: 6,
  height: 4,
  emptyHint: HINT,
});

const SUMMARY_ROW: Row = {
  id: 'cost-summary',
  title: 'Cost now',
  panels: [
    stat('cost-per-hour', 'Cost per hour', 'What the selected components cost per hour now: the GPUs their replicas hold times the GPU price of their instance type.', 'dollars/h', `sum(${sel('llm_cost_dollars_per_hour')})`),
    stat('cost-over-range', 'Cost over the range', 'Dollars the selected components cost over the dashboard\'s time range.', 'dollars', `sum(increase(${sel('llm_cost_dollars_total')}[$__range]))`),
    stat('idle-gpus', 'Idle GPUs', 'GPUs paid for that serve nothing: held by no replica, or held with utilization below the idle threshold for the idle window.', 'count', `sum(${perInstance('llm_idle_gpus')})`),
    stat('idle-cost-per-hour', 'Idle cost per hour', 'What the idle GPUs cost per hour at their instance types\' GPU prices.', 'dollars/h', `sum(${perInstance('llm_idle_cost_dollars_per_hour')})`),
  ],
};

const COST_PER_MODEL: Panel = {
  id: 'cost-per-model',
  title: 'Cost per model per hour',
  description: 'Dollars per hour of each inference component: a shared instance is split by the GPUs each component holds, as SageMaker inference components are billed.',
  viz: 'timeseries',
  unit: 'dollars/h',
  queries: [{ refId: 'A', legend: '{{component}} ({{model}})', expr: perComponent('sum', ['component', 'model'], 'llm_cost_dollars_per_hour') }],
  width: 12,
  height: 8,
  emptyHint: HINT,
};

const COST_PER_TOKENS: Panel = {
  id: 'cost-per-million-tokens',
  title: '$ per 1M tokens',
  description: 'What a million input and a million output tokens cost on each component at the current traffic: a component that serves little pays for its GPUs over few tokens.',
  viz: 'timeseries',
  unit: 'dollars',
  queries: [{ refId: 'A', legend: '{{component}} {{token_type}}', expr: perComponent('max', ['component', 'token_type'], 'llm_cost_per_million_tokens_dollars') }],
  width: 12,
  height: 8,
  emptyHint: HINT,
};

const IDLE_GPUS: Panel = {
  id: 'idle-gpus-over-time',
  title: 'Idle GPUs and their cost',
  description: 'Idle GPUs by reason (unallocated: no replica holds them; underused: held but below the utilization threshold for the window), and their cost per hour.',
  viz: 'timeseries',
  unit: 'count',
  queries: [
    { refId: 'A', legend: '{{reason}}', expr: `sum by (reason) (${perInstance('llm_idle_gpus')})` },
    { refId: 'cost', legend: 'idle $/h', unit: 'dollars/h', expr: `sum(${perInstance('llm_idle_cost_dollars_per_hour')})` },
  ],
  width: 12,
  height: 8,
  emptyHint: HINT,
};

const OVERPROVISIONING: Panel = {
  id: 'overprovisioning',
  title: 'Over-provisioning',
  description: 'Capacity against the observed peak demand (concurrency and token rate) of each component over the window: 1 is sized to the peak, 3 holds three times the capacity the peak needed.',
  viz: 'timeseries',
  unit: 'none',
  queries: [{ refId: 'A', legend: '{{component}}', expr: perComponent('max', ['component'], 'llm_overprovisioning_ratio') }],
  thresholds: [
    { value: 2, state: 'warning' },
    { value: 4, state: 'critical' },
  ],
  width: 12,
  height: 8,
  emptyHint: HINT,
};

const EFFICIENCY: Panel = {
  id: 'cost-benchmark-efficiency',
  title: 'Benchmark efficiency',
  description:
    'Output tokens per second of each replica against its benchmark at the concurrency it sees, averaged per component: near 1 at low demand as at high; well below 1 is a throttled or misconfigured engine, not light traffic.',
  viz: 'timeseries',
  unit: 'ratio',
  queries: [{ refId: 'A', legend: '{{component}}', expr: perComponent('avg', ['component'], BENCHMARK_EFFICIENCY) }],
  width: 12,
  height: 8,
  emptyHint: 'Needs a benchmark of the model on its instance type and engine in the benchmark catalog.',
};

const bound = (kind: string): string => `max by (replica) (${sel('llm_replica_bound_state', `bound="${kind}"`)})`;

const VERDICTS: Panel = {
  id: 'bound-verdicts',
  title: 'Compute- vs memory-bound',
  description:
    'Per replica: whether it is compute-bound (SM and tensor pipes busy) or memory-bound (DRAM and memory copies busy), with MFU and MBU where the engine exposes its FLOP and byte counters, and its benchmark efficiency. The Cost page adds each verdict\'s reason.',
  viz: 'table',
  unit: 'none',
  queries: [
    { refId: 'compute', title: 'Compute-bound', expr: bound('compute'), instant: true },
    { refId: 'memory', title: 'Memory-bound', expr: bound('memory'), instant: true },
    { refId: 'idle', title: 'Idle', expr: bound('idle'), instant: true },
    { refId: 'mfu', title: 'MFU', unit: 'ratio', expr: `max by (replica) (${sel('llm_replica_mfu_ratio')})`, instant: true },
    { refId: 'mbu', title: 'MBU', unit: 'ratio', expr: `max by (replica) (${sel('llm_replica_mbu_ratio')})`, instant: true },
    { refId: 'efficiency', title: 'Benchmark efficiency', unit: 'ratio', expr: `max by (replica) (${sel(BENCHMARK_EFFICIENCY)})`, instant: true },
  ],
  joinOn: ['replica'],
  width: 12,
  height: 8,
  emptyHint: HINT,
};

const TTFT: Panel = {
  id: 'cost-ttft',
  title: 'TTFT',
  description: 'Time to first token of each component at the chosen quantile (P99 by default), on the same time axis as its cost: a cheaper fleet that is slower shows here.',
  viz: 'timeseries',
  unit: 'seconds',
  queries: [{ refId: 'A', legend: '{{component}}', expr: quantile('$quantile', 'llm_time_to_first_token_seconds', ['component']) }],
  width: 12,
  height: 8,
};

const QUALITY: Panel = {
  id: 'cost-quality',
  title: 'Answer quality',
  description: 'The mean evaluation score (0–1) of each component, beside its cost: a smaller or cheaper deployment that answers worse shows here.',
  viz: 'timeseries',
  unit: 'ratio',
  queries: [{ refId: 'A', legend: '{{component}}', expr: perComponent('avg', ['component'], 'llm_quality_score') }],
  width: 12,
  height: 8,
  emptyHint: 'Needs quality scores (llm_quality_score).',
};

const TOKENS: Panel = {
  id: 'cost-output-tokens',
  title: 'Output tokens',
  description: 'Output tokens per second of each component: the demand the cost per million tokens is spread over.',
  viz: 'timeseries',
  unit: 'tokens/s',
  queries: [{ refId: 'A', legend: '{{component}}', expr: sumBy(['component'], rate('llm_generation_tokens_total')) }],
  width: 12,
  height: 8,
};

/** The Cost dashboard. */
export const COST: Dashboard = {
  id: 'cost',
  title: 'Cost',
  description:
    'What each model costs per hour and per million tokens, idle GPUs and their cost, over-provisioning against the peak demand, compute- vs memory-bound replicas and their benchmark efficiency, next to TTFT and answer quality on one time axis.',
  // The Insights variables, so a link between the two pages keeps its filters (the KV band is Insights' own).
  variables: INSIGHTS.variables.filter((v) => v.name !== 'kv_band'),
  rows: [
    SUMMARY_ROW,
    { id: 'cost-models', title: 'Cost per model', panels: [COST_PER_MODEL, COST_PER_TOKENS] },
    { id: 'cost-capacity', title: 'Idle GPUs and capacity', panels: [IDLE_GPUS, OVERPROVISIONING] },
    { id: 'cost-efficiency', title: 'Efficiency', panels: [VERDICTS, EFFICIENCY] },
    { id: 'cost-service', title: 'Latency, quality and demand', panels: [TTFT, QUALITY, TOKENS] },
  ],
  annotations: INSIGHTS.annotations,
};
