import { describe, expect, it } from 'vitest';
import { exprToString, parseExpr } from './index.js';

const ALL_ON = {
  enableExperimentalFunctions: true,
  enableDurationExpressions: true,
  enableExtendedRangeSelectors: true,
  enableBinopFillModifiers: true,
};

/** check(input, want): Prometheus' `String()` of the parsed input; `want` '' means "unchanged". */
function check(input: string, want: string): void {
  const printed = exprToString(parseExpr(input, ALL_ON));
  expect(printed).toBe(want === '' ? input : want);
  // Printing is a fixed point: the printed form parses back to the same text.
  expect(exprToString(parseExpr(printed, ALL_ON))).toBe(printed);
}

describe('exprToString', () => {
  // The first block is Prometheus' printer_test.go (TestExprString).
  it.each<[string, string]>([
    // +Inf left of `^` prints bare, or `+Inf ^ foo` would parse back as `+(Inf ^ foo)` (found by the fuzz test).
    ['Inf ^ foo', ''],
    ['+Inf + foo', ''],
    ['sum by() (task:errors:rate10s{job="s"})', 'sum(task:errors:rate10s{job="s"})'],
    ['sum by(code) (task:errors:rate10s{job="s"})', 'sum by (code) (task:errors:rate10s{job="s"})'],
    ['sum without() (task:errors:rate10s{job="s"})', 'sum without () (task:errors:rate10s{job="s"})'],
    ['sum without(instance) (task:errors:rate10s{job="s"})', 'sum without (instance) (task:errors:rate10s{job="s"})'],
    ['topk(5, task:errors:rate10s{job="s"})', ''],
    ['count_values("value", task:errors:rate10s{job="s"})', ''],
    ['a - on() c', 'a - on () c'],
    ['a - on(b) c', 'a - on (b) c'],
    ['a - on(b) group_left(x) c', 'a - on (b) group_left (x) c'],
    ['a - on(b) group_left(x, y) c', 'a - on (b) group_left (x, y) c'],
    ['a - on(b) group_left c', 'a - on (b) group_left () c'],
    ['a - on(b) group_left() (c)', 'a - on (b) group_left () (c)'],
    ['a - ignoring(b) c', 'a - ignoring (b) c'],
    ['a - ignoring() c', 'a - c'],
    ['up > bool 0', ''],
    ['a offset 1m', ''],
    ['a offset -7m', ''],
    ['a{c="d"}[5m] offset 1m', ''],
    ['a[5m] offset 1m', ''],
    ['a[12m] offset -3m', ''],
    ['a[1h:5m] offset 1m', ''],
    ['{__name__="a"}', ''],
    ['a{b!="c"}[1m]', ''],
    ['a{b=~"c"}[1m]', ''],
    ['a{b!~"c"}[1m]', ''],
    ['a @ 10', 'a @ 10.000'],
    ['a[1m] @ 10', 'a[1m] @ 10.000'],
    ['a @ start()', ''],
    ['a @ end()', ''],
    ['a[1m] @ start()', ''],
    ['a[1m] @ end()', ''],
    // Canonical spacing, keyword case, modifier order.
    ['SUM BY (group) (http_requests{job="api-server"})', 'sum by (group) (http_requests{job="api-server"})'],
    ['sum(rate(foo{a="b"}[5m] offset 1m)) by (job)', 'sum by (job) (rate(foo{a="b"}[5m] offset 1m))'],
    ['foo{b="2",a="1"}', 'foo{a="1",b="2"}'],
    ['foo offset 5m @ 100', 'foo @ 100.000 offset 5m'],
    ['foo[5m] offset 1m @ 1.5', 'foo[5m] @ 1.500 offset 1m'],
    ['foo @ -1', 'foo @ -1.000'],
    ['x[5m:] @ end() offset -1h', ''],
    ['rate(x[5m]) / on (a, "b.c") group_right ("d e") y', 'rate(x[5m]) / on (a, "b.c") group_right ("d e") y'],
    ['sum by ("a.b", c) (x)', ''],
    // Durations print as model.Duration.
    ['foo[90m]', 'foo[1h30m]'],
    ['foo[100]', 'foo[1m40s]'],
    ['foo[1.5]', 'foo[1s500ms]'],
    ['foo[14d]', 'foo[2w]'],
    ['foo[90d]', 'foo[90d]'],
    ['foo[365d]', 'foo[1y]'],
    ['foo offset 3600', 'foo offset 1h'],
    ['5m', ''],
    ['-5m', ''],
    ['foo * 1h30m', ''],
    // Numbers print in their shortest form without an exponent.
    ['1e3', '1000'],
    ['0x1f', '31'],
    ['0755', '493'],
    ['1_000', '1000'],
    ['.5', '0.5'],
    ['2.', '2'],
    ['1.5e-7', '0.00000015'],
    ['-Inf', ''],
    ['+Inf', '+Inf'],
    ['inF', '+Inf'],
    ['nan', 'NaN'],
    ['-0', ''],
    ['--1', '1'],
    ['-(1)', ''],
    ['-1 ^ 2', ''],
    ['+foo', ''],
    // Strings print as Go literals.
    [`'single'`, '"single"'],
    ['`raw\\n`', '"raw\\\\n"'],
    ['"tab\\there"', ''],
    ['"\\u263a"', '"☺"'],
    ['"\\x41\\101"', '"AA"'],
    ['"\\xe2\\x98\\xba"', '"☺"'],
    ['"\\xff"', ''],
    ['"\\x07"', '"\\a"'],
    ['"\\u00a0"', ''],
    // Quoted (UTF-8) names.
    ['{"metric.name"}', '{__name__="metric.name"}'],
    ['{"a.b"="c"}', ''],
    ['x{"a b"=~"c"}', ''],
    ['{"foo", a="bc"}', '{__name__="foo",a="bc"}'],
    // Operators and modifiers.
    ['a atan2 b', ''],
    ['a </ 2', ''],
    ['a >/ b', ''],
    ['a + fill(0) b', 'a + fill (0) b'],
    ['a + fill_left(-1.5) b', 'a + fill_left (-1.5) b'],
    ['a + on(x) fill_right(1e6) fill_left(NaN) b', 'a + on (x) fill_left (NaN) fill_right (1e+06) b'],
    ['a > bool on(x) group_left(y) fill(Inf) b', 'a > bool on (x) group_left (y) fill (+Inf) b'],
    ['a and ignoring() b', 'a and b'],
    ['foo[5m] anchored', ''],
    ['foo[5m] smoothed @ 10 offset 1m', 'foo[5m] smoothed @ 10.000 offset 1m'],
    ['foo anchored offset 1m', ''],
    // Duration expressions.
    ['foo[5m+1m]', 'foo[5m + 1m]'],
    ['foo[-(10s-5s)+20s]', 'foo[-(10s - 5s) + 20s]'],
    ['foo[step()]', ''],
    ['foo[STEP()*2:range()]', 'foo[step() * 2:range()]'],
    ['foo[min_of(step()+1,1h)]', 'foo[min_of(step() + 1, 1h)]'],
    ['foo offset -step()*2', 'foo offset -step() * 2'],
    ['foo offset +step()', 'foo offset step()'],
    ['foo offset (-step()*2)', 'foo offset (-step() * 2)'],
    ['foo offset max_of(3s,min_of(step(), 1s))+8000', 'foo offset max_of(3s, min_of(step(), 1s)) + 8000'],
    ['foo[(5m)]', 'foo[5m]'],
    ['foo offset (5m)', 'foo offset 5m'],
    ['step() + min_of(1, 2)', ''],
    // Subqueries.
    ['min_over_time(rate(foo{bar="baz"}[2s])[5m:] offset 4m)[4m:3s]', ''],
    ['(foo + bar{nm="val"} @ 1234)[5m:] @ 1603775019', '(foo + bar{nm="val"} @ 1234.000)[5m:] @ 1603775019.000'],
    ['some_metric OFFSET 1m [10m:5s]', 'some_metric offset 1m[10m:5s]'],
    // Functions and aggregations.
    ['histogram_quantile(0.9, sum by (le) (rate(x_bucket[5m])))', ''],
    ['label_join(up, "foo", ",", "a", "b", "c")', ''],
    ['quantile(0.9, x) without (a)', 'quantile without (a) (0.9, x)'],
    ['limitk(3, x)', ''],
    ['info(x, {a="b"})', ''],
  ])('%j', (input, want) => check(input, want));
});
