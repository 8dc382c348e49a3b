import { describe, expect, it } from 'vitest';
import { MAX_TIME_MS, MIN_TIME_MS, parseGoFloat as goParseFloat } from '../../model/index.js';
import { goQuote, parseDurationNs, parseTime } from './params.js';

describe('parseTime (Prometheus parseTime)', () => {
  it.each([
    ['0', 0],
    ['1700006700', 1_700_006_700_000],
    ['1700006700.5', 1_700_006_700_500],
    ['1700006700.12345', 1_700_006_700_123],
    ['1700006700.9996', 1_700_006_701_000],
    ['-1.5', -1_500],
    ['-0.0005', -1],
    ['1e9', 1_000_000_000_000],
    ['+.5', 500],
    ['0x10p0', 16_000],
    ['1_000', 1_000_000],
    ['2023-11-15T1:01:00Z', 1_700_010_060_000],
    ['2023-11-15T00:01:00Z', 1_700_006_460_000],
    ['2023-11-15T00:01:00.123456789Z', 1_700_006_460_123],
    ['2023-11-15T01:01:00+01:00', 1_700_006_460_000],
    ['2023-11-14T23:31:00-00:30', 1_700_006_460_000],
    ['2023-11-15T00:01:00,5Z', 1_700_006_460_500],
    ['2024-02-29T00:00:00Z', 1_709_164_800_000],
    ['0001-01-01T00:00:00Z', -62_135_596_800_000],
    ['-292273086-05-16T16:47:06Z', MIN_TIME_MS],
    ['292277025-08-18T07:12:54.999999999Z', MAX_TIME_MS],
  ])('%s → %d ms', (text, ms) => {
    expect(parseTime(text)).toBe(ms);
  });

  it.each(['', 'x', 'now', '1e400', 'NaN', 'Inf', '-Infinity', '1e300', '2023-02-29T00:00:00Z', '2023-11-15T24:00:00Z', '2023-11-15 00:00:00Z', '2023-11-15T00:00:00', '2023-11-15', '1__000', '_1', '1_', '0x1', '2023-11-15T00:01:00.1234567891Z'])(
    '%j is refused with Prometheus wording',
    (text) => {
      expect(() => parseTime(text)).toThrow(`cannot parse ${goQuote(text)} to a valid timestamp`);
    },
  );
});

describe('parseDurationNs (Prometheus parseDuration)', () => {
  it.each([
    ['15', 15e9],
    ['0.5', 5e8],
    ['1.005', 1_004_999_999],
    ['0', 0],
    ['-1', -1e9],
    ['1m', 60e9],
    ['1h30m', 5_400e9],
    ['1y2w3d4h5m6s7ms', (31_536_000 + 2 * 604_800 + 3 * 86_400 + 4 * 3600 + 5 * 60 + 6) * 1e9 + 7e6],
    ['250ms', 250e6],
  ])('%s → %d ns', (text, ns) => {
    expect(parseDurationNs(text)).toBe(ns);
  });

  it.each(['', 'x', '1h1h', '5m1h', '1.5h', '-1m', '1d ', ' 1d'])('%j is refused', (text) => {
    expect(() => parseDurationNs(text)).toThrow(`cannot parse ${goQuote(text)} to a valid duration`);
  });

  it('reports int64 overflow as Prometheus does', () => {
    expect(() => parseDurationNs('1e10')).toThrow('cannot parse "1e10" to a valid duration. It overflows int64');
  });

  it('keeps NaN, which no range check accepts', () => {
    expect(parseDurationNs('NaN')).toBeNaN();
  });
});

describe('goParseFloat and goQuote', () => {
  it.each([
    ['1', 1],
    ['-2.5e3', -2500],
    ['.5', 0.5],
    ['5.', 5],
    ['inf', Infinity],
    ['-Infinity', -Infinity],
    ['0x1.8p1', 3],
    ['1e400', undefined],
    ['+nan', undefined],
    ['1e', undefined],
    ['', undefined],
  ])('%j → %s', (text, want) => {
    expect(goParseFloat(text)).toBe(want);
  });

  it('quotes like %q', () => {
    expect(goQuote('a"b\\c\nd\x01é')).toBe('"a\\"b\\\\c\\nd\\x01é"');
  });
});
