import { describe, expect, it } from 'vitest';
import { goUnquote, parseGoNumber, parseSeriesNumber } from './go-syntax.js';

describe('parseGoNumber (ParseInt base 0, then ParseFloat)', () => {
  it.each([
    ['1', 1],
    ['-1', -1],
    ['+5', 5],
    ['0x10', 16],
    ['0X1f', 31],
    ['0o17', 15],
    ['017', 15],
    ['08', 8],
    ['0b101', 5],
    ['1_000', 1000],
    ['1.5', 1.5],
    ['.5', 0.5],
    ['5.', 5],
    ['1e3', 1000],
    ['-2.5E-3', -0.0025],
    ['0x1p-2', 0.25],
    ['Inf', Infinity],
    ['-inf', -Infinity],
    ['+Infinity', Infinity],
    ['NaN', NaN],
    ['nan', NaN],
    ['9223372036854775808', 9223372036854775808],
    ['1e400', undefined],
    ['+NaN', undefined],
    ['1__0', undefined],
    ['_1', undefined],
    ['1_', undefined],
    ['0x', undefined],
    ['0x1.8', undefined],
    ['abc', undefined],
    ['1 2', undefined],
    ['', undefined],
    ['foo{}', undefined],
  ])('%j -> %j', (text, want) => {
    expect(parseGoNumber(text)).toBe(want);
  });
});

describe('parseSeriesNumber (the lexer in series descriptions)', () => {
  it.each([
    ['1', 1],
    ['-1.5', -1.5],
    ['+2', 2],
    ['1e3', 1000],
    ['010', 8],
    ['Inf', Infinity],
    ['-Inf', -Infinity],
    ['NaN', NaN],
    ['0x10', undefined],
    ['Infinity', undefined],
    ['stale', undefined],
  ])('%j -> %j', (text, want) => {
    expect(parseSeriesNumber(text)).toBe(want);
  });
});

describe('goUnquote (strconv.Unquote)', () => {
  it.each([
    ['"a b"', 'a b'],
    ['"a\\"b"', 'a"b'],
    ['"tab\\tnl\\n"', 'tab\tnl\n'],
    ['"\\u00fc\\U0001F600"', 'ü😀'],
    ['"\\xc3\\xbc"', 'ü'],
    ['"\\303\\274"', 'ü'],
    ['`raw \\n`', 'raw \\n'],
    ["'x'", 'x'],
    ["'xy'", undefined],
    ['"unterminated', undefined],
    ['"bad \\q"', undefined],
    ['"a"b"', undefined],
    ['noquotes', undefined],
  ])('%s -> %j', (text, want) => {
    expect(goUnquote(text)).toBe(want);
  });
});
