import { describe, expect, it } from 'vitest';
import { ParseError, type ParserOptions, parseExpr } from './index.js';

/** Prometheus' own test options (parse_test.go): experimental functions and duration expressions. */
const UPSTREAM: ParserOptions = { enableExperimentalFunctions: true, enableDurationExpressions: true };

/**
 * check(input, message, start, end): parsing fails with exactly Prometheus' `ParseErr.Error()`
 * text and byte range. Most rows come from Prometheus' parse_test.go.
 */
function check(input: string, message: string, start: number, end: number, opts: ParserOptions = UPSTREAM): void {
  let err: unknown;
  try {
    parseExpr(input, opts);
  } catch (e) {
    err = e;
  }
  expect(err, `no error for ${input}`).toBeInstanceOf(ParseError);
  const pe = err as ParseError;
  expect({ message: pe.message, start: pe.positionRange.start, end: pe.positionRange.end }).toEqual({ message, start, end });
}

type Row = [input: string, message: string, start: number, end: number];

describe('lexer errors', () => {
  it.each<Row>([
    ['.', "1:1: parse error: unexpected character: '.'", 0, 1],
    ['2.5.', '1:1: parse error: bad number or duration syntax: "2.5."', 0, 4],
    ['100..4', '1:1: parse error: bad number or duration syntax: "100.."', 0, 6],
    ['0deadbeef', '1:1: parse error: bad number or duration syntax: "0de"', 0, 9],
    ['(1))', "1:5: parse error: unexpected right parenthesis ')'", 4, 4],
    ['((1)', '1:5: parse error: unclosed left parenthesis', 4, 4],
    ['(', '1:2: parse error: unclosed left parenthesis', 1, 1],
    ['sum(', '1:5: parse error: unclosed left parenthesis', 4, 4],
    ['sum(rate(', '1:10: parse error: unclosed left parenthesis', 9, 9],
    ['1 !~ 1', "1:3: parse error: unexpected character after '!': '~'", 2, 6],
    ['1 =~ 1', "1:3: parse error: unexpected character after '=': '~'", 2, 6],
    ['{', '1:2: parse error: unexpected end of input inside braces', 1, 1],
    ['}', "1:1: parse error: unexpected character: '}'", 0, 1],
    ['some{', '1:6: parse error: unexpected end of input inside braces', 5, 5],
    ['some}', "1:5: parse error: unexpected character: '}'", 4, 5],
    ['some_metric{a:b="b"}', "1:14: parse error: unexpected character inside braces: ':'", 13, 20],
    ['foo{a*"b"}', "1:6: parse error: unexpected character inside braces: '*'", 5, 10],
    ['foo{a$="b"}', "1:6: parse error: unexpected character inside braces: '$'", 5, 11],
    ['foo{1}', "1:5: parse error: unexpected character inside braces: '1'", 4, 6],
    ['foo[5mm]', '1:5: parse error: bad number or duration syntax: "5mm"', 4, 8],
    ['foo[5m1]', '1:5: parse error: bad number or duration syntax: "5m1"', 4, 8],
    ['foo[5m:1m1]', '1:8: parse error: bad number or duration syntax: "1m1"', 7, 11],
    ['foo["5m"]', `1:5: parse error: unexpected character in duration expression: '"'`, 4, 9],
    ['some_metric[5m] OFFSET 1mm', '1:24: parse error: bad number or duration syntax: "1mm"', 23, 26],
    ['sum by ("foo)(some_metric{})', '1:9: parse error: unterminated quoted string', 8, 28],
    ['`\\``', '1:4: parse error: unterminated raw string', 3, 4],
    ['"\\', '1:1: parse error: escape sequence not terminated', 0, 2],
    ['"\\c"', "1:1: parse error: unknown escape sequence U+0063 'c'", 0, 4],
    ['"\\x."', "1:1: parse error: illegal character U+002E '.' in escape sequence", 0, 5],
    ['foo{bar="baz"}[', '1:16: parse error: unexpected end of input in duration expression', 15, 15],
    ['foo[5s x 5s]', "1:8: parse error: unexpected character: 'x', expected ':'", 7, 12],
    ['foo[5s s 5s]', "1:8: parse error: unexpected character: 's', expected ':'", 7, 12],
    ['foo[5m', '1:7: parse error: unclosed left bracket', 6, 6],
    ['"\\777"', '1:1: parse error: escape sequence is an invalid Unicode code point', 0, 6],
    ['"ab\ncd"', '1:1: parse error: unterminated quoted string', 0, 7],
    ['foo ! bar', "1:5: parse error: unexpected character after '!': ' '", 4, 9],
  ])('%j', (input, message, start, end) => check(input, message, start, end));
});

