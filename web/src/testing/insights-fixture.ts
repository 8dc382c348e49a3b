/**
 * A small Insights-like dashboard in the shape of src/dashboards/types.ts, the fixture of the
 * panel-model tests: stable where the real definitions (src/dashboards) evolve, and covering every
 * feature the UI reads (tabs, bands, references, a second unit, per-query thresholds, a hex grid
 * with views and joinOn, annotations with steps).
 */
import type { Dashboard, Panel, PanelQuery, Threshold } from '../../../src/dashboards/types.js';

/** Engine-side series: every identity variable filters them, the hex-grid selection included. */
const F = 'endpoint=~"$endpoint",component=~"$component",engine=~"$engine",az=~"$az",instance=~"$instance"';
/** Front-door series have no engine, AZ or instance labels. */
const FD = 'endpoint=~"$endpoint",component=~"$component"';

const TTFT: readonly Threshold[] = [
  { value: 1, state: 'warning' },
  { value: 2, state: 'critical' },
];
const KV: readonly Threshold[] = [
  { value: 0.5, state: 'warning' },
  { value: 0.85, state: 'critical' },
];
const ERRORS: readonly Threshold[] = [
  { value: 0.01, state: 'warning' },
  { value: 0.05, state: 'critical' },
];

const q = (refId: string, expr: string, extra: Partial<PanelQuery> = {}): PanelQuery => ({ refId, expr, ...extra });
const hq = (metric: string, by: string, sel = F, quantile = '$quantile'): string =>
  `histogram_quantile(${quantile}, sum by (le${by === '' ? '' : `, ${by}`}) (rate(${metric}_bucket{${sel}}[$__rate_interval])))`;

const stat = (id: string, title: string, description: string, expr: string, unit: Panel['unit'], extra: Partial<Panel> = {}): Panel => ({
  id,
  title,
  description,
  viz: 'stat',
  unit,
  queries: [q('A', expr, { instant: true })],
  width: 4,
  height: 3,
  ...extra,
});

