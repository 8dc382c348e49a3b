/**
 * The catalog metrics the gateway writes: names, types and the labels each carries besides the
 * identity labels (`job`, `model`, `endpoint`, `component`, `replica`, `instance`,
 * `instance_type`, `az`, `engine`). The gateway may not import src/semconv, so the names are
 * written here; test/gateway/catalog-names.test.ts checks every entry against the catalog.
 */

/** One metric the gateway writes. */
export interface GatewayMetricDef {
  readonly name: string;
  readonly type: 'counter' | 'gauge' | 'histogram';
  /** Labels beyond the identity labels (`le` of histograms not counted). */
  readonly labels: readonly string[];
  readonly help: string;
}

/** The `job` label of every series the gateway writes. */
export const GATEWAY_JOB = 'gateway';

/** Every metric the gateway writes, by role. */
export const GATEWAY_METRICS = {
  ttft: { name: 'llm_client_time_to_first_token_seconds', type: 'histogram', labels: ['stream'], help: 'Client-side time to the first streamed content chunk.' },
  itl: { name: 'llm_client_inter_token_latency_seconds', type: 'histogram', labels: ['stream'], help: 'Client-side time between streamed content chunks.' },
  duration: { name: 'llm_client_request_duration_seconds', type: 'histogram', labels: ['stream'], help: 'Client-side end-to-end request duration.' },
  modelLatency: { name: 'llm_client_model_latency_seconds', type: 'histogram', labels: ['stream'], help: 'Time the upstream model server took to answer.' },
  overhead: { name: 'llm_client_overhead_latency_seconds', type: 'histogram', labels: ['stream'], help: 'Gateway overhead: end-to-end duration minus model latency.' },
  tokens: { name: 'llm_client_request_tokens', type: 'histogram', labels: ['token_type', 'usage'], help: 'Tokens per request by token type; usage says whether the upstream reported them or the gateway estimated them.' },
  requests: { name: 'llm_client_requests_total', type: 'counter', labels: ['status_class', 'stream'], help: 'Requests by status class (2xx, 4xx, 429, 5xx).' },
  inFlight: { name: 'llm_client_requests_in_flight', type: 'gauge', labels: [], help: 'Requests in flight to a replica.' },
  midStreamErrors: { name: 'llm_client_mid_stream_errors_total', type: 'counter', labels: ['error_class'], help: 'Streams that failed after the first chunk was sent.' },
  errors: { name: 'llm_client_errors_total', type: 'counter', labels: ['error_class'], help: 'Attempts that failed without an upstream HTTP status.' },
  finished: { name: 'llm_client_requests_finished_total', type: 'counter', labels: ['finish_reason'], help: 'Completed choices by finish reason.' },
  routing: { name: 'llm_gateway_routing_decisions_total', type: 'counter', labels: ['decision', 'attempt'], help: 'Replica choices by locality and attempt.' },
  ejections: { name: 'llm_gateway_replica_ejections_total', type: 'counter', labels: ['reason'], help: 'Replicas taken out of rotation, by reason.' },
  healthy: { name: 'llm_gateway_replica_healthy', type: 'gauge', labels: [], help: '1 while a replica receives traffic, else 0.' },
} as const satisfies Readonly<Record<string, GatewayMetricDef>>;

/** Time to first token: engines' TTFT layout with finer steps below 100 ms. */
export const TTFT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 3, 5, 7.5, 10, 20, 40, 80];
/** Inter-chunk latency. */
export const ITL_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.015, 0.02, 0.025, 0.03, 0.04, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1, 2.5, 5];
/** End-to-end and model latency. */
export const DURATION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 5, 7.5, 10, 15, 20, 30, 45, 60, 120, 300, 600];
/** Gateway overhead: sub-millisecond resolution. */
export const OVERHEAD_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];
/** Prompt and completion tokens per request. */
export const TOKEN_BUCKETS = [1, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072];