describe('syntax errors', () => {
  it.each<Row>([
    ['', 'unknown position: parse error: no expression found in input', 0, 0],
    ['# just a comment\n\n', '1:1: parse error: no expression found in input', 0, 0],
    ['1+', '1:3: parse error: unexpected end of input', 2, 2],
    ['1 /', '1:4: parse error: unexpected end of input', 3, 3],
    ['*1', '1:1: parse error: unexpected <op:*>', 0, 1],
    ['*test', '1:1: parse error: unexpected <op:*>', 0, 1],
    ['@@', '1:1: parse error: unexpected <op:@>', 0, 1],
    ['a - on(b) ignoring(c) d', '1:11: parse error: unexpected <ignoring>', 10, 18],
    ['foo + group_left(baz) bar', '1:7: parse error: unexpected <group_left>', 6, 16],
    ['some_metric{a=b}', '1:15: parse error: unexpected identifier "b" in label matching, expected string', 14, 15],
    ['foo{gibberish}', '1:14: parse error: unexpected "}" in label matching, expected label matching operator', 13, 14],
    ['foo{__name__= =}', '1:15: parse error: unexpected "=" in label matching, expected string', 14, 15],
    ['foo{,}', '1:5: parse error: unexpected "," in label matching, expected identifier or "}"', 4, 5],
    ['foo{__name__ == "bar"}', '1:15: parse error: unexpected "=" in label matching, expected string', 14, 15],
    ['foo{__name__="bar" lol}', '1:20: parse error: unexpected identifier "lol" in label matching, expected "," or "}"', 19, 22],
    ['foo{"a"=}', '1:9: parse error: unexpected "}" in label matching, expected string', 8, 9],
    ['foo[]', '1:5: parse error: unexpected "]" in subquery or range selector, expected number, duration, step(), or range()', 4, 5],
    ['foo[step]', '1:9: parse error: unexpected "]" in subquery or range selector, expected number, duration, step(), or range()', 8, 9],
    ['foo[5m 1]', '1:8: parse error: unexpected number "1" in subquery or range, expected ":" or "]"', 7, 8],
    ['foo[5m:1m 2]', '1:11: parse error: unexpected number "2" in subquery selector, expected "]"', 10, 11],
    ['foo[5m:+]', '1:9: parse error: unexpected "]" in subquery selector, expected number, duration, step(), range(), or "]"', 8, 9],
    ['some_metric[5m] OFFSET', '1:23: parse error: unexpected end of input in offset, expected number, duration, step(), or range()', 22, 22],
    ['foo offset bar', '1:12: parse error: unexpected identifier "bar" in offset, expected number, duration, step(), or range()', 11, 14],
    ['some_metric[5m] @', '1:18: parse error: unexpected end of input in @, expected timestamp', 17, 17],
    ['foo @ start(1)', '1:13: parse error: unexpected number "1" in @, expected timestamp', 12, 13],
    ['sum without(==)(some_metric)', '1:13: parse error: unexpected <op:==> in grouping opts, expected label', 12, 14],
    ['sum without(,)(some_metric)', '1:13: parse error: unexpected "," in grouping opts, expected label', 12, 13],
    ['sum without(foo,,)(some_metric)', '1:17: parse error: unexpected "," in grouping opts, expected label', 16, 17],
    ['sum by (a b) (x)', '1:11: parse error: unexpected identifier "b" in grouping opts, expected "," or ")"', 10, 11],
    ['sum by (nan) (x)', '1:9: parse error: unexpected number "nan" in grouping opts, expected label', 8, 11],
    ['sum some_metric by (test)', '1:5: parse error: unexpected identifier "some_metric"', 4, 15],
    ['sum (some_metric) by test', '1:22: parse error: unexpected identifier "test" in grouping opts, expected "("', 21, 25],
    ['MIN keep_common (some_metric)', '1:5: parse error: unexpected identifier "keep_common"', 4, 15],
    ['MIN (some_metric) keep_common', '1:19: parse error: unexpected identifier "keep_common"', 18, 29],
    ['sum (some_metric) without (test) by (test)', '1:34: parse error: unexpected <by>', 33, 35],
    ['sum without (test) (some_metric) by (test)', '1:34: parse error: unexpected <by>', 33, 35],
    ['sum by (a) foo', '1:12: parse error: unexpected identifier "foo" in aggregation', 11, 14],
    ['sum(1 2)', '1:7: parse error: unexpected number "2" in aggregation', 6, 7],
    ['rate(1 2)', '1:8: parse error: unexpected number "2"', 7, 8],
    ['topk(some_metric,)', '1:17: parse error: trailing commas not allowed in function call args', 16, 17],
    ['-=', '1:2: parse error: unexpected "="', 1, 2],
    ['++-++-+-+-<', '1:11: parse error: unexpected <op:<>', 10, 11],
    ['e-+=/(0)', '1:4: parse error: unexpected "="', 3, 4],
    ['foo bar', '1:5: parse error: unexpected identifier "bar"', 4, 7],
    ['foo "a very long string"', '1:5: parse error: unexpected string "\\"a very lo"...', 4, 24],
    ['foo > on(a) bool bar', '1:13: parse error: unexpected <bool>', 12, 16],
    ['foo + fill(bar) baz', '1:12: parse error: unexpected identifier "bar"', 11, 14],
    ['sum(x) by (a) (b)', '1:15: parse error: unexpected "("', 14, 15],
    ['()', '1:2: parse error: unexpected ")"', 1, 2],
    ['foo offset 5m\n  + bar baz', '2:9: parse error: unexpected identifier "baz"', 22, 25],
  ])('%j', (input, message, start, end) => check(input, message, start, end));
});

