/**
 * The Insights dashboard (id `insights`): the fleet at a glance for the operator asking "P99 just
 * went up — why?". A summary bar, the fleet honeycomb with an instance table, SLOs and error
 * budgets, token latency, the
 * quality strip, engine pressure and KV capacity, GPUs, traffic by AZ, throughput against
 * benchmark, cold-start anatomy, errors and workload shape, with cold starts and scaling events
 * drawn across the time series. Rows live in `insights-*.ts`; every panel follows a hex-cell click.
 */
import { COLD_START_ROW } from './insights-cold-start.js';
import { FLEET_ROW, SUMMARY_ROW } from './insights-fleet.js';
import { GPU_ROW } from './insights-gpu.js';
import { LATENCY_ROW } from './insights-latency.js';
import { KV_BAND_DEFAULT, PRESSURE_ROW } from './insights-pressure.js';
import { QUALITY_ROW } from './insights-quality.js';
import { SLO_ROW } from './insights-slo.js';
import { THROUGHPUT_ROW, WORKLOAD_ROW } from './insights-tokens.js';
import { ERRORS_ROW, TRAFFIC_ROW } from './insights-traffic.js';
import { sel, sumBy } from './queries.js';
import { ofSelectedComponents } from './selection.js';
import type { Annotation, Dashboard, Variable } from './types.js';

/** The drill-down variables: each one's options are narrowed by the ones before it (the Quality dashboard shares them). */
export const INSIGHTS_VARIABLES: readonly Variable[] = [
  { name: 'endpoint', label: 'Endpoint', kind: 'labelValues', metric: 'up', labelName: 'endpoint' },
  { name: 'component', label: 'Component', kind: 'labelValues', metric: 'up', match: 'up{endpoint=~"$endpoint"}', labelName: 'component' },
  {
    name: 'engine',
    label: 'Engine',
    kind: 'labelValues',
    metric: 'llm_e2e_request_latency_seconds_count',
    match: 'llm_e2e_request_latency_seconds_count{endpoint=~"$endpoint", component=~"$component"}',
    labelName: 'engine',
  },
  { name: 'az', label: 'AZ', kind: 'labelValues', metric: 'up', match: 'up{endpoint=~"$endpoint", component=~"$component"}', labelName: 'az' },
  {
    name: 'instance',
    label: 'Instance',
    kind: 'labelValues',
    metric: 'up',
    match: 'up{endpoint=~"$endpoint", component=~"$component", az=~"$az", replica!=""}',
    labelName: 'instance',
    hidden: true,
  },
  {
    name: 'quantile',
    label: 'Quantile',
    kind: 'custom',
    options: [
      { value: '0.5', text: 'P50' },
      { value: '0.9', text: 'P90' },
      { value: '0.99', text: 'P99' },
    ],
    default: '0.99',
  },
  { name: 'kv_band', label: 'KV band (%)', kind: 'text', default: KV_BAND_DEFAULT },
];

/**
 * Drift events (src/quality's drift runner writes `llm_quality_drift_event`, 1 while a drift is
 * open): marked at their onset only, the first step a drift is open and was not one step before,
 * so that a drift lasting hours is one marker, not a marker per step.
 */
export const DRIFT_ANNOTATION: Annotation = {
  id: 'quality-drift',
  title: 'Quality drift',
  expr: (() => {
    const open = `max by (component, subject, test) (${sel('llm_quality_drift_event')})`;
    return ofSelectedComponents(`(${open} > 0) unless (${open.replace(/\)$/, ' offset $__interval)')} > 0)`);
  })(),
  text: '{{component}}: {{subject}} drift ({{test}})',
  color: '#bb6bd9',
};

/** The markers drawn across every time series of Insights (and of Quality). */
export const INSIGHTS_ANNOTATIONS: readonly Annotation[] = [
  {
    id: 'cold-starts',
    title: 'Cold starts',
    expr: `${sumBy(['component'], `increase(${sel('llm_cold_start_duration_seconds_count')}[$__rate_interval])`)} > 0`,
    text: '{{component}}: cold start',
    color: '#f2994a',
  },
  {
    id: 'scaling',
    title: 'Scaling events',
    expr: ofSelectedComponents(`${sumBy(['component', 'direction'], `increase(${sel('llm_scaling_events_total')}[$__rate_interval])`)} > 0`),
    text: '{{component}}: scale {{direction}}',
    color: '#56ccf2',
  },
  DRIFT_ANNOTATION,
];

/** The Insights dashboard. */
export const INSIGHTS: Dashboard = {
  id: 'insights',
  title: 'Insights',
  description:
    'The fleet at a glance: invocations, instances and errors; the fleet honeycomb by AZ; SLOs, error budgets and burn rates; token latency from the client and the engine; answer quality; KV-cache usage, capacity and queue pressure; GPUs per instance; traffic by AZ; throughput against benchmark; cold-start anatomy; errors and workload shape. Click a hex cell to filter every panel to that instance.',
  variables: INSIGHTS_VARIABLES,
  rows: [SUMMARY_ROW, FLEET_ROW, SLO_ROW, LATENCY_ROW, QUALITY_ROW, PRESSURE_ROW, GPU_ROW, TRAFFIC_ROW, THROUGHPUT_ROW, COLD_START_ROW, ERRORS_ROW, WORKLOAD_ROW],
  annotations: INSIGHTS_ANNOTATIONS,
};
