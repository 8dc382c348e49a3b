import { describe, expect, it, test } from 'vitest';
import { INSIGHTS } from './insights.js';
import type { Panel, Unit, Variable } from './types.js';
import {
  ALL,
  builtinIntervals,
  defaultValues,
  formatRegexValue,
  interpolate,
  parseBand,
  promDuration,
  regexEscape,
  resolveBand,
  variableSelector,
  type VariableValues,
} from './variables.js';

const VARS: readonly Variable[] = [
  { name: 'az', label: 'AZ', kind: 'labelValues', metric: 'up', labelName: 'az' },
  { name: 'instance', label: 'Instance', kind: 'labelValues', metric: 'up', labelName: 'instance', hidden: true },
  { name: 'instance_type', label: 'Instance type', kind: 'labelValues', metric: 'up', labelName: 'instance_type' },
  {
    name: 'quantile',
    label: 'Quantile',
    kind: 'custom',
    options: [
      { value: '0.5', text: 'P50' },
      { value: '0.99', text: 'P99' },
    ],
    default: '0.99',
  },
  { name: 'band', label: 'Band', kind: 'text', default: '40-50' },
];
const BUILTINS = { rateInterval: '1m', interval: '15s', range: '3600s' };

describe('interpolate', () => {
  test.each<[string, string, VariableValues, string]>([
    ['all is .*', 'up{az=~"$az"}', { az: ALL }, 'up{az=~".*"}'],
    ['a missing label value is all', 'up{az=~"$az"}', {}, 'up{az=~".*"}'],
    ['an empty selection is all', 'up{az=~"$az"}', { az: [] }, 'up{az=~".*"}'],
    ['all among others is all', 'up{az=~"$az"}', { az: ['a', ALL] }, 'up{az=~".*"}'],
    ['one value', 'up{az=~"$az"}', { az: 'us-east-1a' }, 'up{az=~"us-east-1a"}'],
    ['several values', 'up{az=~"$az"}', { az: ['us-east-1a', 'us-east-1b'] }, 'up{az=~"us-east-1a|us-east-1b"}'],
    ['dots match literally', 'up{instance_type=~"$instance_type"}', { instance_type: 'ml.g5.12xlarge' }, 'up{instance_type=~"ml\\\\.g5\\\\.12xlarge"}'],
    ['every RE2 metacharacter', 'up{az=~"$az"}', { az: 'a+b*c?(d)|[e]{f}^$' }, 'up{az=~"a\\\\+b\\\\*c\\\\?\\\\(d\\\\)\\\\|\\\\[e\\\\]\\\\{f\\\\}\\\\^\\\\$"}'],
    ['a backslash and a quote', 'up{az=~"$az"}', { az: 'a\\b"c' }, 'up{az=~"a\\\\\\\\b\\"c"}'],
    ['the ${name} form', 'up{az=~"${az}"}', { az: 'x' }, 'up{az=~"x"}'],
    ['${name} next to a word character', 'up{az=~"${az}_1"}', { az: 'x' }, 'up{az=~"x_1"}'],
    [
      '$instance is not read inside $instance_type',
      'up{instance=~"$instance", instance_type=~"$instance_type"}',
      { instance: 'i-1', instance_type: ALL },
      'up{instance=~"i-1", instance_type=~".*"}',
    ],
    ['$instance_typo is no variable', 'up{x="$instance_typo"}', { instance: 'i-1' }, 'up{x="$instance_typo"}'],
    ['custom: verbatim', 'histogram_quantile($quantile, x)', { quantile: '0.5' }, 'histogram_quantile(0.5, x)'],
    ['custom: its default when missing', 'histogram_quantile($quantile, x)', {}, 'histogram_quantile(0.99, x)'],
    ['custom: the first of an array', 'histogram_quantile($quantile, x)', { quantile: ['0.5', '0.99'] }, 'histogram_quantile(0.5, x)'],
    ['text: verbatim, dots included', 'x > $band', { band: '0.5' }, 'x > 0.5'],
    ['values are not interpolated again', 'x{az=~"$az"} > $band', { az: '$band', band: '$az' }, 'x{az=~"\\\\$band"} > $az'],
    ['an unknown name without a value stays', 'x{a="$nope"}', {}, 'x{a="$nope"}'],
    ['an unknown name with a string: verbatim', 'x{a="$job"}', { job: 'a.b' }, 'x{a="a.b"}'],
    ['an unknown name with an array: regex', 'x{a=~"$job"}', { job: ['a.b', 'c'] }, 'x{a=~"a\\\\.b|c"}'],
    ['$__rate_interval', 'rate(x[$__rate_interval])', {}, 'rate(x[1m])'],
    ['$__interval and $__range', 'x[$__interval] y[$__range] z[${__range}]', {}, 'x[15s] y[3600s] z[3600s]'],
    ['$__interval_ms is no built-in', 'x[$__interval_ms]', {}, 'x[$__interval_ms]'],
    ["label_replace's $1 stays", 'label_replace(up, "a", "$1", "b", "(.*)")', {}, 'label_replace(up, "a", "$1", "b", "(.*)")'],
    ['a lone $ stays', 'x{a=~"b$"}', {}, 'x{a=~"b$"}'],
  ])('%s', (_name, expr, values, want) => {
    expect(interpolate(expr, values, { variables: VARS, ...BUILTINS })).toBe(want);
  });

  it('leaves built-ins it was not given', () => {
    expect(interpolate('rate(x[$__rate_interval])', {}, { variables: VARS })).toBe('rate(x[$__rate_interval])');
  });
});

