/**
 * Per-model admission: a concurrency limit (requests in flight) and a token-rate limit (a token
 * bucket over prompt plus completion tokens per minute, refilled continuously). A request reserves
 * its prompt estimate plus its `max_tokens` when admitted; when it ends, the reservation is
 * settled against the tokens it actually used, so the bucket tracks real usage. A refusal carries
 * how long until the same request would fit (`Retry-After`).
 */
import type { DurationMs, UnixMs } from '../model/index.js';

/** An admission decision. */
export type Admission =
  | { readonly ok: true; readonly reservedTokens: number }
  | { readonly ok: false; readonly reason: 'concurrency' | 'tokens'; readonly retryAfterMs: DurationMs };

/** The limits of one model. */
export class ModelLimits {
  inFlight = 0;
  private tokens = 0;
  private lastMs: UnixMs;

  /** `maxConcurrency` and `tokensPerMinute` of 0 mean no limit. */
  constructor(
    private maxConcurrency: number,
    private tokensPerMinute: number,
    private readonly now: () => UnixMs,
  ) {
    this.lastMs = now();
    this.tokens = tokensPerMinute;
  }

  /** Changes the limits (a reload); the bucket keeps its level, capped at the new size. */
  configure(maxConcurrency: number, tokensPerMinute: number): void {
    this.refill();
    this.maxConcurrency = maxConcurrency;
    if (tokensPerMinute === this.tokensPerMinute) return;
    this.tokens = this.tokensPerMinute === 0 ? tokensPerMinute : Math.min(this.tokens, tokensPerMinute);
    this.tokensPerMinute = tokensPerMinute;
  }

  private refill(): void {
    const t = this.now();
    if (this.tokensPerMinute > 0 && t > this.lastMs) this.tokens = Math.min(this.tokensPerMinute, this.tokens + ((t - this.lastMs) * this.tokensPerMinute) / 60_000);
    this.lastMs = Math.max(this.lastMs, t);
  }

  /** Tokens available now (tests, status). */
  available(): number {
    this.refill();
    return this.tokens;
  }

  /**
   * Admits a request that may use up to `costTokens`. The bucket must hold the cost (or be full,
   * for a request larger than the whole bucket); it may then go negative.
   */
  tryAcquire(costTokens: number): Admission {
    if (this.maxConcurrency > 0 && this.inFlight >= this.maxConcurrency) return { ok: false, reason: 'concurrency', retryAfterMs: 1000 };
    let reserved = 0;
    if (this.tokensPerMinute > 0) {
      this.refill();
      const need = Math.min(costTokens, this.tokensPerMinute);
      if (this.tokens < need) return { ok: false, reason: 'tokens', retryAfterMs: Math.ceil(((need - this.tokens) * 60_000) / this.tokensPerMinute) };
      this.tokens -= costTokens;
      reserved = costTokens;
    }
    this.inFlight++;
    return { ok: true, reservedTokens: reserved };
  }

  /** Ends an admitted request: returns its reservation minus `usedTokens` (all of it when null). */
  release(reservedTokens: number, usedTokens: number | null): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (this.tokensPerMinute > 0 && reservedTokens > 0) {
      this.refill();
      this.tokens = Math.min(this.tokensPerMinute, this.tokens + reservedTokens - (usedTokens ?? 0));
    }
  }
}
