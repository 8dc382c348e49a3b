import { describe, expect, test } from 'vitest';
import { formatOpenMetricsFloat } from './go-format.js';

// Expected strings are what Prometheus' labels.FormatOpenMetricsFloat prints for the same values.
describe('formatOpenMetricsFloat', () => {
  test.each([
    [0, '0.0'],
    [1, '1.0'],
    [-1, '-1.0'],
    [0.5, '0.5'],
    [100, '100.0'],
    [1e6, '1e+06'],
    [NaN, 'NaN'],
    [Infinity, '+Inf'],
    [-Infinity, '-Inf'],
  ])('%s → %s', (x, want) => {
    expect(formatOpenMetricsFloat(x)).toBe(want);
  });
});
