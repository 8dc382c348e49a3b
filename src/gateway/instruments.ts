/**
 * The gateway's instruments, grouped by scope: one `ScopeInstruments` per replica (its identity
 * labels) and one per model pool for requests that never reached a replica (refusals), plus one
 * unlabelled scope for requests that name no known model. Hot instruments are created up front;
 * rare ones (by error class, finish reason, ...) on first use.
 */
import { METRIC, catalogMetric } from '../semconv/index.js';
import { GATEWAY_JOB, DURATION_BUCKETS, ITL_BUCKETS, OVERHEAD_BUCKETS, TOKEN_BUCKETS, TTFT_BUCKETS } from './buckets.js';
import type { Counter, Gauge, Histogram, MetricsRegistry } from './metrics.js';

/**
 * Every catalog metric the gateway writes, by role. Types, labels and help texts are the
 * catalog's; test/gateway/catalog-names.test.ts checks that these are all the catalog metrics
 * whose producer is the gateway, and that a busy gateway writes only catalog labels.
 */
export const GATEWAY_METRICS = {
  ttft: METRIC.LLM_CLIENT_TIME_TO_FIRST_TOKEN_SECONDS,
  itl: METRIC.LLM_CLIENT_INTER_TOKEN_LATENCY_SECONDS,
  duration: METRIC.LLM_CLIENT_REQUEST_DURATION_SECONDS,
  modelLatency: METRIC.LLM_CLIENT_MODEL_LATENCY_SECONDS,
  overhead: METRIC.LLM_CLIENT_OVERHEAD_LATENCY_SECONDS,
  tokens: METRIC.LLM_CLIENT_REQUEST_TOKENS,
  requests: METRIC.LLM_CLIENT_REQUESTS_TOTAL,
  inFlight: METRIC.LLM_CLIENT_REQUESTS_IN_FLIGHT,
  midStreamErrors: METRIC.LLM_CLIENT_MID_STREAM_ERRORS_TOTAL,
  errors: METRIC.LLM_CLIENT_ERRORS_TOTAL,
  finished: METRIC.LLM_CLIENT_REQUESTS_FINISHED_TOTAL,
  routing: METRIC.LLM_GATEWAY_ROUTING_DECISIONS_TOTAL,
  ejections: METRIC.LLM_GATEWAY_REPLICA_EJECTIONS_TOTAL,
  healthy: METRIC.LLM_GATEWAY_REPLICA_HEALTHY,
} as const;
const M = GATEWAY_METRICS;

/** A response's status class as the catalog spells it. */
export type StatusClass = '2xx' | '4xx' | '429' | '5xx';

/** The status class of an HTTP status (1xx/3xx count as 2xx: they are not failures). */
export function statusClass(status: number): StatusClass {
  if (status === 429) return '429';
  if (status >= 500) return '5xx';
  if (status >= 400) return '4xx';
  return '2xx';
}

/** Latency histograms of one path (streaming or not) of one scope. */
export interface LatencyInstruments {
  /** Time to first content chunk and inter-chunk gaps: streaming only (null on the other path). */
  readonly ttft: Histogram | null;
  readonly itl: Histogram | null;
  readonly duration: Histogram;
  readonly modelLatency: Histogram;
  readonly overhead: Histogram;
}

/** Every series of one scope (a replica, a model pool, or the gateway as a whole). */
export class ScopeInstruments {
  /** Requests by status class: [non-streaming, streaming]. Created up front, so a rate of 0 reads as 0. */
  readonly requests: readonly [Readonly<Record<StatusClass, Counter>>, Readonly<Record<StatusClass, Counter>>];
  /** Requests in flight (replica scopes only). */
  readonly inFlight: Gauge | null;
  private readonly latencies: [LatencyInstruments | null, LatencyInstruments | null] = [null, null];
  private readonly lazy = new Map<string, Counter | Histogram>();
  /** The scope's labels, `job` included. */
  readonly labels: Readonly<Record<string, string>>;

