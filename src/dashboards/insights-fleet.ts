/**
 * Insights, top of the page: the summary bar and the fleet (hex grid and per-instance table).
 * Counts of requests come from `llm_e2e_request_latency_seconds_count`, the one request counter
 * every engine exposes (DJL/LMI has no finished-request counter); the front door's
 * `llm_client_requests_total` is preferred where a gateway or front door writes it.
 */
import { increase, quantile, rate, sel, sumBy } from './queries.js';
import type { HexGridOptions, LifecycleQueries, Panel, Row, Threshold } from './types.js';

/** The one request counter every engine exposes. */
const REQUESTS = 'llm_e2e_request_latency_seconds_count';

/**
 * The fleet's replicas, one series per replica grouped by `by`: every engine process that serves
 * (its request counter exists) plus every other engine target: down or still starting (`up == 0`,
 * a vLLM or SGLang server answers 503 while it loads) or answering without having counted a
 * request yet (DJL/LMI serves its metrics while it loads), plus one series (without `replica`) for
 * each instance that runs no engine at all but whose host exporter (DCGM) is scraped: an idle,
 * paid-for instance is a finding, so it gets its cell too.
 */
export function fleetReplicas(by: readonly string[]): string {
  const labels = by.join(', ');
  const engines = `group by (${labels}) (${sel(REQUESTS)}) or on (instance, replica) group by (${labels}) (${sel('up', 'replica!=""')})`;
  return `${engines} or on (instance) group by (${labels}) (${sel('up', 'replica="", az!=""')})`;
}

const IDENTITY = ['endpoint', 'component', 'model', 'replica', 'instance', 'instance_type', 'az', 'engine'];

/**
 * Error share by `by`, over every engine on the group: the failures of each engine (5xx of its own
 * HTTP server for vLLM and DJL/LMI, aborted requests for SGLang, which has no HTTP counter) summed
 * over the engines, divided by all their requests. Each engine counts one way only (`engine`
 * decides, never `or` across engines), so on an instance that runs vLLM and SGLang both count: a
 * `vllm … or sglang …` union would answer vLLM's share alone.
 */
export function engineErrorRatio(by: readonly string[]): string {
  const withEngine = ['engine', ...by];
  // Engines with an HTTP response counter count its 5xx (0 when there were none) ...
  const all = sumBy(withEngine, rate('llm_http_responses_total'));
  const http = `(${sumBy(withEngine, rate('llm_http_responses_total', 'status_class="5xx"'))} or 0 * ${all})`;
  // ... the others their aborted requests (0 when they have none), over their finished ones.
  const finished = sumBy(withEngine, rate(REQUESTS));
  const aborted = `((${sumBy(withEngine, rate('llm_requests_aborted_total'))} or 0 * ${finished}) unless on (${withEngine.join(', ')}) ${all})`;
  const requests = `(${all} or ${finished})`;
  return `${sumBy(by, `${http} or ${aborted}`)} / ${sumBy(by, requests)}`;
}

/**
 * Per-replica lifecycle from the platform (`llm_replica_state`, one series per replica and state,
 * 1 for the current one): the replicas whose cold start is in progress.
 */
const COLD_STARTING = `(${sel('llm_replica_state', 'state=~"pending|starting"')} == 1)`;
/** Engine targets of replicas (`up` of the target carries the instance and AZ the replica runs on). */
const ENGINE_UP = sel('up', 'replica!=""');

/**
 * Replicas whose cold start is in progress, by instance: the platform says `pending` or `starting`
 * (a vLLM or SGLang server answers 503 while it loads, DJL/LMI already serves its metrics).
 */
export function startingReplicas(): string {
  return `count by (instance) (${ENGINE_UP} and on (replica) ${COLD_STARTING})`;
}

/**
 * Replicas that are down, by instance: the platform says the engine process died and is
 * restarting, or the engine target has not been scraped once within the rate window
 * (`max_over_time(up) == 0`: a crash, an unreachable host, or a platform without the state gauge)
 * while the platform has not said it is starting in that window. One failed scrape (a timeout on
 * a busy host) is not a dead engine, and the window also covers the skew between the engine's and
 * the platform's scrapes: a replica that has just become ready can still read `up == 0` from an
 * engine scrape before that.
 */
export function downReplicas(): string {
  const restarting = `(${sel('llm_replica_state', 'state="restarting"')} == 1)`;
  const recentlyStarting = `(max_over_time(${sel('llm_replica_state', 'state=~"pending|starting"')}[$__rate_interval]) == 1)`;
  const unreachable = `(max_over_time(${ENGINE_UP}[$__rate_interval]) == 0 unless on (replica) ${recentlyStarting})`;
  return `count by (instance) (${unreachable} or (${ENGINE_UP} and on (replica) ${restarting}))`;
}

/** Instances whose host exporter is scraped but that run no engine at all: paid for, serving nothing. */
export function idleInstances(): string {
  return `count by (instance) (${sel('up', 'replica="", az!=""')} == 1 unless on (instance) ${ENGINE_UP})`;
}

/**
 * TTFT P99 health steps shared by the summary, the hex grid and the instance table. They sit on
 * bucket boundaries of vLLM's layout (…, 1, 2.5, 5, 7.5 s) and away from the middle of SGLang's
 * (…, 2, 4, 6 s), so a verdict does not hang on histogram_quantile's linear guess inside one wide
 * bucket: the steady demo fleet's SGLang P99 lies in its 2–4 s bucket (read as 3.0–3.5 s), which
 * a critical step at 3 s would have painted critical on interpolation alone
 * (docs/design/health-states.md).
 */
