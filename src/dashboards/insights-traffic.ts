/**
 * Insights, traffic and errors: requests per availability zone with the signals that an AZ went
 * dark or takes a skewed share, and the error mix as the front door and the engines see it (4xx,
 * 429 apart from other 4xx, 5xx, streams broken mid-way).
 */
import { rate, sel, sumBy } from './queries.js';
import type { Panel, Row } from './types.js';

const REQUESTS = 'llm_e2e_request_latency_seconds_count';

const perAz = sumBy(['az'], rate(REQUESTS));
const fairShare = `${perAz} / ignoring (az) group_left avg(${perAz})`;
const enginesUp = `count by (az) (${sel('up', 'replica!=""')} == 1)`;

/** The labels one deployment is told apart by: an endpoint and, within it, a component. */
const DEPLOYMENT = ['az', 'endpoint', 'component'];

/**
 * The deployments (endpoint and component) that have engines up in an AZ but serve no request
 * there, one series per AZ, endpoint and component: judged per deployment, so one endpoint's dark
 * AZ is not hidden by another endpoint's traffic in the same AZ.
 */
export const darkDeployments = `count by (${DEPLOYMENT.join(', ')}) (${sel('up', 'replica!=""')} == 1) unless on (${DEPLOYMENT.join(', ')}) (${sumBy(DEPLOYMENT, rate(REQUESTS))} > 0)`;

const REQUESTS_BY_AZ: Panel = {
  id: 'requests-by-az',
  title: 'Requests by AZ',
  description: 'Requests per second the engines finished in each availability zone. A line that drops to zero while the others climb is an AZ the router stopped sending to.',
  viz: 'timeseries',
  unit: 'req/s',
  queries: [{ refId: 'A', legend: '{{az}}', expr: perAz }],
  width: 12,
  height: 8,
};

/** Per-AZ 4xx or 5xx rate: the front door's where it labels AZs (the gateway), else the engines'. */
function errorsByAz(statusClass: string): string {
  return `${sumBy(['az'], rate('llm_client_requests_total', `status_class=~"${statusClass}", az!=""`))} or ${sumBy(['az'], rate('llm_http_responses_total', `status_class=~"${statusClass}"`))}`;
}

const AZ_TABLE: Panel = {
  id: 'az-traffic',
  title: 'Traffic by AZ',
  description:
    "Each AZ's requests, share and multiple of the fair share (1 = even), its engines, and two flags: engines of an endpoint and component up but no traffic to them (the AZ went dark for that deployment, named in the row), and a share under half or over 1.5 times the fair one.",
  viz: 'table',
  unit: 'none',
  queries: [
    { refId: 'requests', title: 'Requests/s', unit: 'req/s', expr: perAz, instant: true },
    { refId: 'share', title: 'Share', unit: 'ratio', expr: `${perAz} / ignoring (az) group_left sum(${perAz})`, instant: true },
    { refId: 'fair_share', title: '× fair share', unit: 'none', expr: fairShare, instant: true },
    { refId: 'engines', title: 'Engines up', unit: 'count', expr: enginesUp, instant: true },
    {
      refId: 'dark',
      title: 'Up, no traffic',
      unit: 'count',
      // One series per dark deployment (az, endpoint, component): the panel counts and names them per AZ.
      expr: darkDeployments,
      instant: true,
      thresholds: [{ value: 1, state: 'critical' }],
    },
    {
      refId: 'skewed',
      title: 'Skewed (× fair share)',
      unit: 'none',
      expr: `(${fairShare}) > 1.5 or (${fairShare}) < 0.5`,
      instant: true,
      thresholds: [{ value: 0, state: 'warning' }],
    },
    { refId: 'rate_4xx', title: '4xx/s', unit: 'req/s', expr: errorsByAz('4xx|429'), instant: true },
    { refId: 'rate_5xx', title: '5xx/s', unit: 'req/s', expr: errorsByAz('5xx'), instant: true },
  ],
  joinOn: ['az'],
  width: 12,
  height: 8,
};

const FRONTDOOR_ERRORS: Panel = {
  id: 'frontdoor-errors',
  title: 'Errors at the front door',
  description:
    'Failed requests per second by status class as the client saw them (429 apart from other 4xx), streams that broke after the first chunk, and connection-level failures (timeout, reset).',
  viz: 'timeseries',
  unit: 'req/s',
  queries: [
    { refId: 'status', legend: '{{status_class}}', expr: sumBy(['status_class'], rate('llm_client_requests_total', 'status_class!="2xx"')) },
    { refId: 'mid_stream', legend: 'mid-stream', expr: sumBy([], rate('llm_client_mid_stream_errors_total')) },
    { refId: 'connection', legend: '{{error_class}}', expr: sumBy(['error_class'], rate('llm_client_errors_total')) },
  ],
  width: 12,
  height: 8,
  emptyHint: "Needs a front door: the Infersight gateway, or a per-component front-door exporter such as the demo fleet's.",
};

const ENGINE_ERRORS: Panel = {
  id: 'engine-errors',
  title: 'Errors in the engines',
  description:
    "Errors the engines report themselves: their HTTP servers' 4xx and 5xx (vLLM, DJL/LMI), failed requests, and requests aborted mid-way (SGLang's counter, vLLM's abort finish reason).",
  viz: 'timeseries',
  unit: 'req/s',
  queries: [
    { refId: 'http', legend: 'engine {{status_class}}', expr: sumBy(['status_class'], rate('llm_http_responses_total', 'status_class=~"4xx|5xx"')) },
    { refId: 'failed', legend: '{{engine}} failed', expr: sumBy(['engine'], rate('llm_request_errors_total')) },
    {
      refId: 'aborted',
      legend: '{{engine}} aborted',
      expr: `${sumBy(['engine'], rate('llm_requests_aborted_total'))} or ${sumBy(['engine'], rate('llm_requests_finished_total', 'finish_reason="abort"'))}`,
    },
  ],
  width: 12,
  height: 8,
};

/** The traffic row. */
export const TRAFFIC_ROW: Row = { id: 'traffic', title: 'Traffic distribution', panels: [REQUESTS_BY_AZ, AZ_TABLE] };

/** The errors row. */
export const ERRORS_ROW: Row = { id: 'errors', title: 'Errors', panels: [FRONTDOOR_ERRORS, ENGINE_ERRORS] };
