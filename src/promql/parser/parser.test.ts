import { describe, expect, it } from 'vitest';
import { FUNCTIONS, ParseError, getFunction, parseExpr, parseMetric, parseMetricSelector } from './index.js';

const OPTS = {
  enableExperimentalFunctions: true,
  enableDurationExpressions: true,
  enableExtendedRangeSelectors: true,
  enableBinopFillModifiers: true,
};

/** check(input, want): the parsed tree contains `want` (a partial tree; positions are byte ranges). */
function check(input: string, want: object): void {
  expect(parseExpr(input, OPTS)).toMatchObject(want);
}

const vs = (name: string, start: number, end: number, extra: object = {}): object => ({
  type: 'VectorSelector',
  name,
  pos: { start, end },
  ...extra,
});
const num = (value: number, start: number, end: number): object => ({ type: 'NumberLiteral', value, pos: { start, end } });

// Shapes and positions from Prometheus' parse_test.go.
describe('parseExpr trees', () => {
  it.each<[string, object]>([
    ['1', num(1, 0, 1)],
    ['+Inf', num(Infinity, 0, 4)],
    ['-Inf', num(-Infinity, 0, 4)],
    ['.5', num(0.5, 0, 2)],
    ['5.', num(5, 0, 2)],
    ['5e-3', num(0.005, 0, 4)],
    ['0xc', num(12, 0, 3)],
    ['0755', num(493, 0, 4)],
    ['-0755', num(-493, 0, 5)],
    ['+5.5e-3', num(0.0055, 0, 7)],
    ['1_000', num(1000, 0, 5)],
    ['0x_1f', num(31, 0, 5)],
    ['08', num(8, 0, 2)],
    ['1h30m', { type: 'NumberLiteral', value: 5400, duration: true }],
    ['-1^2', { type: 'UnaryExpr', op: '-', expr: { type: 'BinaryExpr', op: '^', lhs: num(1, 1, 2), rhs: num(2, 3, 4) } }],
    ['-1*2', { type: 'BinaryExpr', op: '*', lhs: num(-1, 0, 2), rhs: num(2, 3, 4) }],
    ['-1^-2', { type: 'UnaryExpr', expr: { op: '^', rhs: num(-2, 3, 5) } }],
    ['+1 + -2 * 1', { op: '+', lhs: num(1, 0, 2), rhs: { op: '*', lhs: num(-2, 5, 7), rhs: num(1, 10, 11) } }],
    ['2 ^ 3 ^ 2', { op: '^', lhs: num(2, 0, 1), rhs: { op: '^', lhs: num(3, 4, 5) } }],
    ['1 < bool 2 - 1 * 2', { op: '<', returnBool: true, rhs: { op: '-', rhs: { op: '*' } } }],
    [' +some_metric', { type: 'UnaryExpr', op: '+', pos: { start: 1, end: 13 }, expr: vs('some_metric', 2, 13) }],
    [' +{"some_metric"}', { type: 'UnaryExpr', expr: vs('', 2, 17, { matchers: [{ name: '__name__', type: '=', value: 'some_metric' }] }) }],
    ['foo * bar', { op: '*', matching: { card: 'one-to-one', matchingLabels: [], on: false, include: [] } }],
    ['foo == 1', { op: '==', matching: null, returnBool: false }],
    ['foo and bar', { op: 'and', matching: { card: 'many-to-many' } }],
    ['foo + bar or bla and blub', { op: 'or', lhs: { op: '+' }, rhs: { op: 'and', lhs: vs('bla', 13, 16), rhs: vs('blub', 21, 25) } }],
    ['foo and bar unless baz or qux', { op: 'or', lhs: { op: 'unless', lhs: { op: 'and' } } }],
    [
      'bar + on(foo) bla / on(baz, buz) group_right(test) blub',
      {
        op: '+',
        matching: { card: 'one-to-one', matchingLabels: ['foo'], on: true },
        rhs: { op: '/', matching: { card: 'one-to-many', matchingLabels: ['baz', 'buz'], on: true, include: ['test'] } },
      },
    ],
    ['foo / ignoring(test,blub) group_left(blub) bar', { matching: { card: 'many-to-one', on: false, include: ['blub'] } }],
    ['a </ 0.5', { op: '</', matching: null }],
    ['a + fill_right(2) fill_left(-1) b', { matching: { fillValues: { lhs: -1, rhs: 2 } } }],
    ['foo:bar{a="bc"}', vs('foo:bar', 0, 15, { matchers: [{ name: 'a', value: 'bc' }, { name: '__name__', value: 'foo:bar' }] })],
    [
      `{'foo\\'bar', 'a\\\\dos\\\\path'='boo\\\\urns'}`,
      vs('', 0, 40, { matchers: [{ name: '__name__', value: "foo'bar" }, { name: 'a\\dos\\path', value: 'boo\\urns' }] }),
    ],
    ['foo{NaN=\'bc\'}', vs('foo', 0, 13, { matchers: [{ name: 'NaN', value: 'bc' }, {}] })],
    ['foo{bar=\'}\'}', vs('foo', 0, 12)],
    ['{__name__="bar", __name__="baz"}', vs('', 0, 32)],
    ['foo offset 5m', vs('foo', 0, 13, { offsetMs: 300000 })],
    ['foo offset -7m', vs('foo', 0, 14, { offsetMs: -420000 })],
    ['foo OFFSET 1m30ms', vs('foo', 0, 17, { offsetMs: 60030 })],
    ['foo @ 1603774568', vs('foo', 0, 16, { timestampMs: 1603774568000 })],
    ['foo @ -100', { timestampMs: -100000 }],
    ['foo @ .3', { timestampMs: 300 }],
    ['foo @ 3.3335', { timestampMs: 3334 }],
    ['foo @ 0xA', { timestampMs: 10000 }],
    ['foo @ -3.3e1', { timestampMs: -33000 }],
    ['foo @ 1m', { timestampMs: 60000 }],
    ['foo @ start()', vs('foo', 0, 13, { startOrEnd: 'start', timestampMs: null })],
    ['test[1001ms]', { type: 'MatrixSelector', rangeMs: 1001, pos: { start: 0, end: 12 }, vectorSelector: vs('test', 0, 4) }],
    ['foo[4.18] @ 2.345', { rangeMs: 4180, pos: { start: 0, end: 17 }, vectorSelector: { timestampMs: 2345 } }],
    ['test[5y] @ start()', { rangeMs: 5 * 365 * 86400000, pos: { end: 18 }, vectorSelector: { startOrEnd: 'start' } }],
    ['test{a="b"}[5m] OFFSET 3600', { rangeMs: 300000, pos: { end: 27 }, vectorSelector: { offsetMs: 3600000 } }],
    ['test[5]', { rangeMs: 5000, rangeExpr: null }],
    ['sum by (foo)(some_metric)', { type: 'AggregateExpr', op: 'sum', grouping: ['foo'], without: false, hasGrouping: true, pos: { start: 0, end: 25 }, expr: vs('some_metric', 13, 24) }],
    ['sum (some_metric) without (foo)', { op: 'sum', without: true, grouping: ['foo'], pos: { start: 0, end: 31 }, expr: vs('some_metric', 5, 16) }],
    ['sum by ()(some_metric)', { grouping: [], hasGrouping: true }],
    ['stddev(some_metric)', { op: 'stddev', grouping: [], hasGrouping: false, param: null, pos: { start: 0, end: 19 } }],
    ['sum by ("foo", bar, \'baz\')({"some.metric"})', { grouping: ['foo', 'bar', 'baz'], pos: { end: 43 } }],
    ['sum without(and, by, avg, count, alert, annotations)(some_metric)', { grouping: ['and', 'by', 'avg', 'count', 'alert', 'annotations'] }],
    ['topk(5, some_metric)', { op: 'topk', param: num(5, 5, 6), expr: vs('some_metric', 8, 19), pos: { end: 20 } }],
    ['count_values("value", some_metric)', { param: { type: 'StringLiteral', value: 'value', pos: { start: 13, end: 20 } } }],
    ['COUNT_VALUES("v", x)', { op: 'count_values' }],
    ['(sum(foo) by (bar))', { type: 'ParenExpr', pos: { start: 0, end: 19 }, expr: { pos: { start: 1, end: 18 } } }],
    ['time()', { type: 'Call', func: { name: 'time' }, args: [], pos: { start: 0, end: 6 } }],
    ['rate(some_metric[5m])', { type: 'Call', pos: { start: 0, end: 21 }, args: [{ type: 'MatrixSelector', pos: { start: 5, end: 20 } }] }],
    ['round(some_metric, 5)', { args: [{}, num(5, 19, 20)] }],
    ['foo{bar="baz"}[10m5s:1h6ms]', { type: 'SubqueryExpr', rangeMs: 605000, stepMs: 3600006, pos: { start: 0, end: 27 } }],
    ['foo[10m:]', { type: 'SubqueryExpr', rangeMs: 600000, stepMs: 0, stepExpr: null, pos: { end: 9 } }],
    ['some_metric OFFSET 1m [10m:5s]', { type: 'SubqueryExpr', expr: vs('some_metric', 0, 21, { offsetMs: 60000 }), pos: { end: 30 } }],
    ['some_metric[10m:5s] offset 1m @ 123', { type: 'SubqueryExpr', offsetMs: 60000, timestampMs: 123000, pos: { end: 35 } }],
    ['(foo + bar{nm="val"})[5m:] offset 10m', { type: 'SubqueryExpr', offsetMs: 600000, expr: { type: 'ParenExpr' }, pos: { end: 37 } }],
    ['foo[11s+10s-5*2^2]', { rangeMs: 0, rangeExpr: { op: '-', lhs: { op: '+', lhs: num(11, 4, 7) }, rhs: { op: '*', rhs: { op: '^' } } } }],
    ['foo[-(10s-5s)+20s]', { rangeExpr: { op: '+', lhs: { op: '-', lhs: null, rhs: { op: '-', wrapped: true } }, rhs: num(20, 14, 17) } }],
    ['foo[-10s+15s]', { rangeExpr: { op: '+', lhs: num(-10, 4, 8) } }],
    ['foo[  -  step  (  )  ]', { rangeExpr: { op: '-', lhs: null, pos: { start: 6, end: 19 }, rhs: { op: 'step', pos: { start: 9, end: 19 } } } }],
    ['foo[max_of(range(),5s)]', { rangeExpr: { op: 'max_of', pos: { start: 4, end: 22 }, lhs: { op: 'range' }, rhs: num(5, 19, 21) } }],
    ['foo offset -min_of(5s,step()+8s)', vs('foo', 0, 32, { offsetExpr: { op: '-', rhs: { op: 'min_of', pos: { start: 12, end: 31 } } } })],
    ['foo[4s+4s:1s*2] offset (5s-8)', { type: 'SubqueryExpr', stepExpr: { op: '*' }, offsetExpr: { op: '-', wrapped: true } }],
    ['foo offset 5s-8', { type: 'BinaryExpr', op: '-', lhs: vs('foo', 0, 13, { offsetMs: 5000 }), rhs: num(8, 14, 15) }],
    ['foo offset -1^1', { op: '^', lhs: { offsetMs: -1000 } }],
    ['foo offset -(1^2)', { offsetExpr: { op: '-', rhs: { op: '^', wrapped: true } } }],
    ['foo offset (-1^2)', { offsetExpr: { op: '-', wrapped: true, rhs: { op: '^' } } }],
    ['foo offset (1m) * 2', { type: 'VectorSelector', offsetExpr: { op: '*', lhs: num(60, 12, 14) } }],
    ['foo offset --1m + 2', { type: 'VectorSelector', offsetExpr: { op: '+', lhs: num(60, 11, 15) } }],
    ['foo[0+-2^2]', { rangeExpr: { op: '+', rhs: { op: '-', lhs: null, rhs: { op: '^' } } } }],
    ['foo anchored', { type: 'VectorSelector', anchored: true }],
    // Keywords are metric names where an expression is expected.
    ['offset{step="1s"}[5m]', { type: 'MatrixSelector', vectorSelector: vs('offset', 0, 17) }],
    ['step{offset="1s"}[5m]', { vectorSelector: { name: 'step' } }],
    ['anchored{job="test"}', vs('anchored', 0, 20)],
    ['smoothed offset 5m', { name: 'smoothed', offsetMs: 300000 }],
    ['min', vs('min', 0, 3)],
    ['sum(sum)', { op: 'sum', expr: vs('sum', 4, 7) }],
    ['a + sum', { rhs: vs('sum', 4, 7) }],
    ['start{end="foo"}', vs('start', 0, 16)],
    ['end', vs('end', 0, 3)],
    ['start()', { type: 'Call', func: { name: 'start' }, pos: { start: 0, end: 7 } }],
    ['foo unless on(start) bar', { matching: { matchingLabels: ['start'] } }],
    ['fill + fill_left', { op: '+', lhs: vs('fill', 0, 4), rhs: vs('fill_left', 7, 16) }],
    ['by + without + and + or + unless', { op: '+' }],
    ['min_of', vs('min_of', 0, 6)],
    ['"double-quoted string \\" with escaped quote"', { type: 'StringLiteral', value: 'double-quoted string " with escaped quote', pos: { end: 44 } }],
    ['`backtick-quoted string`', { value: 'backtick-quoted string' }],
    [
      '"\\a\\b\\f\\n\\r\\t\\v\\\\\\" - \\u1234\\U00010111\\U0001011111☺"',
      { value: '\x07\b\f\n\r\t\v\\" - \u1234\u{10111}\u{10111}11☺' },
    ],
    ['info(http_request_counter_total{namespace="zzz"}, {foo="bar", bar="baz"})', { type: 'Call', args: [{}, vs('', 50, 72)] }],
    ['# comment\nfoo # and another\n', vs('foo', 10, 13)],
  ])('%j', (input, want) => check(input, want));

  it('reads NaN', () => {
    const e = parseExpr('NaN');
    expect(e.type === 'NumberLiteral' && Number.isNaN(e.value)).toBe(true);
  });

  it('reports byte offsets for non-ASCII input', () => {
    check('{"ä"="ö"} + x', { lhs: vs('', 0, 11), rhs: vs('x', 14, 15) });
  });
});