/** The fixture. */
export const INSIGHTS_FIXTURE: Dashboard = {
  id: 'insights',
  title: 'Insights',
  description: 'The fleet at a glance: health per instance, token latency, pressure, traffic, throughput, errors and workload shape.',
  variables: [
    { name: 'endpoint', label: 'Endpoint', kind: 'labelValues', metric: 'llm_requests_running', labelName: 'endpoint' },
    { name: 'component', label: 'Component', kind: 'labelValues', metric: 'llm_requests_running', labelName: 'component' },
    { name: 'engine', label: 'Engine', kind: 'labelValues', metric: 'llm_requests_running', labelName: 'engine' },
    { name: 'az', label: 'AZ', kind: 'labelValues', metric: 'llm_requests_running', labelName: 'az' },
    { name: 'instance', label: 'Instance', kind: 'labelValues', metric: 'llm_requests_running', labelName: 'instance', hidden: true },
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
    { name: 'kv_band', label: 'KV pressure band (%)', kind: 'text', default: '40-50' },
  ],
  rows: [
    {
      id: 'summary',
      title: 'Summary',
      panels: [
        stat('invocations', 'Invocations', 'Requests the front door received over the range.', `sum(increase(llm_client_requests_total{${FD}}[$__range]))`, 'count', {
          emptyHint: 'Invocations are counted by the gateway (llm_client_requests_total).',
        }),
        stat('instances', 'Instances', 'Instances reporting engine metrics.', `count(count by (instance) (llm_requests_running{${F}}))`, 'count'),
        stat('components', 'Components', 'Inference components (model deployments) serving.', `count(count by (component) (llm_requests_running{${F}}))`, 'count'),
        stat(
          'error-rate',
          'Error rate',
          'Share of front-door requests answered 4xx, 429 or 5xx.',
          `sum(rate(llm_client_requests_total{${FD},status_class=~"4xx|429|5xx"}[$__rate_interval])) / sum(rate(llm_client_requests_total{${FD}}[$__rate_interval]))`,
          'ratio',
          { thresholds: ERRORS },
        ),
        stat('ttft-p99', 'TTFT P99', 'Time to first token, 99th percentile over the fleet.', hq('llm_time_to_first_token_seconds', '', F, '0.99'), 'seconds', {
          thresholds: TTFT,
        }),
        stat(
          'az-skew',
          'AZ skew',
          'How far the busiest AZ is above the average AZ share of requests (0% is even).',
          `max(sum by (az) (rate(llm_requests_finished_total{${F}}[$__rate_interval]))) / avg(sum by (az) (rate(llm_requests_finished_total{${F}}[$__rate_interval]))) - 1`,
          'ratio',
          { thresholds: [{ value: 0, state: 'ok' }, { value: 0.25, state: 'warning' }, { value: 0.5, state: 'critical' }] },
        ),
      ],
    },
    {
      id: 'fleet',
      title: 'Fleet',
      panels: [
        {
          id: 'fleet-hexgrid',
          title: 'Fleet health',
          description: 'One hexagon per instance, grouped by availability zone and coloured by the worst of TTFT P99, KV-cache usage and error rate.',
          viz: 'hexgrid',
          unit: 'none',
          queries: [
            q('cells', `group by (instance, replica, endpoint, component, az, engine, instance_type) (llm_requests_running{${F}})`, { instant: true }),
            q('ttft_p50', hq('llm_time_to_first_token_seconds', 'instance', F, '0.5'), { instant: true, title: 'TTFT P50', unit: 'seconds' }),
            q('ttft_p99', hq('llm_time_to_first_token_seconds', 'instance', F, '0.99'), { instant: true, title: 'TTFT P99', unit: 'seconds', thresholds: TTFT }),
            q('tps', `sum by (instance) (rate(llm_generation_tokens_total{${F}}[$__rate_interval]))`, { instant: true, title: 'Output TPS', unit: 'tokens/s' }),
            q('running', `sum by (instance) (llm_requests_running{${F}})`, { instant: true, title: 'Concurrent requests', unit: 'count' }),
            q('kv', `max by (instance) (llm_kv_cache_usage_ratio{${F}})`, { instant: true, title: 'KV-cache usage', unit: 'ratio', thresholds: KV }),
            q(
              'errors',
              `sum by (instance) (rate(llm_request_errors_total{${F}}[$__rate_interval])) / sum by (instance) (rate(llm_requests_finished_total{${F}}[$__rate_interval]))`,
              { instant: true, title: 'Error rate', unit: 'ratio', thresholds: ERRORS },
            ),
          ],
          hexgrid: {
            cells: 'cells',
            views: { instance: 'instance', replica: 'replica', endpoint: 'endpoint' },
            groupBy: 'az',
            health: [
              { refId: 'ttft_p99', thresholds: TTFT },
              { refId: 'kv', thresholds: KV },
              { refId: 'errors', thresholds: ERRORS },
            ],
            filterVariable: 'instance',
            joinOn: 'instance',
          },
          width: 24,
          height: 9,
          emptyHint: 'No instance reports llm_requests_running yet: is a scrape target up?',
        },
      ],
    },
    {
      id: 'latency',
      title: 'Token latency',
      panels: [
        {
          id: 'token-latency',
          title: 'Token latency',
          description: 'Time to first token, inter-token latency and end-to-end latency at the selected quantile.',
          viz: 'timeseries',
          unit: 'seconds',
          queries: [],
          tabs: [
            {
              id: 'streaming',
              title: 'Streaming',
              queries: [
                q('ttft', hq('llm_time_to_first_token_seconds', ''), { legend: 'TTFT' }),
                q('itl', hq('llm_inter_token_latency_seconds', ''), { legend: 'Inter-token' }),
                q('e2e', hq('llm_e2e_request_latency_seconds', ''), { legend: 'E2E' }),
              ],
            },
            {
              id: 'invoke',
              title: 'Invoke',
              queries: [
                q('client_ttft', hq('llm_client_time_to_first_token_seconds', '', FD), { legend: 'Client TTFT' }),
                q('client_e2e', hq('llm_client_request_duration_seconds', '', FD), { legend: 'Client E2E' }),
              ],
            },
          ],
          width: 12,
          height: 9,
        },
        {
          id: 'latency-overhead',
          title: 'Model latency vs platform overhead',
          description: 'Where request time goes: inside the model, or in the platform in front of it.',
          viz: 'timeseries',
          unit: 'seconds',
          queries: [
            q('model', hq('llm_client_model_latency_seconds', '', FD), { legend: 'Model latency' }),
            q('overhead', hq('llm_client_overhead_latency_seconds', '', FD), { legend: 'Platform overhead' }),
          ],
          width: 12,
          height: 9,
          emptyHint: 'Model and overhead latency come from the gateway (llm_client_*).',
        },
        {
          id: 'phases',
          title: 'Phase timing',
          description: 'Queue, prefill and decode time per request at the selected quantile.',
          viz: 'timeseries',
          unit: 'seconds',
          queries: [
            q('queue', hq('llm_request_queue_time_seconds', ''), { legend: 'Queue' }),
            q('prefill', hq('llm_request_prefill_time_seconds', ''), { legend: 'Prefill' }),
            q('decode', hq('llm_request_decode_time_seconds', ''), { legend: 'Decode' }),
          ],
          width: 12,
          height: 8,
        },
        {
          id: 'errors',
          title: 'Errors',
          description: '4xx, 429 and 5xx answers and errors in the middle of a stream, per second.',
          viz: 'timeseries',
          unit: 'req/s',
          queries: [
            q('e4xx', `sum(rate(llm_client_requests_total{${FD},status_class="4xx"}[$__rate_interval]))`, { legend: '4xx' }),
            q('e429', `sum(rate(llm_client_requests_total{${FD},status_class="429"}[$__rate_interval]))`, { legend: '429' }),
            q('e5xx', `sum(rate(llm_client_requests_total{${FD},status_class="5xx"}[$__rate_interval]))`, { legend: '5xx' }),
            q('mid', `sum(rate(llm_client_mid_stream_errors_total{${FD}}[$__rate_interval]))`, { legend: 'Mid-stream' }),
          ],
          width: 12,
          height: 8,
        },
      ],
    },
    {
      id: 'pressure',
      title: 'Engine and request pressure',
      panels: [
        {
          id: 'kv-usage',
          title: 'KV-cache usage per engine',
          description: 'The busiest replica of each engine. Repeated climbs into the band are the early signal to scale.',
          viz: 'timeseries',
          unit: 'ratio',
          queries: [q('kv', `max by (engine) (llm_kv_cache_usage_ratio{${F}})`, { legend: '{{engine}}' })],
          band: { from: 0.4, to: 0.5, label: 'pressure', variable: 'kv_band' },
          width: 8,
          height: 8,
        },
        {
          id: 'running-waiting',
          title: 'Running and waiting requests',
          description: 'Requests in the batch and requests queued, per engine.',
          viz: 'timeseries',
          unit: 'count',
          queries: [
            q('running', `sum by (engine) (llm_requests_running{${F}})`, { legend: '{{engine}} running' }),
            q('waiting', `sum by (engine) (llm_requests_waiting{${F}})`, { legend: '{{engine}} waiting' }),
          ],
          width: 8,
          height: 8,
        },
        {
          id: 'preemptions',
          title: 'Preemptions',
          description: 'Requests preempted per second (KV cache full), per engine.',
          viz: 'timeseries',
          unit: 'req/s',
          queries: [q('preempt', `sum by (engine) (rate(llm_preemptions_total{${F}}[$__rate_interval]))`, { legend: '{{engine}}' })],
          width: 8,
          height: 8,
        },
      ],
    },
    {
      id: 'traffic',
      title: 'Traffic and instances',
      panels: [
        {
          id: 'az-traffic',
          title: 'Traffic by AZ',
          description: 'Requests per availability zone; an AZ at zero or far from an even share is flagged.',
          viz: 'table',
          unit: 'req/s',
          joinOn: ['az'],
          queries: [
            q('rps', `sum by (az) (rate(llm_requests_finished_total{${F}}[$__rate_interval]))`, { instant: true, title: 'Requests/s' }),
            q('e4xx', `sum by (az) (rate(llm_http_responses_total{${F},status_class="4xx"}[$__rate_interval]))`, { instant: true, title: '4xx/s' }),
            q('e5xx', `sum by (az) (rate(llm_http_responses_total{${F},status_class="5xx"}[$__rate_interval]))`, { instant: true, title: '5xx/s' }),
          ],
          width: 8,
          height: 8,
        },
        {
          id: 'requests-per-az',
          title: 'Requests per AZ',
          description: 'Finished requests per second in each availability zone.',
          viz: 'timeseries',
          unit: 'req/s',
          queries: [q('rps', `sum by (az) (rate(llm_requests_finished_total{${F}}[$__rate_interval]))`, { legend: '{{az}}' })],
          width: 16,
          height: 8,
        },
        {
          id: 'instances',
          title: 'Instances',
          description: 'Per-instance latency, throughput, concurrency and KV usage; statistical outliers are marked.',
          viz: 'table',
          unit: 'none',
          queries: [
            q('ttft_p50', hq('llm_time_to_first_token_seconds', 'instance', F, '0.5'), { instant: true, title: 'TTFT P50', unit: 'seconds' }),
            q('ttft_p99', hq('llm_time_to_first_token_seconds', 'instance', F, '0.99'), { instant: true, title: 'TTFT P99', unit: 'seconds' }),
            q('tps', `sum by (instance) (rate(llm_generation_tokens_total{${F}}[$__rate_interval]))`, { instant: true, title: 'Output TPS', unit: 'tokens/s' }),
            q('running', `sum by (instance) (llm_requests_running{${F}})`, { instant: true, title: 'Concurrency', unit: 'count' }),
            q('kv', `max by (instance) (llm_kv_cache_usage_ratio{${F}})`, { instant: true, title: 'KV usage', unit: 'ratio' }),
          ],
          joinOn: ['instance'],
          width: 24,
          height: 10,
        },
      ],
    },
    {
      id: 'throughput',
      title: 'Throughput and workload',
      panels: [
        {
          id: 'token-throughput',
          title: 'Token throughput',
          description: 'Input and output tokens per second per component, against the benchmark throughput.',
          viz: 'timeseries',
          unit: 'tokens/s',
          queries: [
            q('input', `sum by (component) (rate(llm_prompt_tokens_total{${F}}[$__rate_interval]))`, { legend: '{{component}} input' }),
            q('output', `sum by (component) (rate(llm_generation_tokens_total{${F}}[$__rate_interval]))`, { legend: '{{component}} output' }),
            q('benchmark', `max by (component) (llm_benchmark_output_tokens_per_second{${FD}})`, { legend: '{{component}} benchmark', reference: true }),
            q(
              'efficiency',
              `avg by (component) (llm_benchmark_efficiency_ratio{${FD}})`,
              { legend: '{{component}} efficiency', unit: 'ratio' },
            ),
          ],
          width: 12,
          height: 8,
        },
        {
          id: 'prompt-length',
          title: 'Prompt length',
          description: 'Distribution of prompt lengths over time.',
          viz: 'heatmap',
          unit: 'tokens',
          queries: [q('A', `sum by (le) (increase(llm_request_prompt_tokens_bucket{${F}}[$__rate_interval]))`)],
          width: 6,
          height: 8,
        },
        {
          id: 'output-length',
          title: 'Output length',
          description: 'Distribution of output lengths over time.',
          viz: 'heatmap',
          unit: 'tokens',
          queries: [q('A', `sum by (le) (increase(llm_request_generation_tokens_bucket{${F}}[$__rate_interval]))`)],
          width: 6,
          height: 8,
        },
      ],
    },
  ],
  annotations: [
    {
      id: 'cold-starts',
      title: 'Cold starts',
      expr: `sum by (component) (increase(llm_cold_start_duration_seconds_count{${FD}}[$__interval])) > 0`,
      text: '{{component}} cold start',
      color: '#CC79A7',
    },
    {
      id: 'scaling',
      title: 'Scaling events',
      expr: `sum by (component, direction) (increase(llm_scaling_events_total{${FD}}[$__interval])) > 0`,
      text: '{{component}} scale {{direction}}',
      color: '#56B4E9',
      step: '1m',
    },
  ],
};
