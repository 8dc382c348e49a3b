import { describe, expect, it } from 'vitest';
import { DurationSyntaxError, formatDuration, parseDuration, parseDurationMs } from './duration.js';

// The cases of model.ParseDuration and model.Duration.String() in prometheus/common, and the
// ones the configuration loader, the PromQL parser and the promqltest runner each pinned before
// they shared this parser.
describe('parseDuration (model.ParseDuration)', () => {
  it.each<[string, number]>([
    ['0', 0],
    ['0s', 0],
    ['1ms', 1],
    ['500ms', 500],
    ['15s', 15_000],
    ['5m', 300_000],
    ['1m30s', 90_000],
    ['1h30m', 5_400_000],
    ['2h', 7_200_000],
    ['10s53ms', 10_053],
    ['8d', 691_200_000],
    ['15d', 15 * 86_400_000],
    ['1w', 604_800_000],
    ['2w', 1_209_600_000],
    ['2w1d', 1_296_000_000],
    ['1y', 31_536_000_000],
    ['1y2w3d4h5m6s7ms', 31_536_000_000 + 1_209_600_000 + 259_200_000 + 14_400_000 + 300_000 + 6000 + 7],
  ])('%j is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
    expect(parseDurationMs(text)).toBe(ms);
  });

  it.each<[string, string, string]>([
    ['', 'empty duration string', 'empty'],
    ['1', 'not a valid duration string: "1"', 'syntax'],
    ['15', 'not a valid duration string: "15"', 'syntax'],
    ['m', 'not a valid duration string: "m"', 'syntax'],
    ['1h30', 'not a valid duration string: "1h30"', 'syntax'],
    ['5m1h', 'not a valid duration string: "5m1h"', 'syntax'],
    ['30s1m', 'not a valid duration string: "30s1m"', 'syntax'],
    ['1s1h', 'not a valid duration string: "1s1h"', 'syntax'],
    ['1m1m', 'not a valid duration string: "1m1m"', 'syntax'],
    ['1.5s', 'unknown unit "." in duration "1.5s"', 'unknown-unit'],
    ['-1s', 'not a valid duration string: "-1s"', 'syntax'],
    ['forever', 'not a valid duration string: "forever"', 'syntax'],
    ['1x', 'unknown unit "x" in duration "1x"', 'unknown-unit'],
    ['1hs', 'unknown unit "hs" in duration "1hs"', 'unknown-unit'],
    ['300y', 'duration out of range', 'range'],
    ['1000000y', 'duration out of range', 'range'],
  ])('%j fails: %s', (text, message, reason) => {
    expect(() => parseDuration(text)).toThrow(new DurationSyntaxError(message, reason as never));
    try {
      parseDuration(text);
    } catch (err) {
      expect((err as DurationSyntaxError).reason).toBe(reason);
    }
    expect(parseDurationMs(text)).toBeUndefined();
  });

  it('accepts the largest duration Go can hold (2^63 − 1 ns), in whole milliseconds', () => {
    expect(parseDuration('9223372036854ms')).toBe(9_223_372_036_854);
    expect(parseDurationMs('9223372036855ms')).toBeUndefined();
  });
});

describe('formatDuration (model.Duration.String)', () => {
  it.each<[number, string]>([
    [0, '0s'],
    [1, '1ms'],
    [500, '500ms'],
    [15_000, '15s'],
    [90_000, '1m30s'],
    [5_400_000, '1h30m'],
    [7_200_000, '2h'],
    [691_200_000, '8d'],
    [7_776_000_000, '90d'],
    [604_800_000, '1w'],
    [1_209_600_000, '2w'],
    [31_536_000_000, '1y'],
    [31_622_400_000, '366d'],
    [-60_000, '-1m'],
    [1500.7, '1s500ms'],
  ])('%d is %j', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