describe('parseMetricSelector', () => {
  it.each<[string, [string, string, string][]]>([
    ['up', [['__name__', '=', 'up']]],
    ['foo{a="b", c=~"d.*"}', [['a', '=', 'b'], ['c', '=~', 'd.*'], ['__name__', '=', 'foo']]],
    ['{__name__=~"llm_.*"}', [['__name__', '=~', 'llm_.*']]],
    ['{"a.b", "c d"!="e"}', [['__name__', '=', 'a.b'], ['c d', '!=', 'e']]],
    ['sum', [['__name__', '=', 'sum']]],
    ['{}', []],
  ])('%j', (input, want) => {
    expect(parseMetricSelector(input).map((m) => [m.name, m.type, m.value])).toEqual(want);
  });

  it.each<[string, string]>([
    ['foo bar', '1:5: parse error: unexpected identifier "bar"'],
    ['foo[5m]', '1:4: parse error: unexpected "["'],
    ['rate(x)', '1:5: parse error: unexpected "("'],
    ['{a=~"("}', '1:2: parse error: error parsing regexp: missing closing ): `(`'],
    ['', 'unknown position: parse error: unexpected end of input'],
  ])('rejects %j', (input, message) => {
    expect(() => parseMetricSelector(input)).toThrow(message);
  });
});

