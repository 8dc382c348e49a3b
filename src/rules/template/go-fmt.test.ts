import { describe, expect, test } from 'vitest';
import { formatGoFloatPrec } from './go-float.js';
import { goSprint, goSprintf, goSprintln } from './go-fmt.js';
import { GoHTML, GoInt, GoMap, type GoValue } from './values.js';

/** Outputs of Go 1.19's fmt, the ones printf in templates reaches. */
const SPRINTF: readonly [format: string, args: readonly GoValue[], want: string][] = [
  ['%v %v %v %v', [1e6, 0.1, 1234567, 1e21], '1e+06 0.1 1.234567e+06 1e+21'],
  ['%v %v %v', [NaN, Infinity, -Infinity], 'NaN +Inf -Inf'],
  ['%f %.2f %.0f %.0f', [3.14159, 2.675, 0.5, 1.5], '3.141590 2.67 0 2'],
  ['%e %.3E %g %G', [1234.5678, 1234.5678, 1e-7, 1e-7], '1.234568e+03 1.235E+03 1e-07 1E-07'],
  ['%.4g %.4g %.4g %.3g', [1234.5, 0.00012345, 100000, 123456], '1234 0.0001234 1e+05 1.23e+05'],
  ['%5.1f|%-8s|%08.3f|%+d|% d', [3.14159, 'ab', 3.14159, new GoInt(5), new GoInt(5)], '  3.1|ab      |0003.142|+5| 5'],
  ['%d %x %X %o %b %#x %c', [new GoInt(42), new GoInt(255), new GoInt(255), new GoInt(8), new GoInt(5), new GoInt(255), new GoInt(65)], '42 ff FF 10 101 0xff A'],
  ['%s %q %x %.2s %5s|', ['a"b', 'a"b', 'hi', 'xyz', 'z'], 'a"b "a\\"b" 6869 xy     z|'],
  ['%t %v %T %T %T', [true, false, new GoInt(1), 1.5, GoMap.ofStrings({})], 'true false int float64 map[string]string'],
  ['%s %v', [new GoHTML('<b>'), GoMap.ofStrings({ b: '2', a: '1' })], '<b> map[a:1 b:2]'],
  ['100%% %d', [new GoInt(1)], '100% 1'],
  ['%d', [1.5], '%!d(float64=1.5)'],
  ['%s', [new GoInt(3)], '%!s(int=3)'],
  ['%s %d', [], '%!s(MISSING) %!d(MISSING)'],
  ['%d', [new GoInt(1), 'x'], '1%!(EXTRA string=x)'],
  ['%d %v', [null, null], '%!d(<nil>) <nil>'],
  ['%*d|%-*d|%.*f', [new GoInt(4), new GoInt(7), new GoInt(3), new GoInt(8), new GoInt(1), 2.25], '   7|8  |2.2'],
  ['%#g %#.3g %#e', [1.0, 2.0, 1.0], '1.00000 2.00 1.000000e+00'],
  ['%08.3f|%-8.1f|%+.1e', [-3.5, 2.25, 12345.678], '-003.500|2.2     |+1.2e+04'],
  ['%6.2f%%', [12.345], ' 12.35%'],
  ['%99999999d|', [new GoInt(1)], '%!(NOVERB)%!(EXTRA int=1)'],
  ['%*d', [new GoInt(10_000_000), new GoInt(1)], '%!(BADWIDTH)1'],
];

const FLOATS: readonly [x: number, verb: 'e' | 'f' | 'g', prec: number, want: string][] = [
  [0, 'g', 4, '0'],
  [0, 'e', 3, '0.000e+00'],
  [-0, 'f', 1, '-0.0'],
  [2.5, 'f', 0, '2'],
  [3.5, 'f', 0, '4'],
  [0.125, 'f', 2, '0.12'],
  [0.375, 'f', 2, '0.38'],
  [1.005, 'f', 2, '1.00'],
  [999.95, 'g', 4, '1000'],
  [9999.5, 'g', 4, '1e+04'],
  [1e21, 'f', 0, '1000000000000000000000'],
  [5e-324, 'e', 2, '4.94e-324'],
  [1.7976931348623157e308, 'g', 3, '1.8e+308'],
  [123456, 'g', -1, '123456'],
  [1234567, 'e', -1, '1.234567e+06'],
];

describe('go fmt', () => {
  test.each(SPRINTF)('Sprintf(%j)', (format, args, want) => {
    expect(goSprintf(format, args)).toBe(want);
  });

  test.each(FLOATS)('FormatFloat(%d, %s, %d)', (x, verb, prec, want) => {
    expect(formatGoFloatPrec(x, verb, prec)).toBe(want);
  });

  test('Sprint spaces operands where neither is a string; Sprintln always', () => {
    expect(goSprint([new GoInt(1), new GoInt(2), 'a', 'b', 3.5, null])).toBe('1 2ab3.5 <nil>');
    expect(goSprintln(['a', new GoInt(1)])).toBe('a 1\n');
  });
});
