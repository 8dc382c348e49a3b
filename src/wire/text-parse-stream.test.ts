import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ExpositionLimitError,
  ExpositionParser,
  parseExposition,
  type ExpositionFormat,
  type ExpositionLimits,
} from './text-parse.js';

const P: ExpositionFormat = 'prometheus-0.0.4';
const O: ExpositionFormat = 'openmetrics-1.0';

/** A parse as text: every sample's labels and value, the families, or the error message. */
function outcome(pieces: readonly string[], format: ExpositionFormat, limits: ExpositionLimits = {}): string[] {
  const out: string[] = [];
  try {
    const p = new ExpositionParser(format, (s, f) => out.push(`${s.labels.toString()} ${s.value} ${s.timestampMs ?? ''} ${f?.name ?? '-'}`), limits);
    for (const piece of pieces) p.push(piece);
    for (const f of p.end().families) out.push(`#${f.name} ${f.type} ${f.help ?? ''} ${f.unit ?? ''}`);
  } catch (e) {
    out.push(`error: ${(e as Error).message}`);
  }
  return out;
}

/** Inputs that touch every rule a split could break: escapes, blanks, CR, EOF, missing final newline, errors. */
const BODIES: [string, ExpositionFormat][] = [
  ['# HELP a A \\\\ help\\n\n# TYPE a counter\na{x="1",y="q\\"u\\no"} 1 1700\na{x="2"} 2\n\nb 3', P],
  ['c{z="1",a="2",m="日本"} 1\r\nd 2\n', P],
  ['a{b="1",b="2"} 1\n', P],
  ['m{__name__="x"} 1\n', P],
  ['# TYPE x counter\n# UNIT x_seconds seconds\nx_seconds_total{a="😀"} 1 1.5 # {t="1"} 2 3\n# EOF\n', O],
  ['x 1\n# EOF\nafter 1\n', O],
  ['x 1\n', O],
  ['x{a="unterminated\n', P],
  ['', O],
];

describe('ExpositionParser: pieces of any size parse as the whole text', () => {
  it.each(BODIES)('%j', (body, format) => {
    const whole = outcome([body], format);
    for (let size = 1; size <= 7; size++) {
      const pieces: string[] = [];
      for (let i = 0; i < body.length; i += size) pieces.push(body.slice(i, i + size));
      expect(outcome(pieces, format)).toEqual(whole);
    }
  });

  it('for random split points', () => {
    fc.assert(
      fc.property(fc.constantFrom(...BODIES), fc.array(fc.nat(), { maxLength: 8 }), ([body, format], cuts) => {
        const at = [...new Set(cuts.map((c) => c % (body.length + 1)))].sort((a, b) => a - b);
        const pieces = [0, ...at].map((from, i) => body.slice(from, at[i] ?? body.length));
        expect(outcome(pieces, format)).toEqual(outcome([body], format));
      }),
      { numRuns: 300, seed: 14 },
    );
  });
});

/** A sample line with `n` labels named in descending order (the parser's unsorted path). */
const wideLine = (n: number): string => `m{${Array.from({ length: n }, (_, i) => `l${String(n - i).padStart(6, '0')}="v${i}"`).join(',')}} 1\n`;

describe('wide lines', () => {
  it('a line of 40,000 unsorted labels parses into sorted labels (O(n log n): bench/wire/text-parse-wide.bench.ts)', () => {
    let size = 0;
    let first = '';
    parseExposition(wideLine(40_000), P, (s) => {
      size = s.labels.size;
      first = s.labels.nameAt(0);
    });
    expect(size).toBe(40_001);
    expect(first).toBe('__name__');
  });

  it.each([
    ['first', `m{a="1",${wideLine(3000).slice(2, -4)},a="2"} 1\n`, 'duplicate label name "a"'],
    ['nearest', `m{b="1",a="1",${wideLine(3000).slice(2, -4)},a="2",b="2"} 1\n`, 'duplicate label name "a"'],
    ['__name__ before a duplicate', `m{z="1",__name__="m",z="2"} 1\n`, 'label "__name__" repeats the metric name'],
  ])('among many labels, the %s offending label is reported, at its column', (_what, line, message) => {
    let err: Error | undefined;
    try {
      parseExposition(line, P, () => undefined);
    } catch (e) {
      err = e as Error;
    }
    expect(err?.message).toContain(message);
    // A left-to-right scan's answer: the column of the first label that repeats an earlier one.
    const name = /"(.+?)"/.exec(message)?.[1] ?? '';
    const at = name === '__name__' ? line.indexOf('__name__') : line.indexOf(`${name}="`, line.indexOf(`${name}="`) + 1);
    expect(err?.message.startsWith(`line 1, column ${at + 1}:`)).toBe(true);
  });
});

describe('limits while parsing', () => {
  it.each<[string, ExpositionLimits, string, string]>([
    ['label_limit counts __name__ and skips empty values', { labelLimit: 3 }, 'x{a="1",b="",c="2",d="3"} 1\n', 'label_limit exceeded (metric: x, number of labels: more than 3, limit: 3)'],
    ['label_name_length_limit', { labelNameLengthLimit: 9 }, 'x{long_name_x="1"} 1\n', 'label_name_length_limit exceeded (metric: x, label name: long_name_x, length: 11, limit: 9)'],
    ['label_value_length_limit in UTF-8 bytes', { labelValueLengthLimit: 5 }, 'x{v="日本"} 1\n', 'label_value_length_limit exceeded (metric: x, label name: v, value: "日本", length: 6, limit: 5)'],
    ['the metric name is the value of __name__', { labelValueLengthLimit: 5 }, 'long_metric 1\n', 'label_value_length_limit exceeded (metric: long_metric, label name: __name__, value: "long_metric", length: 11, limit: 5)'],
  ])('%s', (_name, limits, line, message) => {
    const body = 'ok{a="1"} 1\n' + line + 'never 1\n';
    expect(outcome([body], P, limits)).toEqual(['ok{a="1"} 1  -', `error: ${message}`]);
    expect(outcome([body], P)).toHaveLength(3); // without limits, all three lines parse
  });

  it.each<[string, ExpositionLimits, string]>([
    ['at the limit', { labelLimit: 3, labelNameLengthLimit: 2, labelValueLengthLimit: 6 }, 'x{a="日本",b=""} 1\n'],
    ['exemplar labels', { labelLimit: 2, labelValueLengthLimit: 8 }, '# TYPE x counter\nx_total 1 # {trace_id="0123456789"} 1\n'],
  ])('%s pass', (_name, limits, line) => {
    expect(outcome([line + '# EOF\n'], O, limits)[0]).not.toMatch(/^error/);
  });

  it('a limit stops the parse at the offending label: the rest of the line is not read', () => {
    // An unterminated value after the 3rd label would be a parse error if it were read.
    expect(() => parseExposition('x{a="1",b="2",c="3",d="4",e="\n', P, () => undefined, { labelLimit: 3 })).toThrow(ExpositionLimitError);
    expect(() => parseExposition('x{a="1",b="2",c="3",d="4",e="\n', P, () => undefined)).toThrow(/unterminated/);
  });
});
