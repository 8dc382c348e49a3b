/**
 * Insights, top of the page: the summary bar and the fleet (hex grid and per-instance table).
 * Counts of requests come from `llm_e2e_request_latency_seconds_count`, the one request counter
 * every engine exposes (DJL/LMI has no finished-request counter); the front door's
 * `llm_client_requests_total` is preferred where a gateway or front door writes it.
 */
import { increase, quantile, rate, sel, sumBy } from './queries.js';
import type { Panel, Row, Threshold } from './types.js';

/** The one request counter every engine exposes. */
const REQUESTS = 'llm_e2e_request_latency_seconds_count';

/**
 * The fleet's replicas, one series per replica grouped by `by`: every engine process that serves
 * (its request counter exists) plus the engine targets that are down or still starting (`up == 0`,
 * a vLLM or SGLang server answers 503 while it loads), plus one series (without `replica`) for
 * each instance that runs no engine at all but whose host exporter (DCGM) is scraped: an idle,
 * paid-for instance is a finding, so it gets its cell too.
 */
export function fleetReplicas(by: readonly string[]): string {
  const labels = by.join(', ');
  const engines = `group by (${labels}) (${sel(REQUESTS)}) or on (instance, replica) group by (${labels}) (${sel('up', 'replica!=""')} == 0)`;
  return `${engines} or on (instance) group by (${labels}) (${sel('up', 'replica="", az!=""')})`;
}

const IDENTITY = ['endpoint', 'component', 'model', 'replica', 'instance', 'instance_type', 'az', 'engine'];

/** 5xx share of the engines' own HTTP responses (vLLM, DJL/LMI), else aborted requests (SGLang), by `by`. */
export function engineErrorRatio(by: readonly string[]): string {
  const all = sumBy(by, rate('llm_http_responses_total'));
  const http = `(${sumBy(by, rate('llm_http_responses_total', 'status_class="5xx"'))} or 0 * ${all}) / ${all}`;
  return `${http} or ${sumBy(by, rate('llm_requests_aborted_total'))} / ${sumBy(by, rate(REQUESTS))}`;
}

/** Health steps shared by the hex grid and the instance table. */
export const TTFT_P99_STEPS: readonly Threshold[] = [
  { value: 1, state: 'warning' },
  { value: 3, state: 'critical' },
];
/** KV-cache usage: pressure from 70 %, preemptions close from 90 %. */
export const KV_STEPS: readonly Threshold[] = [
  { value: 0.7, state: 'warning' },
  { value: 0.9, state: 'critical' },
];
/** Error share: 1 % warns, 5 % is critical. */
export const ERROR_STEPS: readonly Threshold[] = [
  { value: 0.01, state: 'warning' },
  { value: 0.05, state: 'critical' },
];
const STATUS_STEPS: readonly Threshold[] = [
  { value: 0, state: 'critical' },
  { value: 1, state: 'ok' },
];

const R = '$__range';

/** The summary bar: six numbers over the selected time range. */
export const SUMMARY_ROW: Row = {
  id: 'summary',
  title: 'Summary',
  panels: [
    {
      id: 'invocations',
      title: 'Invocations',
      description: 'Requests over the selected time range: as the front door counted them (every status), else as the engines finished them.',
      viz: 'stat',
      unit: 'count',
      queries: [{ refId: 'A', expr: `${sumBy([], increase('llm_client_requests_total', R))} or ${sumBy([], increase(REQUESTS, R))}`, instant: true }],
      width: 4,
      height: 4,
    },
    {
      id: 'instances',
      title: 'Instances',
      description: 'Instances with at least one engine serving, starting or down in the selection.',
      viz: 'stat',
      unit: 'count',
      queries: [{ refId: 'A', expr: `count(count by (instance) (${fleetReplicas(['instance', 'replica'])}))`, instant: true }],
      width: 4,
      height: 4,
    },
    {
      id: 'components',
      title: 'Inference components',
      description: 'Inference components (model deployments) with at least one replica in the selection.',
      viz: 'stat',
      unit: 'count',
      queries: [{ refId: 'A', expr: `count(count by (component) (${fleetReplicas(['component', 'instance', 'replica'])}))`, instant: true }],
      width: 4,
      height: 4,
    },
    {
      id: 'error-rate',
      title: 'Error rate',
      description:
        "Share of requests over the range that failed on the server side: 5xx plus streams broken after the first chunk, as the front door saw them; else the engines' own 5xx share.",
      viz: 'stat',
      unit: 'ratio',
      queries: [
        {
          refId: 'A',
          expr:
            `((${sumBy([], increase('llm_client_requests_total', R, 'status_class="5xx"'))} or vector(0)) + (${sumBy([], increase('llm_client_mid_stream_errors_total', R))} or vector(0))) / ${sumBy([], increase('llm_client_requests_total', R))}` +
            ` or ${sumBy([], increase('llm_http_responses_total', R, 'status_class="5xx"'))} / ${sumBy([], increase('llm_http_responses_total', R))}`,
          instant: true,
        },
      ],
      thresholds: ERROR_STEPS,
      width: 4,
      height: 4,
    },
    {
      id: 'ttft-p99',
      title: 'TTFT P99',
      description:
        'Engine-side time to first token, 99th percentile over the selected range: the highest of the P99s of the engines that report it (each engine buckets latency its own way, so their buckets are never added up), which bounds the P99 of all their requests from above.',
      viz: 'stat',
      unit: 'seconds',
      queries: [{ refId: 'A', expr: quantile('0.99', 'llm_time_to_first_token_seconds', [], '', R), instant: true }],
      thresholds: TTFT_P99_STEPS,
      width: 4,
      height: 4,
    },
    {
      id: 'az-skew',
      title: 'AZ skew',
      description:
        "The busiest availability zone's requests divided by the mean per AZ over the range: 1 is an even spread, 1.5 with three AZs means one AZ gets nothing or one takes half.",
      viz: 'stat',
      unit: 'none',
      queries: [{ refId: 'A', expr: `max(${sumBy(['az'], increase(REQUESTS, R))}) / avg(${sumBy(['az'], increase(REQUESTS, R))})`, instant: true }],
      thresholds: [
        { value: 1.25, state: 'warning' },
        { value: 1.5, state: 'critical' },
      ],
      width: 4,
      height: 4,
    },
  ],
};