describe('formatRegexValue and regexEscape', () => {
  test.each<[string, string]>([
    ['plain', 'plain'],
    ['ml.g5.12xlarge', 'ml\\.g5\\.12xlarge'],
    ['a|b', 'a\\|b'],
    ['(x)[y]{z}', '\\(x\\)\\[y\\]\\{z\\}'],
    ['^$*+?\\', '\\^\\$\\*\\+\\?\\\\'],
  ])('regexEscape(%j)', (input, want) => {
    expect(regexEscape(input)).toBe(want);
  });

  test.each<[string | readonly string[], string]>([
    [ALL, '.*'],
    [[], '.*'],
    ['a.b', 'a\\\\.b'],
    [['a', 'b.c'], 'a|b\\\\.c'],
    ['say "hi"', 'say \\"hi\\"'],
  ])('formatRegexValue(%j)', (input, want) => {
    expect(formatRegexValue(input)).toBe(want);
  });
});

describe('parseBand', () => {
  test.each<[string, Unit, { from: number; to: number } | undefined]>([
    ['40-50', 'ratio', { from: 0.4, to: 0.5 }],
    [' 40 - 50 ', 'ratio', { from: 0.4, to: 0.5 }],
    ['40–50%', 'ratio', { from: 0.4, to: 0.5 }],
    ['0-100', 'ratio', { from: 0, to: 1 }],
    ['40-50', 'percent', { from: 40, to: 50 }],
    ['0.5-1.5', 'seconds', { from: 0.5, to: 1.5 }],
    ['45-45', 'count', { from: 45, to: 45 }],
    ['50-40', 'ratio', undefined],
    ['40', 'ratio', undefined],
    ['-5-5', 'ratio', undefined],
    ['a-b', 'ratio', undefined],
    ['', 'ratio', undefined],
  ])('%j on a %s panel', (text, unit, want) => {
    expect(parseBand(text, unit)).toEqual(want);
  });

  it('resolves a panel band from its variable, keeping the default when the text does not parse', () => {
    const panel: Pick<Panel, 'band' | 'unit'> = { unit: 'ratio', band: { from: 0.4, to: 0.5, label: 'signal', variable: 'kv_band' } };
    expect(resolveBand(panel, { kv_band: '60-70' })).toEqual({ from: 0.6, to: 0.7, label: 'signal', variable: 'kv_band' });
    expect(resolveBand(panel, { kv_band: 'high' })).toEqual(panel.band);
    expect(resolveBand({ unit: 'ratio' }, {})).toBeUndefined();
  });
});

describe('builtinIntervals and promDuration', () => {
  test.each<[{ rangeMs: number; stepMs: number; scrapeIntervalMs?: number }, { interval: string; rateInterval: string; range: string }]>([
    [{ rangeMs: 3_600_000, stepMs: 15_000 }, { interval: '15s', rateInterval: '60s', range: '3600s' }],
    [{ rangeMs: 86_400_000, stepMs: 300_000 }, { interval: '300s', rateInterval: '315s', range: '86400s' }],
    [{ rangeMs: 600_000, stepMs: 500, scrapeIntervalMs: 1000 }, { interval: '500ms', rateInterval: '4s', range: '600s' }],
  ])('%j', (input, want) => {
    expect(builtinIntervals(input)).toEqual(want);
  });

  test.each<[number, string]>([
    [1000, '1s'],
    [1500, '1500ms'],
    [0, '1ms'],
    [0.4, '1ms'],
  ])('promDuration(%d)', (ms, want) => {
    expect(promDuration(ms)).toBe(want);
  });
});

describe('defaults and variable selectors', () => {
  it('starts Insights at all, P99 and the 40-50 % band', () => {
    expect(defaultValues(INSIGHTS)).toEqual({ endpoint: ALL, component: ALL, engine: ALL, az: ALL, instance: ALL, quantile: '0.99', kv_band: '40-50' });
  });

  it('narrows a variable by the ones before it', () => {
    const component = INSIGHTS.variables.find((v) => v.name === 'component')!;
    expect(variableSelector(component, { endpoint: ['chat-prod'] }, INSIGHTS.variables)).toBe('up{endpoint=~"chat-prod"}');
    expect(variableSelector(VARS[0], {}, VARS)).toBe('up');
  });
});