export const TTFT_P99_STEPS: readonly Threshold[] = [
  { value: 2.5, state: 'warning' },
  { value: 5, state: 'critical' },
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
  const p99 = instanceTtft('0.99');
  return [
    { refId: 'ttft_p50', title: 'TTFT P50', unit: 'seconds', expr: instanceTtft('0.5'), instant: true },
    { refId: 'ttft_p99', title: 'TTFT P99', unit: 'seconds', expr: p99, instant: true, thresholds: TTFT_P99_STEPS },
    { refId: 'output_tps', title: 'Output TPS', unit: 'tokens/s', expr: sumBy(['instance'], rate('llm_generation_tokens_total')), instant: true },
    { refId: 'running', title: 'Concurrent requests', unit: 'count', expr: sumBy(['instance'], sel('llm_requests_running')), instant: true },
    { refId: 'kv_usage', title: 'KV-cache usage', unit: 'ratio', expr: `max by (instance) (${sel('llm_kv_cache_usage_ratio')})`, instant: true, thresholds: KV_STEPS },
  ];
}

/**
 * A TTFT quantile per instance: per engine first (vLLM and SGLang buckets have different `le`
 * boundaries, so an instance running both must not sum them into one histogram), then the
 * slowest engine, as a cell shows the worst of what it covers.
 */
function instanceTtft(q: string): string {
  return `max by (instance) (${quantile(q, 'llm_time_to_first_token_seconds', ['instance', 'engine'])})`;
}

/** The health rules of an instance (hex grid and instance table). */
const HEALTH_RULES: HexGridOptions['health'] = [
  { refId: 'ttft_p99', thresholds: TTFT_P99_STEPS },
  { refId: 'kv_usage', thresholds: KV_STEPS },
  { refId: 'error_ratio', thresholds: ERROR_STEPS },
];

/** The lifecycle queries of an instance, by state. */
const LIFECYCLE: LifecycleQueries = { down: 'down', starting: 'starting', idle: 'idle' };

/** The per-instance queries the health rules and lifecycle read beyond `instanceFields`. */
function healthFields(): Panel['queries'] {
  return [
    { refId: 'error_ratio', title: 'Error share', unit: 'ratio', expr: engineErrorRatio(['instance']), instant: true, thresholds: ERROR_STEPS },
    { refId: 'down', title: 'Engines down', unit: 'count', expr: downReplicas(), instant: true },
    { refId: 'starting', title: 'Engines starting', unit: 'count', expr: startingReplicas(), instant: true },
    { refId: 'idle', title: 'Idle (no engine)', unit: 'count', expr: idleInstances(), instant: true },
  ];
}

const HEXGRID: Panel = {
  id: 'fleet-hexgrid',
  title: 'Fleet health',
  description:
    'One cell per instance (or per replica, or per endpoint), grouped by availability zone. A cell is down (an engine crashed or cannot be scraped), critical or warning (the worst of TTFT P99, KV-cache usage and error share), starting (a cold start in progress), healthy, idle (scraped, but no engine runs on it) or without data. Click a cell to filter every panel to it.',
  viz: 'hexgrid',
  unit: 'none',
  queries: [
    { refId: 'cells', expr: fleetReplicas(IDENTITY), instant: true },
    ...instanceFields(),
    ...healthFields(),
  ],
  hexgrid: {
    cells: 'cells',
    views: { instance: 'instance', replica: 'replica', endpoint: 'endpoint' },
    groupBy: 'az',
    health: HEALTH_RULES,
    lifecycle: LIFECYCLE,
    filterVariable: 'instance',
    joinOn: 'instance',
  },
  width: 24,
  height: 10,
  emptyHint: 'No engine is scraped yet: the grid fills once a vLLM, SGLang or DJL/LMI target has been scraped.',
};

/** The labels of an instance table row. */
const ROW_LABELS = ['instance', 'instance_type', 'az', 'endpoint'];

const INSTANCE_TABLE: Panel = {
  id: 'instance-table',
  title: 'Per-instance metrics',
  description:
    'Health (as the hex grid judges it), latency, throughput, concurrency, KV-cache usage and error share per instance, to spot the outlier; on an instance that runs several engines, a TTFT quantile is the highest of theirs (their bucket layouts differ). The z-score is how many standard deviations its TTFT P99 is from the fleet mean.',
  viz: 'table',
  unit: 'none',
  queries: [
    {
      refId: 'requests',
      title: 'Requests/s',
      unit: 'req/s',
      // Every instance of the fleet gets a row: those that serve nothing (starting, down, idle) at 0.
      expr: `${sumBy(ROW_LABELS, rate(REQUESTS))} or 0 * group by (${ROW_LABELS.join(', ')}) (${fleetReplicas(ROW_LABELS)})`,
      instant: true,
    },
    ...instanceFields(),
    ...healthFields(),
    {
      refId: 'ttft_p99_z',
      title: 'TTFT P99 z-score',
      unit: 'none',
      expr: (() => {
        // NaN (an idle instance: no first token in the window) is left out of the mean and spread.
        const p99 = instanceTtft('0.99');
        return `(${p99} - scalar(avg(${p99} >= 0))) / scalar(stddev(${p99} >= 0))`;
      })(),
      instant: true,
    },
  ],
  joinOn: ['instance'],
  healthColumn: { rules: HEALTH_RULES, lifecycle: LIFECYCLE },
  width: 24,
  height: 9,
};

/** The fleet row: the hex grid and the instance table. */
export const FLEET_ROW: Row = { id: 'fleet', title: 'Fleet', panels: [HEXGRID, INSTANCE_TABLE] };
