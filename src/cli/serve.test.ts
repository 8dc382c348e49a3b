import { describe, expect, it } from 'vitest';
import { UsageError } from './args.js';
import { engineOptionsFromFlags } from './serve.js';

describe('engineOptionsFromFlags', () => {
  it('maps the query flags and Prometheus feature names onto engine options', () => {
    expect(
      engineOptionsFromFlags({
        'query.timeout': '30s',
        'query.max-samples': '1000',
        'query.max-concurrency': '4',
        'query.lookback-delta': '1m',
        'enable-feature': ['promql-experimental-functions,promql-duration-expr', 'promql-delayed-name-removal'],
      }),
    ).toEqual({
      timeoutMs: 30_000,
      maxSamples: 1000,
      maxConcurrent: 4,
      lookbackDeltaMs: 60_000,
      enableExperimentalFunctions: true,
      enableDurationExpressions: true,
      enableDelayedNameRemoval: true,
    });
  });

  it('leaves defaults to the engine when no flag is given', () => {
    expect(engineOptionsFromFlags({})).toEqual({});
  });

  it.each([
    [{ 'enable-feature': ['native-histograms'] }, /unknown --enable-feature "native-histograms"/],
    [{ 'query.max-samples': '-1' }, /invalid --query.max-samples/],
    [{ 'query.max-concurrency': '1.5' }, /invalid --query.max-concurrency/],
    [{ 'query.timeout': 'soon' }, /query.timeout/],
  ])('rejects %j', (flags, message) => {
    expect(() => engineOptionsFromFlags(flags)).toThrow(UsageError);
    expect(() => engineOptionsFromFlags(flags)).toThrow(message);
  });
});
