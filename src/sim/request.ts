/**
 * One simulated request as it moves through front door, router and engine. Times are virtual
 * milliseconds (fractions allowed inside the engine model; public timestamps are rounded).
 */

/** How a request ended. */
export type RequestOutcome =
  | { readonly kind: 'finished'; readonly reason: 'stop' | 'length' }
  /** Failed after streaming had begun (status 200 already sent): an engine failure mid-stream. */
  | { readonly kind: 'aborted'; readonly message: string }
  /** Refused before any token: 400 (prompt too long), 429 (limits), 500/503 (engine failure). */
  | { readonly kind: 'rejected'; readonly status: 400 | 429 | 500 | 503; readonly message: string };

/** Receives a request's tokens as the engine produces them (the OpenAI-compatible handlers). */
export interface RequestListener {
  /** `count` tokens were produced, the first at `firstMs`, then one every `intervalMs`. */
  onTokens(count: number, firstMs: number, intervalMs: number): void;
  /** The request ended at `tMs` (virtual). */
  onEnd(outcome: RequestOutcome, tMs: number): void;
}

/** Told about a request's first token and end (the front door: in-flight count, client-side latency). */
export interface RequestObserver {
  firstToken(r: SimRequest, tMs: number): void;
  end(r: SimRequest, outcome: RequestOutcome, tMs: number): void;
}

/** A request: what was asked, and the engine's progress on it. */
export class SimRequest {
  /** Where the engine's prefill must reach before decoding (prompt, plus generated tokens after a preemption). */
  prefillTarget: number;
  /** Tokens prefilled so far, tokens whose KV is held, tokens generated, KV blocks held. */
  prefilled = 0;
  ctx = 0;
  generated = 0;
  blocks = 0;
  preemptions = 0;
  /** Virtual times (ms); -1 until they happen. */
  scheduledMs = -1;
  firstTokenMs = -1;
  /** Set by the engine when the request joins a replica (for the front door). */
  replicaId = '';
  observer: RequestObserver | undefined;
  listener: RequestListener | undefined;

  /** Creates a request; `abortAfterTokens` > 0 makes the engine fail it mid-stream after that many tokens. */
  constructor(
    readonly id: number,
    readonly arrivalMs: number,
    readonly promptTokens: number,
    /** Leading prompt tokens found in the prefix cache. */
    readonly cachedTokens: number,
    /** Tokens the model will produce before it stops (at most `maxTokens`). */
    readonly outputTokens: number,
    readonly maxTokens: number,
    public abortAfterTokens = 0,
  ) {
    this.prefillTarget = promptTokens;
  }
}
