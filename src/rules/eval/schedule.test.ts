import { describe, expect, test } from 'vitest';
import { evalTimestampMs, groupOffsetNs } from './schedule.js';
import { xxhash64String } from './xxhash64.js';

describe('xxhash64', () => {
  // Reference values of xxHash64 with seed 0 (the algorithm's published test vectors).
  test.each([
    ['', 'ef46db3751d8e999'],
    ['a', 'd24ec4f1a98c6e5b'],
    ['abc', '44bc2cf5ad770999'],
    ['Nobody inspects the spammish repetition', 'fbcea83c8a378bf1'],
  ])('%j', (input, want) => {
    expect(xxhash64String(input).toString(16)).toBe(want);
  });
});

describe('evaluation timestamps', () => {
  const interval = 60_000;
  test.each([
    ['rules.yml', 'a'],
    ['rules.yml', 'b'],
    ['/etc/prometheus/rules/llm.yml', 'kv-cache'],
  ])('%s / %s: every tick is k × interval + the group offset', (file, name) => {
    const offsetMs = Number(groupOffsetNs(file, name, interval) / 1_000_000n);
    const now = Date.UTC(2025, 0, 6, 9, 0, 30, 123);
    const t = evalTimestampMs(file, name, interval, now);
    expect(t).toBeLessThanOrEqual(now);
    expect(now - t).toBeLessThan(interval);
    expect(((t % interval) + interval) % interval).toBe(offsetMs);
    // A time exactly on a tick is that tick.
    expect(evalTimestampMs(file, name, interval, t + 1)).toBe(t);
    expect(evalTimestampMs(file, name, interval, t + interval + 1)).toBe(t + interval);
  });

  test('groups of one file get different offsets', () => {
    const offsets = new Set(['a', 'b', 'c', 'd'].map((n) => groupOffsetNs('rules.yml', n, 60_000)));
    expect(offsets.size).toBe(4);
  });
});