  /** `labels`: the scope's identity labels (`job` is added); `replica`: whether it is a replica's scope. */
  constructor(
    private readonly reg: MetricsRegistry,
    labels: Readonly<Record<string, string>>,
    replica: boolean,
  ) {
    this.labels = { ...labels, job: GATEWAY_JOB };
    const path = (stream: string): Record<StatusClass, Counter> => {
      const req = (status_class: StatusClass): Counter => reg.counter(M.requests, { ...this.labels, stream, status_class });
      return { '2xx': req('2xx'), '4xx': req('4xx'), '429': req('429'), '5xx': req('5xx') };
    };
    this.requests = [path('false'), path('true')];
    this.inFlight = replica ? reg.gauge(M.inFlight, this.labels) : null;
  }

  /** The latency histograms of the streaming (`true`) or non-streaming path, created on first use. */
  latency(stream: boolean): LatencyInstruments {
    const i = stream ? 1 : 0;
    let p = this.latencies[i];
    if (p === null) {
      const l = { ...this.labels, stream: String(stream) };
      p = {
        ttft: stream ? this.reg.histogram(M.ttft, TTFT_BUCKETS, l) : null,
        itl: stream ? this.reg.histogram(M.itl, ITL_BUCKETS, l) : null,
        duration: this.reg.histogram(M.duration, DURATION_BUCKETS, l),
        modelLatency: this.reg.histogram(M.modelLatency, DURATION_BUCKETS, l),
        overhead: this.reg.histogram(M.overhead, OVERHEAD_BUCKETS, l),
      };
      this.latencies[i] = p;
    }
    return p;
  }

  private counter(name: string, extra: Readonly<Record<string, string>>): Counter {
    const key = `${name}${JSON.stringify(extra)}`;
    let c = this.lazy.get(key) as Counter | undefined;
    if (c === undefined) {
      c = this.reg.counter(name, { ...this.labels, ...extra });
      this.lazy.set(key, c);
    }
    return c;
  }

  /** `llm_client_errors_total{error_class}`. */
  error(errorClass: string): Counter {
    return this.counter(M.errors, { error_class: errorClass });
  }

  /** `llm_client_mid_stream_errors_total{error_class}`. */
  midStreamError(errorClass: string): Counter {
    return this.counter(M.midStreamErrors, { error_class: errorClass });
  }

  /** `llm_client_requests_finished_total{finish_reason}`. */
  finished(reason: string): Counter {
    return this.counter(M.finished, { finish_reason: reason });
  }

  /** `llm_gateway_routing_decisions_total{decision,attempt}`. */
  routing(decision: string, attempt: 'first' | 'retry'): Counter {
    return this.counter(M.routing, { decision, attempt });
  }

  /** `llm_gateway_replica_ejections_total{reason}`. */
  ejection(reason: string): Counter {
    return this.counter(M.ejections, { reason });
  }

  /** `llm_client_request_tokens{token_type,usage}`. */
  tokens(tokenType: 'input' | 'output', usage: 'reported' | 'estimated'): Histogram {
    const key = `tokens ${tokenType} ${usage}`;
    let h = this.lazy.get(key) as Histogram | undefined;
    if (h === undefined) {
      h = this.reg.histogram(M.tokens, TOKEN_BUCKETS, { ...this.labels, token_type: tokenType, usage });
      this.lazy.set(key, h);
    }
    return h;
  }

  /** `llm_gateway_replica_healthy` (replica scopes only). */
  healthy(): Gauge {
    return this.reg.gauge(M.healthy, this.labels);
  }
}

/** Registers the help texts of every gateway metric: the catalog's. */
export function describeGatewayMetrics(reg: MetricsRegistry): void {
  for (const name of Object.values(M)) reg.describe(name, catalogMetric(name)?.help ?? name);
}