describe('semantic errors', () => {
  it.each<Row>([
    ['999' + '9'.repeat(306), `1:1: parse error: error parsing number: strconv.ParseFloat: parsing "${'9'.repeat(309)}": value out of range`, 0, 309],
    ['1 offset 1d', '1:1: parse error: offset modifier must be preceded by an instant vector selector or range vector selector or a subquery', 0, 1],
    ['foo offset 1s offset 2s', '1:1: parse error: offset may not be set multiple times', 0, 13],
    ['foo @ 1 @ 2', '1:1: parse error: @ <timestamp> may not be set multiple times', 0, 7],
    ['foo @ +Inf', '1:1: parse error: timestamp out of bounds for @ modifier: +Inf', 0, 3],
    ['foo @ -Inf', '1:1: parse error: timestamp out of bounds for @ modifier: -Inf', 0, 3],
    ['foo @ NaN', '1:1: parse error: timestamp out of bounds for @ modifier: NaN', 0, 3],
    ['foo @ 9223372036854775808.000000', '1:1: parse error: timestamp out of bounds for @ modifier: 9223372036854775808.000000', 0, 3],
    ['foo @ -9223372036854775808.000000', '1:1: parse error: timestamp out of bounds for @ modifier: -9223372036854775808.000000', 0, 3],
    ['rate(some_metric[5m]) @ 1234', '1:1: parse error: @ modifier must be preceded by an instant vector selector or range vector selector or a subquery', 0, 21],
    ['foo[5y1hs]', '1:5: parse error: unknown unit "hs" in duration "5y1hs"', 4, 9],
    ['foo[5m1h]', '1:5: parse error: not a valid duration string: "5m1h"', 4, 8],
    ['foo[5m1m]', '1:5: parse error: not a valid duration string: "5m1m"', 4, 8],
    ['foo[0m]', '1:5: parse error: duration must be greater than 0', 4, 6],
    ['foo[-1]', '1:5: parse error: duration must be greater than 0', 4, 6],
    ['some_metric OFFSET 1m[5m]', '1:22: parse error: no offset modifiers allowed before range', 21, 25],
    ['some_metric @ 1234 [5m]', '1:20: parse error: no @ modifiers allowed before range', 19, 23],
    ['(foo + bar)[5m]', '1:12: parse error: ranges only allowed for vector selectors', 11, 15],
    ['rate(food[1m])[1h] offset 1h', '1:15: parse error: ranges only allowed for vector selectors', 14, 18],
    ['sum () by (test)', '1:1: parse error: no arguments for aggregate expression provided', 0, 16],
    ['topk(some_metric)', '1:1: parse error: wrong number of arguments for aggregate expression provided, expected 2, got 1', 0, 17],
    ['non_existent_function_far_bar()', '1:1: parse error: unknown function with name "non_existent_function_far_bar"', 0, 29],
    ['a>b()', '1:3: parse error: unknown function with name "b"', 2, 3],
    ['holt_winters(foo[5m], 0.5, 0.5)', '1:1: parse error: unknown function with name "holt_winters"', 0, 12],
    ['foo[step()/0d]', '1:11: parse error: division by zero', 10, 11],
    ['foo[5s/0d]', '1:7: parse error: division by zero', 6, 7],
    ['foo offset (4d/0)', '1:15: parse error: division by zero', 14, 15],
    ['foo[5s%0d]', '1:7: parse error: modulo by zero', 6, 7],
    ['foo offset 9.5e10', '1:12: parse error: duration out of range', 11, 17],
    ['foo[9.5e10]', '1:5: parse error: duration out of range', 4, 10],
    ['foo{a=~"("}', '1:5: parse error: error parsing regexp: missing closing ): `(`', 4, 10],
    ['sum by ("") (x)', '1:9: parse error: invalid label name for grouping: ""', 8, 10],
  ])('%j', (input, message, start, end) => check(input, message, start, end));
});

