/**
 * The front door of one component (what a SageMaker endpoint or an API gateway sees): requests by
 * status class, 429s from its limits, mid-stream failures, requests in flight, and client-side
 * latency (engine latency plus a platform overhead). Exposed with the catalog's `llm_client_*` names,
 * as Infersight's own gateway would write them.
 */
import { OVERHEAD_LATENCY, VLLM_REQUEST_LATENCY, VLLM_TTFT } from './buckets.js';
import { Histogram } from './histogram.js';
import type { LatencyTruth } from './latency-truth.js';
import type { RequestObserver, RequestOutcome, SimRequest } from './request.js';

/** Counts of the front door of one component. */
export class FrontDoor implements RequestObserver {
  requests2xx = 0;
  requests4xx = 0;
  requests429 = 0;
  requests5xx = 0;
  midStreamErrors = 0;
  inFlight = 0;
  /** Requests that finished successfully since the last `takeCompleted` (quality sampling). */
  private completed = 0;
  readonly ttft = new Histogram(VLLM_TTFT);
  readonly duration = new Histogram(VLLM_REQUEST_LATENCY);
  readonly overhead = new Histogram(OVERHEAD_LATENCY);

  /** `overheadS`: the platform's own latency on top of the engine's (routing, auth, network); `truth` gets every latency observed. */
  constructor(
    readonly overheadS: number,
    private readonly truth?: LatencyTruth,
  ) {}

  /** A request passed the limits and was routed. */
  admitted(r: SimRequest): void {
    this.inFlight++;
    r.observer = this;
  }

  /** A request was refused by the limits (429) or found no ready replica (503). */
  refused(status: 429 | 503): void {
    if (status === 429) this.requests429++;
    else this.requests5xx++;
  }

  /** Implements `RequestObserver`. */
  firstToken(r: SimRequest, tMs: number): void {
    const ttftS = (tMs - r.arrivalMs) / 1000 + this.overheadS;
    this.ttft.observe(ttftS);
    this.truth?.record('client_ttft', tMs, ttftS, 1, '');
  }

  /** Implements `RequestObserver`. */
  end(r: SimRequest, outcome: RequestOutcome, tMs: number): void {
    this.inFlight--;
    this.overhead.observe(this.overheadS);
    const durationS = (tMs - r.arrivalMs) / 1000 + this.overheadS;
    this.duration.observe(durationS);
    this.truth?.record('client_e2e', tMs, durationS, 1, '');
    if (outcome.kind === 'finished') {
      this.requests2xx++;
      this.completed++;
    } else if (outcome.kind === 'aborted') {
      this.requests2xx++;
      this.midStreamErrors++;
    } else if (outcome.status === 400) this.requests4xx++;
    else if (outcome.status === 429) this.requests429++;
    else this.requests5xx++;
  }

  /** Successful completions since the last call. */
  takeCompleted(): number {
    const n = this.completed;
    this.completed = 0;
    return n;
  }
}