/** The per-instance fields of the hex grid and the instance table. */
function instanceFields(): Panel['queries'] {
  const p99 = quantile('0.99', 'llm_time_to_first_token_seconds', ['instance']);
  return [
    { refId: 'ttft_p50', title: 'TTFT P50', unit: 'seconds', expr: quantile('0.5', 'llm_time_to_first_token_seconds', ['instance']), instant: true },
    { refId: 'ttft_p99', title: 'TTFT P99', unit: 'seconds', expr: p99, instant: true, thresholds: TTFT_P99_STEPS },
    { refId: 'output_tps', title: 'Output TPS', unit: 'tokens/s', expr: sumBy(['instance'], rate('llm_generation_tokens_total')), instant: true },
    { refId: 'running', title: 'Concurrent requests', unit: 'count', expr: sumBy(['instance'], sel('llm_requests_running')), instant: true },
    { refId: 'kv_usage', title: 'KV-cache usage', unit: 'ratio', expr: `max by (instance) (${sel('llm_kv_cache_usage_ratio')})`, instant: true, thresholds: KV_STEPS },
  ];
}

const HEXGRID: Panel = {
  id: 'fleet-hexgrid',
  title: 'Fleet health',
  description:
    'One cell per instance (or per replica, or per endpoint), grouped by availability zone and coloured by the worst of TTFT P99, KV-cache usage, error share and engine status. Click a cell to filter every panel to it.',
  viz: 'hexgrid',
  unit: 'none',
  queries: [
    { refId: 'cells', expr: fleetReplicas(IDENTITY), instant: true },
    ...instanceFields(),
    { refId: 'status', title: 'Engines up', unit: 'none', expr: `min by (instance) (${sel('up', 'replica!=""')})`, instant: true },
    { refId: 'error_ratio', title: 'Error share', unit: 'ratio', expr: engineErrorRatio(['instance']), instant: true },
  ],
  hexgrid: {
    cells: 'cells',
    views: { instance: 'instance', replica: 'replica', endpoint: 'endpoint' },
    groupBy: 'az',
    health: [
      { refId: 'ttft_p99', thresholds: TTFT_P99_STEPS },
      { refId: 'kv_usage', thresholds: KV_STEPS },
      { refId: 'error_ratio', thresholds: ERROR_STEPS },
      { refId: 'status', thresholds: STATUS_STEPS },
    ],
    filterVariable: 'instance',
    joinOn: 'instance',
  },
  width: 24,
  height: 10,
  emptyHint: 'No engine is scraped yet: the grid fills once a vLLM, SGLang or DJL/LMI target has been scraped.',
};

const INSTANCE_TABLE: Panel = {
  id: 'instance-table',
  title: 'Per-instance metrics',
  description:
    'Latency, throughput, concurrency and KV-cache usage per instance, to spot the outlier; on an instance that runs several engines, a TTFT quantile is the highest of theirs (their bucket layouts differ). The z-score is how many standard deviations its TTFT P99 is from the fleet mean.',
  viz: 'table',
  unit: 'none',
  queries: [
    { refId: 'requests', title: 'Requests/s', unit: 'req/s', expr: sumBy(['instance', 'instance_type', 'az', 'endpoint'], rate(REQUESTS)), instant: true },
    ...instanceFields(),
    {
      refId: 'ttft_p99_z',
      title: 'TTFT P99 z-score',
      unit: 'none',
      expr: (() => {
        // NaN (an idle instance: no first token in the window) is left out of the mean and spread.
        const p99 = quantile('0.99', 'llm_time_to_first_token_seconds', ['instance']);
        return `(${p99} - scalar(avg(${p99} >= 0))) / scalar(stddev(${p99} >= 0))`;
      })(),
      instant: true,
    },
  ],
  joinOn: ['instance'],
  width: 24,
  height: 9,
};

/** The fleet row: the hex grid and the instance table. */
export const FLEET_ROW: Row = { id: 'fleet', title: 'Fleet', panels: [HEXGRID, INSTANCE_TABLE] };