describe('parseMetric', () => {
  it.each<[string, Record<string, string>]>([
    ['foo', { __name__: 'foo' }],
    ['foo{a="b", c="d"}', { __name__: 'foo', a: 'b', c: 'd' }],
    ['{a="b"}', { a: 'b' }],
    ['{"http.requests", "service.name"="api"}', { __name__: 'http.requests', 'service.name': 'api' }],
    ['{}', {}],
    ['', {}],
  ])('%j', (input, want) => {
    expect(parseMetric(input).toRecord()).toEqual(want);
  });

  it.each<[string, string]>([
    ['{"http.requests"xx}', '1:17: parse error: unexpected identifier "xx" in label set, expected "," or "}"'],
    ['{"http.requests"=, x="y"}', '1:18: parse error: unexpected "," in label set, expected string'],
    ['{a}', '1:3: parse error: unexpected "}" in label set, expected "="'],
    ['{a!="b"}', '1:3: parse error: unexpected <op:!=> in label set, expected "="'],
    ['{,}', '1:2: parse error: unexpected "," in label set, expected identifier or "}"'],
    ['{"http.requests}', '1:2: parse error: unterminated quoted string'],
  ])('rejects %j', (input, message) => {
    expect(() => parseMetric(input)).toThrow(message);
  });
});