describe('type errors (checkAST)', () => {
  it.each<Row>([
    ['1 and 1', '1:1: parse error: set operator "and" not allowed in binary scalar expression', 0, 7],
    ['1 == 1', '1:3: parse error: comparisons between scalars must use BOOL modifier', 2, 3],
    ['1 or 1', '1:1: parse error: set operator "or" not allowed in binary scalar expression', 0, 6],
    ['1 unless 1', '1:1: parse error: set operator "unless" not allowed in binary scalar expression', 0, 10],
    ['-"string"', '1:1: parse error: unary expression only allowed on expressions of type scalar or instant vector, got "string"', 0, 9],
    ['-test[5m]', '1:1: parse error: unary expression only allowed on expressions of type scalar or instant vector, got "range vector"', 0, 9],
    ['foo and 1', '1:1: parse error: set operator "and" not allowed in binary scalar expression', 0, 9],
    ['1 and foo', '1:1: parse error: set operator "and" not allowed in binary scalar expression', 0, 9],
    ['foo unless 1', '1:1: parse error: set operator "unless" not allowed in binary scalar expression', 0, 12],
    ['1 or on(bar) foo', '1:1: parse error: vector matching only allowed between instant vectors', 0, 16],
    ['foo == on(bar) 10', '1:1: parse error: vector matching only allowed between instant vectors', 0, 17],
    ['foo and on(bar) group_left(baz) bar', '1:1: parse error: no grouping allowed for "and" operation', 0, 35],
    ['foo or on(bar) group_right(baz) bar', '1:1: parse error: no grouping allowed for "or" operation', 0, 35],
    ['foo unless on(bar) group_left(baz) bar', '1:1: parse error: no grouping allowed for "unless" operation', 0, 38],
    [
      'http_requests{group="production"} + on(instance) group_left(job,instance) cpu_count{type="smp"}',
      '1:35: parse error: label "instance" must not occur in ON and GROUP clause at once',
      34,
      72,
    ],
    ['foo + bool bar', '1:5: parse error: bool modifier can only be used on comparison operators', 4, 9],
    ['foo + bool 10', '1:5: parse error: bool modifier can only be used on comparison operators', 4, 9],
    ['foo and bool 10', '1:5: parse error: bool modifier can only be used on comparison operators', 4, 11],
    ['foo[5m] + 1', '1:1: parse error: binary expression must contain only scalar and instant vector types', 0, 7],
    ['{}', '1:1: parse error: vector selector must contain at least one non-empty matcher', 0, 2],
    ['{x=""}', '1:1: parse error: vector selector must contain at least one non-empty matcher', 0, 6],
    ['{x=~".*"}', '1:1: parse error: vector selector must contain at least one non-empty matcher', 0, 9],
    ['{x!~".+"}', '1:1: parse error: vector selector must contain at least one non-empty matcher', 0, 9],
    ['{x!="a"}', '1:1: parse error: vector selector must contain at least one non-empty matcher', 0, 8],
    ['foo{__name__="bar"}', '1:1: parse error: metric name must not be set twice: "foo" or "bar"', 0, 19],
    ['topk(some_metric, other_metric)', '1:6: parse error: expected type scalar in aggregation parameter, got instant vector', 5, 16],
    ['count_values(5, other_metric)', '1:14: parse error: expected type string in aggregation parameter, got scalar', 13, 14],
    ['sum(1)', '1:5: parse error: expected type instant vector in aggregation expression, got scalar', 4, 5],
    ['floor()', '1:1: parse error: expected 1 argument(s) in call to "floor", got 0', 0, 7],
    ['floor(some_metric, other_metric)', '1:1: parse error: expected 1 argument(s) in call to "floor", got 2', 0, 32],
    ['floor(some_metric, 1)', '1:1: parse error: expected 1 argument(s) in call to "floor", got 2', 0, 21],
    ['floor(1)', '1:7: parse error: expected type instant vector in call to function "floor", got scalar', 6, 7],
    ['hour(some_metric, some_metric, some_metric)', '1:1: parse error: expected at most 1 argument(s) in call to "hour", got 3', 0, 43],
    ['time(some_metric)', '1:1: parse error: expected 0 argument(s) in call to "time", got 1', 0, 17],
    ['label_join(foo)', '1:1: parse error: expected at least 3 argument(s) in call to "label_join", got 1', 0, 15],
    ['rate(some_metric)', '1:6: parse error: expected type range vector in call to function "rate", got instant vector', 5, 16],
    ['rate(avg)', '1:6: parse error: expected type range vector in call to function "rate", got instant vector', 5, 8],
    ['label_replace(foo, 1, 2, 3, 4)', '1:20: parse error: expected type string in call to function "label_replace", got scalar', 19, 20],
    ['test[5d] OFFSET 10s [10m:5s]', '1:1: parse error: subquery is only allowed on instant vector, got matrix instead', 0, 28],
    ['(foo + bar{nm="val"})[5m:][10m:5s]', '1:1: parse error: subquery is only allowed on instant vector, got matrix instead', 0, 34],
    [
      'info(rate(http_request_counter_total{}[5m]), target_info{foo="bar"})',
      '1:46: parse error: expected label selectors only, got vector selector instead',
      45,
      67,
    ],
    ['info(http_request_counter_total{namespace="zzz"}, {foo="bar"} == 1)', '1:51: parse error: expected label selectors only', 50, 66],
  ])('%j', (input, message, start, end) => check(input, message, start, end));
});

