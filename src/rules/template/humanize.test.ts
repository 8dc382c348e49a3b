import { describe, expect, test } from 'vitest';
import { FuncError } from './exec.js';
import { humanize, humanize1024, humanizeDuration, humanizePercentage, humanizeTimestamp } from './humanize.js';
import type { QueryClient } from '../../query/index.js';
import { PROM_FUNCTION_NAMES, isIP, promFuncs, splitHostPort, urlPath } from './prom-funcs.js';
import { GoInt, type GoValue } from './values.js';

/** Prometheus 2.42's template_test.go tables, joined with `:` as they are there. */
const MAX_INT64 = new GoInt(2 ** 63);
const CASES: readonly [name: string, fn: (v: GoValue) => string, inputs: readonly GoValue[], want: string][] = [
  ['humanize float64', humanize, [0, 1, 1234567, 0.12], '0:1:1.235M:120m:'],
  ['humanize string', humanize, ['0.0', '1.0', '1234567.0', '.12'], '0:1:1.235M:120m:'],
  ['humanize int', humanize, [new GoInt(0), new GoInt(-1), new GoInt(1), new GoInt(1234567), MAX_INT64], '0:-1:1:1.235M:9.223E:'],
  ['humanize1024 float64', humanize1024, [0, 1, 1048576, 0.12], '0:1:1Mi:0.12:'],
  ['humanize1024 int', humanize1024, [new GoInt(0), new GoInt(-1), new GoInt(1), new GoInt(1234567), MAX_INT64], '0:-1:1:1.177Mi:8Ei:'],
  ['humanizeDuration seconds', humanizeDuration, [0, 1, 60, 3600, 86400, 86400 + 3600, -(86400 * 2 + 3600 * 3 + 60 * 4 + 5), 899.99], '0s:1s:1m 0s:1h 0m 0s:1d 0h 0m 0s:1d 1h 0m 0s:-2d 3h 4m 5s:14m 59s:'],
  ['humanizeDuration fractions', humanizeDuration, [0.1, 0.0001, 0.12345, 60.1, 60.5, 1.2345, 12.345], '100ms:100us:123.5ms:1m 0s:1m 0s:1.234s:12.35s:'],
  ['humanizeDuration int', humanizeDuration, [new GoInt(0), new GoInt(-1), new GoInt(1), new GoInt(1234567)], '0s:-1s:1s:14d 6h 56m 7s:'],
  ['humanize* of Inf and NaN', (v) => [humanize(v), humanize1024(v), humanizeDuration(v), humanizeTimestamp(v)].join(':'), [Infinity, -Infinity, NaN], '+Inf:+Inf:+Inf:+Inf:-Inf:-Inf:-Inf:-Inf:NaN:NaN:NaN:NaN:'],
  ['humanizePercentage', humanizePercentage, [-0.22222, 0, 0.1234567, 1.23456, new GoInt(1234567), MAX_INT64], '-22.22%:0%:12.35%:123.5%:1.235e+08%:9.223e+20%:'],
  [
    'humanizeTimestamp int',
    humanizeTimestamp,
    [new GoInt(0), new GoInt(-1), new GoInt(1), new GoInt(1234567), new GoInt(9223372036)],
    '1970-01-01 00:00:00 +0000 UTC:1969-12-31 23:59:59 +0000 UTC:1970-01-01 00:00:01 +0000 UTC:1970-01-15 06:56:07 +0000 UTC:2262-04-11 23:47:16 +0000 UTC:',
  ],
  ['humanizeTimestamp float64', humanizeTimestamp, [1435065584.128], '2015-06-23 13:19:44.128 +0000 UTC:'],
];

describe('humanize functions', () => {
  test.each(CASES)('%s', (_, fn, inputs, want) => {
    expect(inputs.map((i) => `${fn(i)}:`).join('')).toBe(want);
  });

  test.each([
    ['humanize', humanize, 'one', 'strconv.ParseFloat: parsing "one": invalid syntax'],
    ['humanizeDuration', humanizeDuration, 'one', 'strconv.ParseFloat: parsing "one": invalid syntax'],
    ['humanize', humanize, true, "can't convert bool to float"],
    ['humanizeTimestamp', humanizeTimestamp, new GoInt(-(2 ** 63)), '-9.223372036854776e+18 cannot be represented as a nanoseconds timestamp since it overflows int64'],
  ] as const)('%s(%j) fails', (_, fn, input, message) => {
    expect(() => fn(input)).toThrow(new FuncError(message));
  });
});

describe('host and port helpers', () => {
  test.each([
    ['foo.example.com', undefined],
    ['foo.example.com:12345', { host: 'foo.example.com', port: '12345' }],
    ['[2001:0DB8::1]:12345', { host: '2001:0DB8::1', port: '12345' }],
    ['2001:0DB8::1', undefined],
    ['[2001:0DB8::1]::12345', undefined],
    [':80', { host: '', port: '80' }],
  ])('splitHostPort(%j)', (hp, want) => {
    expect(splitHostPort(hp)).toEqual(want);
  });

  test.each([
    ['192.0.2.1', true],
    ['192.0.2.01', false],
    ['256.0.0.1', false],
    ['2001:0DB8::1', true],
    ['::1', true],
    ['::ffff:10.0.0.1', true],
    ['1:2:3:4:5:6:7:8', true],
    ['1:2:3:4:5:6:7:8:9', false],
    ['foo', false],
  ])('isIP(%j) is %s', (s, want) => {
    expect(isIP(s)).toBe(want);
  });
});

describe('Prometheus functions', () => {
  test('PROM_FUNCTION_NAMES names exactly the functions promFuncs binds', () => {
    const fns = promFuncs({ queryClient: {} as QueryClient, evalTimeMs: 0, externalURL: undefined, remainingMs: () => 0 });
    expect([...fns.keys()].sort()).toEqual([...PROM_FUNCTION_NAMES].sort());
  });

  test.each([
    ['http://testhost:9090/path/prefix', '/path/prefix'],
    ['http://testhost:9090', ''],
    ['http://testhost:9090/', '/'],
    ['https://h/a%20b?x=1#f', '/a b'],
  ])('urlPath(%j) is %j', (u, want) => {
    expect(urlPath(u)).toBe(want);
  });
});
