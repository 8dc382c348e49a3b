/**
 * The gateway's instruments, grouped by scope: one `ScopeInstruments` per replica (its identity
 * labels) and one per model pool for requests that never reached a replica (refusals), plus one
 * unlabelled scope for requests that name no known model. Hot instruments are created up front;
 * rare ones (by error class, finish reason, ...) on first use.
 */
import { GATEWAY_JOB, GATEWAY_METRICS as M, DURATION_BUCKETS, ITL_BUCKETS, OVERHEAD_BUCKETS, TOKEN_BUCKETS, TTFT_BUCKETS } from './metric-names.js';
import type { Counter, Gauge, Histogram, MetricsRegistry } from './metrics.js';

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
      const req = (status_class: StatusClass): Counter => reg.counter(M.requests.name, { ...this.labels, stream, status_class });
      return { '2xx': req('2xx'), '4xx': req('4xx'), '429': req('429'), '5xx': req('5xx') };
    };
    this.requests = [path('false'), path('true')];
    this.inFlight = replica ? reg.gauge(M.inFlight.name, this.labels) : null;
  }

  /** The latency histograms of the streaming (`true`) or non-streaming path, created on first use. */
  latency(stream: boolean): LatencyInstruments {
    const i = stream ? 1 : 0;
    let p = this.latencies[i];
    if (p === null) {
      const l = { ...this.labels, stream: String(stream) };
      p = {
        ttft: stream ? this.reg.histogram(M.ttft.name, TTFT_BUCKETS, l) : null,
        itl: stream ? this.reg.histogram(M.itl.name, ITL_BUCKETS, l) : null,
        duration: this.reg.histogram(M.duration.name, DURATION_BUCKETS, l),
        modelLatency: this.reg.histogram(M.modelLatency.name, DURATION_BUCKETS, l),
        overhead: this.reg.histogram(M.overhead.name, OVERHEAD_BUCKETS, l),
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
    return this.counter(M.errors.name, { error_class: errorClass });
  }

  /** `llm_client_mid_stream_errors_total{error_class}`. */
  midStreamError(errorClass: string): Counter {
    return this.counter(M.midStreamErrors.name, { error_class: errorClass });
  }

  /** `llm_client_requests_finished_total{finish_reason}`. */
  finished(reason: string): Counter {
    return this.counter(M.finished.name, { finish_reason: reason });
  }

  /** `llm_gateway_routing_decisions_total{decision,attempt}`. */
  routing(decision: string, attempt: 'first' | 'retry'): Counter {
    return this.counter(M.routing.name, { decision, attempt });
  }

  /** `llm_gateway_replica_ejections_total{reason}`. */
  ejection(reason: string): Counter {
    return this.counter(M.ejections.name, { reason });
  }

  /** `llm_client_request_tokens{token_type,usage}`. */
  tokens(tokenType: 'input' | 'output', usage: 'reported' | 'estimated'): Histogram {
    const key = `tokens ${tokenType} ${usage}`;
    let h = this.lazy.get(key) as Histogram | undefined;
    if (h === undefined) {
      h = this.reg.histogram(M.tokens.name, TOKEN_BUCKETS, { ...this.labels, token_type: tokenType, usage });
      this.lazy.set(key, h);
    }
    return h;
  }

  /** `llm_gateway_replica_healthy` (replica scopes only). */
  healthy(): Gauge {
    return this.reg.gauge(M.healthy.name, this.labels);
  }
}

/** Registers the help texts of every gateway metric. */
export function describeGatewayMetrics(reg: MetricsRegistry): void {
  for (const d of Object.values(M)) reg.describe(d.name, d.help);
}
