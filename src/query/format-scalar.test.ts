import { describe, expect, it } from 'vitest';
import { formatScalarValue } from './format.js';

describe("formatScalarValue (Go FormatFloat(v, 'f', -1, 64))", () => {
  it.each([
    [0, '0'],
    [-0, '-0'],
    [1.5, '1.5'],
    [1e21, '1000000000000000000000'],
    [1.5e-7, '0.00000015'],
    [-123.456, '-123.456'],
    [0x1f, '31'],
    [Infinity, '+Inf'],
    [-Infinity, '-Inf'],
    [NaN, 'NaN'],
  ])('%d → %s', (v, want) => {
    expect(formatScalarValue(v)).toBe(want);
  });
});
