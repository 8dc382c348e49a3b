import { describe, expect, it } from 'vitest';
import type { Unit } from '../../../src/dashboards/types.js';
import { compact, formatAgo, formatBytes, formatDurationMs, formatSeconds, formatValue, parseDurationMs, sig } from './units.js';

describe('formatValue', () => {
  const cases: [number | undefined, Unit, string][] = [
    [0.00042, 'seconds', '420 µs'],
    [0.0123, 'seconds', '12.3 ms'],
    [0.25, 'seconds', '250 ms'],
    [1.5, 'seconds', '1.5 s'],
    [90, 'seconds', '1.5 min'],
    [7200, 'seconds', '2 h'],
    [0, 'seconds', '0 s'],
    [0.4567, 'ratio', '45.7%'],
    [1, 'ratio', '100%'],
    [0.0004, 'ratio', '0.04%'],
    [45.67, 'percent', '45.7%'],
    [1536, 'bytes', '1.5 KiB'],
    [80 * 1024 ** 3, 'bytes', '80 GiB'],
    [950, 'count', '950'],
    [1234, 'count', '1.23k'],
    [2_500_000, 'count', '2.5M'],
    [3.2e9, 'count', '3.2G'],
    [1234.5, 'tokens/s', '1.23k tok/s'],
    [12.34, 'req/s', '12.3 req/s'],
    [512, 'tokens', '512 tok'],
    [5.752, 'dollars/h', '$5.75/h'],
    [71.4, 'celsius', '71.4 °C'],
    [1.41e9, 'hertz', '1.41GHz'],
    [210e6, 'hertz', '210MHz'],
    [0.0123, 'dollars', '$0.012'],
    [0.5, 'none', '0.5'],
    [Number.NaN, 'seconds', '—'],
    [undefined, 'count', '—'],
    [Number.POSITIVE_INFINITY, 'seconds', '+Inf'],
    [Number.NEGATIVE_INFINITY, 'count', '-Inf'],
    [-0.012, 'seconds', '-12 ms'],
  ];
  it.each(cases)('%s %s → %s', (v, unit, want) => {
    expect(formatValue(v, unit)).toBe(want);
  });

  it('leaves the unit out when bare', () => {
    expect(formatValue(0.5, 'ratio', { bare: true })).toBe('50');
    expect(formatValue(1200, 'tokens/s', { bare: true })).toBe('1.2k');
  });

  it('takes the number of significant digits', () => {
    expect(formatValue(0.012345, 'seconds', { digits: 2 })).toBe('12 ms');
    expect(formatValue(0.012345, 'seconds', { digits: 4 })).toBe('12.35 ms');
  });
});

describe('number helpers', () => {
  it.each([
    [1.5, '1.5'],
    [1.0, '1'],
    [0.001234, '0.00123'],
    [99.99, '100'],
    [12345, '12345'],
    [-2.5, '-2.5'],
  ])('sig(%s) = %s', (n, want) => {
    expect(sig(n)).toBe(want);
  });

  it.each([
    [999, '999'],
    [1000, '1k'],
    [1_234_567, '1.23M'],
    [-4500, '-4.5k'],
  ])('compact(%s) = %s', (n, want) => {
    expect(compact(n)).toBe(want);
  });

  it('formats seconds and bytes at the unit boundaries', () => {
    expect(formatSeconds(0.000_000_5)).toBe('500 ns');
    expect(formatSeconds(59.9)).toBe('59.9 s');
    expect(formatSeconds(2 * 86400)).toBe('2 d');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1024)).toBe('1 KiB');
  });
});

describe('durations', () => {
  it.each([
    ['5m', 300_000],
    ['1h30m', 5_400_000],
    ['500ms', 500],
    ['2d', 172_800_000],
    ['1w', 604_800_000],
  ])('parseDurationMs(%s) = %s', (text, ms) => {
    expect(parseDurationMs(text)).toBe(ms);
    expect(parseDurationMs(formatDurationMs(ms))).toBe(ms);
  });

  it.each(['', '5', 'm', '-5m', '5 m', '0s', '1.5h'])('rejects %j', (text) => {
    expect(parseDurationMs(text)).toBeUndefined();
  });

  it('formats like Prometheus', () => {
    expect(formatDurationMs(90_000)).toBe('1m30s');
    expect(formatDurationMs(3_600_000)).toBe('1h');
    expect(formatDurationMs(0)).toBe('0s');
  });

  it('formats relative times', () => {
    expect(formatAgo(1000, 1500)).toBe('just now');
    expect(formatAgo(0, 12_000)).toBe('12s ago');
    expect(formatAgo(0, 180_000)).toBe('3m ago');
    expect(formatAgo(0, 7_200_000)).toBe('2h ago');
  });
});
