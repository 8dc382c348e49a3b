import { describe, expect, test } from 'vitest';
import { formatGoFixed6, formatGoFloatE, formatGoFloatF, formatGoFloatG, goRound, parseGoFloat } from './go-number.js';

// Expected strings are what Go's fmt and strconv print for the same values.
describe("formatGoFloatG (%g, %v, FormatFloat(v, 'g', -1, 64))", () => {
  test.each([
    [0, '0'],
    [-0, '-0'],
    [1, '1'],
    [-0.1, '-0.1'],
    [0.1, '0.1'],
    [1.5, '1.5'],
    [-2.5, '-2.5'],
    [123456, '123456'],
    [1234567, '1.234567e+06'],
    [1e6, '1e+06'],
    [1e21, '1e+21'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [1.5e-7, '1.5e-07'],
    [5e-324, '5e-324'],
    [1.7976931348623157e308, '1.7976931348623157e+308'],
    [NaN, 'NaN'],
    [Infinity, '+Inf'],
    [-Infinity, '-Inf'],
  ])('%s → %s', (x, want) => {
    expect(formatGoFloatG(x)).toBe(want);
  });
});

describe("formatGoFloatF (FormatFloat(v, 'f', -1, 64))", () => {
  test.each([
    [0, '0'],
    [-0, '-0'],
    [1, '1'],
    [1.5, '1.5'],
    [-2.5, '-2.5'],
    [0.005, '0.005'],
    [-123.456, '-123.456'],
    [0x1f, '31'],
    [123456789.125, '123456789.125'],
    [1e21, '1000000000000000000000'],
    [1.5e22, '15000000000000000000000'],
    [2.5e25, '25000000000000000000000000'],
    [1e-7, '0.0000001'],
    [-1e-7, '-0.0000001'],
    [1.5e-7, '0.00000015'],
    [-2.5e-7, '-0.00000025'],
    [1.25e-8, '0.0000000125'],
    [NaN, 'NaN'],
    [Infinity, '+Inf'],
    [-Infinity, '-Inf'],
  ])('%s → %s', (x, want) => {
    expect(formatGoFloatF(x)).toBe(want);
  });
});

describe('formatGoFixed6 (%f)', () => {
  test.each([
    [1, '1.000000'],
    [0.1234567, '0.123457'],
    [-2.5, '-2.500000'],
    [1e21, '1000000000000000000000.000000'],
    [NaN, 'NaN'],
    [Infinity, '+Inf'],
    [-Infinity, '-Inf'],
  ])('%s → %s', (x, want) => {
    expect(formatGoFixed6(x)).toBe(want);
  });
});

describe('goRound (math.Round)', () => {
  test.each([
    [0.5, 1],
    [-0.5, -1],
    [2.5, 3],
    [-2.5, -3],
    [1.4, 1],
  ])('%s → %s', (x, want) => {
    expect(goRound(x)).toBe(want);
  });
});

describe('parseGoFloat (strconv.ParseFloat)', () => {
  test.each([
    ['0.1', 0.1],
    ['.2', 0.2],
    ['2.', 2],
    ['1e0', 1],
    ['2.0e-1', 0.2],
    ['-0.1', -0.1],
    ['+Inf', Infinity],
    ['+inf', Infinity],
    ['-Infinity', -Infinity],
    ['inf', Infinity],
    ['NaN', NaN],
    ['nan', NaN],
    ['1_000', 1000],
    ['0x1p-2', 0.25],
    ['0x1.8p1', 3],
    ['-0X_1P+4', -16],
    ['1e-400', 0],
  ])('%j → %s', (s, want) => {
    expect(parseGoFloat(s)).toBe(want);
  });

  test.each(['', ' 1', '1 ', 'abc', 'Hello World', '1e400', '-1e400', '+nan', 'infx', 'infin', '0x10', '0b11', '1__0', '_1', '1_', '1._5', '.', 'e5', '1e', '--1', '0x'])(
    '%j is a syntax or range error',
    (s) => {
      expect(parseGoFloat(s)).toBeUndefined();
    },
  );
});

describe("formatGoFloatE (FormatFloat(v, 'e', -1, 64): Prometheus 2.42's alert values)", () => {
  test.each([
    [1, '1e+00'],
    [0, '0e+00'],
    [123.5, '1.235e+02'],
    [1e-7, '1e-07'],
    [1.5e300, '1.5e+300'],
    [-2, '-2e+00'],
    [NaN, 'NaN'],
    [Infinity, '+Inf'],
  ])('%d', (v, want) => {
    expect(formatGoFloatE(v)).toBe(want);
  });

});