describe('gated features (a stock server: everything off)', () => {
  it.each<Row>([
    ['foo[5m+1m]', '1:5: parse error: experimental duration expression is not enabled', 4, 6],
    ['foo[5m+1m*2]', '1:8: parse error: experimental duration expression is not enabled', 7, 9],
    ['foo offset step()', '1:12: parse error: experimental duration expression is not enabled', 11, 17],
    ['foo offset (5m)', '1:13: parse error: experimental duration expression is not enabled', 12, 14],
    ['foo[min_of(step(), 1s)]', '1:12: parse error: experimental duration expression is not enabled', 11, 17],
    ['foo[5m] anchored', '1:1: parse error: anchored modifier is experimental and not enabled', 0, 7],
    ['foo smoothed', '1:1: parse error: smoothed modifier is experimental and not enabled', 0, 3],
    ['foo + fill(0) bar', '1:1: parse error: binop fill modifiers are experimental and not enabled', 0, 17],
    ['foo + fill_left(1) fill_right(2) bar', '1:1: parse error: binop fill modifiers are experimental and not enabled', 0, 36],
    ['limitk(1, foo)', '1:1: parse error: limitk() is experimental and must be enabled with --enable-feature=promql-experimental-functions', 0, 14],
    ['LIMIT_RATIO(0.5, foo)', '1:1: parse error: limit_ratio() is experimental and must be enabled with --enable-feature=promql-experimental-functions', 0, 21],
    ['mad_over_time(foo[5m])', '1:1: parse error: function "mad_over_time" is not enabled', 0, 13],
    ['step()', '1:1: parse error: function "step" is not enabled', 0, 4],
    ['min_of(1, 2)', '1:1: parse error: function "min_of" is not enabled', 0, 6],
  ])('%j', (input, message, start, end) => check(input, message, start, end, {}));

  it.each<Row>([
    ['foo[5m] anchored smoothed', '1:1: parse error: anchored and smoothed modifiers cannot be used together', 0, 7],
    ['foo[5m:] anchored', '1:1: parse error: anchored modifier is not supported for subqueries', 0, 8],
    ['rate(foo[5m]) smoothed', '1:1: parse error: smoothed modifier not implemented', 0, 13],
    ['foo and fill(1) bar', '1:1: parse error: filling in missing series not allowed for set operators', 0, 19],
    ['foo + fill(1) 2', '1:1: parse error: filling in missing series only allowed between instant vectors', 0, 15],
  ])('with the features on: %j', (input, message, start, end) =>
    check(input, message, start, end, { enableExtendedRangeSelectors: true, enableBinopFillModifiers: true }),
  );
});

describe('ParseError', () => {
  it('counts lines and byte columns, and renders a caret under the range', () => {
    let err: ParseError | undefined;
    try {
      parseExpr('sum(rate(x[5m]))\n  + € bar');
    } catch (e) {
      err = e as ParseError;
    }
    expect(err?.message).toBe("2:5: parse error: unexpected character: '€'");
    expect(err?.positionRange).toEqual({ start: 21, end: 28 });
    expect(err?.code).toBe('ERR_PROMQL_PARSE');
    expect(err?.render()).toBe(
      ["2:5: parse error: unexpected character: '€'", '', '1 | sum(rate(x[5m]))', '2 |   + € bar', '  |     ^^^^^'].join('\n'),
    );
  });
});
