import { describe, expect, it } from 'vitest';
import { Labels } from '../model/index.js';
import { formatTextExposition } from './text-format.js';

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