describe('FUNCTIONS', () => {
  it('holds the 90 functions of Prometheus 3.14 and no aggregations', () => {
    expect(FUNCTIONS.size).toBe(90);
    expect(getFunction('holt_winters')).toBeUndefined();
    expect(getFunction('sum')).toBeUndefined();
    expect(getFunction('Rate')).toBeUndefined();
    expect(getFunction('histogram_quantiles')).toEqual({
      name: 'histogram_quantiles',
      argTypes: ['vector', 'string', 'scalar', 'scalar'],
      variadic: 9,
      returnType: 'vector',
      experimental: true,
    });
    expect(getFunction('label_join')?.variadic).toBe(-1);
    expect(getFunction('round')).toMatchObject({ argTypes: ['vector', 'scalar'], variadic: 1 });
  });

  it.each([
    ['day_of_month()', true],
    ['day_of_month(x)', true],
    ['label_join(x, "d", ",")', true],
    ['label_join(x, "d", ",", "a", "b", "c", "e")', true],
    ['histogram_quantiles(x, "q", 0.5, 0.6, 0.7, 0.8, 0.9, 0.91, 0.92, 0.93, 0.94, 0.95)', true],
    ['histogram_quantiles(x, "q", 0.5, 0.6, 0.7, 0.8, 0.9, 0.91, 0.92, 0.93, 0.94, 0.95, 0.96)', false],
    ['sort_by_label(x)', true],
    ['info(x)', true],
    ['info(x, {a="b"}, {c="d"})', false],
  ])('arity of %s: ok=%s', (input, ok) => {
    if (ok) expect(() => parseExpr(input, OPTS)).not.toThrow();
    else expect(() => parseExpr(input, OPTS)).toThrow(ParseError);
  });
});
