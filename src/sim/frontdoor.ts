/**
 * The front door of one component (what a SageMaker endpoint or an API gateway sees): requests by
 * status class, 429s from its limits, mid-stream failures, requests in flight, and client-side
 * latency (engine latency plus a platform overhead). Exposed with the catalog's `llm_client_*` names,
 * as Infersight's own gateway would write them.
 *
 * Like the gateway, it measures each request under the replica it routed the request to (a
 * `FrontDoorRoute` per replica, whose series carry that replica's identity), and counts the
 * requests it refused before routing (its limits, or no ready replica) under the component alone.
 */
import { OVERHEAD_LATENCY, VLLM_REQUEST_LATENCY, VLLM_TTFT } from './buckets.js';
import { Histogram } from './histogram.js';
import type { LatencyTruth } from './latency-truth.js';
import type { Replica } from './replica.js';
import type { RequestObserver, RequestOutcome, SimRequest } from './request.js';

/** Requests by status class, streams broken after their first chunk, and requests in flight. */
class StatusCounts {
  requests2xx = 0;
  requests4xx = 0;
  requests429 = 0;
  requests5xx = 0;
  midStreamErrors = 0;
  inFlight = 0;
}

/** Counts one finished request into `c` by its outcome. */
function countEnd(c: StatusCounts, outcome: RequestOutcome): void {
  c.inFlight--;
  if (outcome.kind === 'finished') c.requests2xx++;
  else if (outcome.kind === 'aborted') {
    c.requests2xx++;
    c.midStreamErrors++;
  } else if (outcome.status === 400) c.requests4xx++;
  else if (outcome.status === 429) c.requests429++;
  else c.requests5xx++;
}

/** What the front door measured for the requests it routed to one replica. */
export class FrontDoorRoute extends StatusCounts implements RequestObserver {
  readonly ttft = new Histogram(VLLM_TTFT);
  readonly duration = new Histogram(VLLM_REQUEST_LATENCY);
  readonly overhead = new Histogram(OVERHEAD_LATENCY);

  /** The route to `replica` of `door`. */
  constructor(
    readonly replica: Replica,
    private readonly door: FrontDoor,
  ) {
    super();
  }

  /** Implements `RequestObserver`. */
  firstToken(r: SimRequest, tMs: number): void {
    const s = (tMs - r.arrivalMs) / 1000 + this.door.overheadS;
    this.ttft.observe(s);
    this.door.ttft.observe(s);
    this.door.truth?.record('client_ttft', tMs, s, 1, '');
  }

  /** Implements `RequestObserver`. */
  end(r: SimRequest, outcome: RequestOutcome, tMs: number): void {
    const s = (tMs - r.arrivalMs) / 1000 + this.door.overheadS;
    this.overhead.observe(this.door.overheadS);
    this.duration.observe(s);
    this.door.truth?.record('client_e2e', tMs, s, 1, '');
    countEnd(this, outcome);
    this.door.ended(outcome);
  }
}

/**
 * The front door of one component: its routes (one per replica it has sent requests to), its
 * refusals, and totals over both since the start (the router's concurrency limit and the quality
 * sampler read the totals; a retired route's counts stay in them).
 */
export class FrontDoor extends StatusCounts {
  /** Requests refused before routing: by the limits (429), or because no replica was ready (503). */
  refused429 = 0;
  refused503 = 0;
  /** Client-side time to first token over every route. */
  readonly ttft = new Histogram(VLLM_TTFT);
  /** Bumped when a route is added or retired (the exposition is rebuilt). */
  version = 0;
  private readonly byReplica = new Map<Replica, FrontDoorRoute>();
  /** Requests that finished successfully since the last `takeCompleted` (quality sampling). */
  private completed = 0;

  /** `overheadS`: the platform's own latency on top of the engine's (routing, auth, network); `truth` gets every latency observed. */
  constructor(
    readonly overheadS: number,
    readonly truth?: LatencyTruth,
  ) {
    super();
  }

  /** The routes, in the order they were first used. */
  routes(): FrontDoorRoute[] {
    return [...this.byReplica.values()];
  }

  /** A request passed the limits and was routed to `to`. */
  admitted(r: SimRequest, to: Replica): void {
    let route = this.byReplica.get(to);
    if (route === undefined) {
      route = new FrontDoorRoute(to, this);
      this.byReplica.set(to, route);
      this.version++;
    }
    route.inFlight++;
    this.inFlight++;
    r.observer = route;
  }

  /** A request was refused by the limits (429) or found no ready replica (503). */
  refused(status: 429 | 503): void {
    if (status === 429) {
      this.requests429++;
      this.refused429++;
    } else {
      this.requests5xx++;
      this.refused503++;
    }
  }

  /** A routed request ended (called by its route). */
  ended(outcome: RequestOutcome): void {
    countEnd(this, outcome);
    if (outcome.kind === 'finished') this.completed++;
  }

  /** Drops the route of a stopped replica (its series leave the exposition and go stale). */
  retire(replica: Replica): void {
    if (this.byReplica.delete(replica)) this.version++;
  }

  /** Successful completions since the last call. */
  takeCompleted(): number {
    const n = this.completed;
    this.completed = 0;
    return n;
  }
}
