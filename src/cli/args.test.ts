import { describe, expect, it } from 'vitest';
import { UsageError, parseDurationFlag } from './args.js';

describe('parseDurationFlag', () => {
  it.each<[string, number]>([
    ['15d', 15 * 86_400_000],
    ['1h30m', 5_400_000],
    ['500ms', 500],
    ['0s', 0],
  ])('--retention %s is %d ms', (text, ms) => {
    expect(parseDurationFlag('retention', text)).toBe(ms);
  });

  // Prometheus refuses units out of order or repeated (`model.ParseDuration`); so does the CLI.
  it.each(['1s1h', '30m1h', '1h1h', '1.5h', '15', 'forever', ''])('refuses %j with a UsageError naming the flag', (text) => {
    expect(() => parseDurationFlag('retention', text)).toThrow(
      new UsageError(`invalid duration for --retention: ${JSON.stringify(text)} (examples: 15d, 12h, 30m)`),
    );
  });
});
