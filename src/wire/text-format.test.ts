import { describe, expect, it } from 'vitest';
import { Labels } from '../model/index.js';
import { formatFloat, formatTextExposition } from './text-format.js';

describe('formatFloat (Go strconv.FormatFloat(v, \'g\', -1, 64))', () => {
  it.each([
    [0, '0'],
    [-0, '-0'],
    [1, '1'],
    [-2.5, '-2.5'],
    [123456, '123456'],
    [1e6, '1e+06'],
    [1234567, '1.234567e+06'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [1.5e-7, '1.5e-07'],
    [1e21, '1e+21'],
    [1.7976931348623157e308, '1.7976931348623157e+308'],
    [5e-324, '5e-324'],
    [0.1, '0.1'],
    [Infinity, '+Inf'],
    [-Infinity, '-Inf'],
    [NaN, 'NaN'],
  ])('%s → %s', (v, want) => {
    expect(formatFloat(v)).toBe(want);
  });
});

describe('formatTextExposition', () => {
  it('writes HELP, TYPE, escaped label values and suffixed samples', () => {
    const text = formatTextExposition([
      {
        name: 'x_seconds',
        help: 'A help\\text\nwith a newline.',
        type: 'summary',
        samples: [
          { suffix: '_sum', labels: Labels.from({ path: 'a"b\\c\nd' }), value: 1.5 },
          { suffix: '_count', value: 3, tMs: 1000 },
        ],
      },
    ]);
    expect(text).toBe(
      [
        '# HELP x_seconds A help\\\\text\\nwith a newline.',
        '# TYPE x_seconds summary',
        'x_seconds_sum{path="a\\"b\\\\c\\nd"} 1.5',
        'x_seconds_count 3 1000',
        '',
      ].join('\n'),
    );
  });
});
