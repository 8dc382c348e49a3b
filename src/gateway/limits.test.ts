import { describe, expect, it } from 'vitest';
import { ModelLimits } from './limits.js';

describe('ModelLimits', () => {
  it('refuses past the concurrency limit until a request ends', () => {
    const l = new ModelLimits(2, 0, () => 0);
    expect(l.tryAcquire(10).ok).toBe(true);
    expect(l.tryAcquire(10).ok).toBe(true);
    expect(l.tryAcquire(10)).toEqual({ ok: false, reason: 'concurrency', retryAfterMs: 1000 });
    l.release(0, 5);
    expect(l.tryAcquire(10).ok).toBe(true);
  });

  it('meters tokens with a bucket that refills continuously, says when the request would fit, and settles on real usage', () => {
    let now = 0;
    const l = new ModelLimits(0, 600, () => now); // 10 tokens per second
    const a = l.tryAcquire(500);
    expect(a).toEqual({ ok: true, reservedTokens: 500 });
    expect(l.tryAcquire(200)).toEqual({ ok: false, reason: 'tokens', retryAfterMs: 10_000 });
    now = 10_000;
    expect(l.available()).toBe(200);
    // The first request used only 150 tokens: 350 come back.
    l.release(500, 150);
    expect(l.available()).toBe(550);
    // A request larger than the whole bucket is admitted when the bucket is full, and runs a debt.
    now = 100_000;
    expect(l.tryAcquire(5000).ok).toBe(true);
    expect(l.available()).toBe(-4400);
    // A failed request (no usage) returns its whole reservation.
    l.release(5000, null);
    expect(l.available()).toBe(600);
  });

  it('a reload keeps the level, capped at the new size', () => {
    const l = new ModelLimits(0, 1000, () => 0);
    l.tryAcquire(100);
    l.configure(0, 500);
    expect(l.available()).toBe(500);
    l.configure(3, 0);
    expect(l.tryAcquire(1e9).ok).toBe(true);
  });
});
