import { describe, expect, it } from 'vitest';
import { formatSampleValue, formatTimeParam, formatTimestampJson, parseSampleValue, unixSecondsToMs } from './format.js';

describe('formatSampleValue (Go strconv.AppendFloat, as Prometheus marshalValue)', () => {
  it.each([
    [0, '0'],
    [-0, '-0'],
    [1, '1'],
    [-3, '-3'],
    [0.1 + 0.2, '0.30000000000000004'],
    [1e-6, '0.000001'],
    [9.99e-7, '9.99e-07'],
    [1e-7, '1e-07'],
    [2.5e-300, '2.5e-300'],
    [123456789012345680000, '123456789012345680000'],
    [1e21, '1e+21'],
    [2.5e21, '2.5e+21'],
    [-1.5e100, '-1.5e+100'],
    [Infinity, '+Inf'],
    [-Infinity, '-Inf'],
    [NaN, 'NaN'],
    [5e-324, '5e-324'],
    [Number.MAX_VALUE, '1.7976931348623157e+308'],
  ])('%d → %s', (v, want) => {
    expect(formatSampleValue(v)).toBe(want);
    if (!Number.isNaN(v)) expect(Object.is(parseSampleValue(want), v)).toBe(true);
  });

  it('parses NaN and rejects non-numbers', () => {
    expect(parseSampleValue('NaN')).toBeNaN();
    expect(parseSampleValue('')).toBeNaN();
    expect(parseSampleValue('x')).toBeNaN();
  });
});

describe('formatTimestampJson (Prometheus marshalTimestamp)', () => {
  it.each([
    [0, '0'],
    [1_700_006_700_000, '1700006700'],
    [1_700_006_700_500, '1700006700.500'],
    [1_700_006_700_050, '1700006700.050'],
    [1_700_006_700_007, '1700006700.007'],
    [-1_250, '-1.250'],
    [-5, '-0.005'],
    [Number.MAX_SAFE_INTEGER, '9007199254740.991'],
  ])('%d → %s', (ms, want) => {
    expect(formatTimestampJson(ms)).toBe(want);
    // Seconds as a float64 keep every millisecond up to about 2^53 / 1000 s.
    if (Math.abs(ms) < 1e15) expect(unixSecondsToMs(Number(want))).toBe(ms);
  });

  it('request parameters round to the millisecond', () => {
    expect(formatTimeParam(1_700_006_700_000.4)).toBe('1700006700');
  });
});
