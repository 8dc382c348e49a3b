import { describe, expect, it } from 'vitest';
import { parseExpr, prettify } from './index.js';

/** check(input, want, width): Prometheus' `Prettify` output with `maxCharactersPerLine = width`. */
function check(input: string, want: string, width = 10): void {
  expect(prettify(parseExpr(input, { enableDurationExpressions: true }), width)).toBe(want);
}

// Goldens from Prometheus' prettier_test.go, which sets maxCharactersPerLine to 10.
describe('prettify', () => {
  it.each<[string, string]>([
    ['sum(foo)', 'sum(foo)'],
    ['sum by() (task:errors:rate10s{job="s"})', 'sum(\n  task:errors:rate10s{job="s"}\n)'],
    ['sum without(job,foo) (task:errors:rate10s{job="s"})', 'sum without (job, foo) (\n  task:errors:rate10s{job="s"}\n)'],
    ['sum (task:errors:rate10s{job="s"}) by(job,foo)', 'sum by (job, foo) (\n  task:errors:rate10s{job="s"}\n)'],
    ['topk(10, ask:errors:rate10s{job="s"})', 'topk(\n  10,\n  ask:errors:rate10s{job="s"}\n)'],
    [
      'sum by(job,foo) (sum by(job,foo) (task:errors:rate10s{job="s"}))',
      'sum by (job, foo) (\n  sum by (job, foo) (\n    task:errors:rate10s{job="s"}\n  )\n)',
    ],
    [
      'sum by(job,foo) # Comment 1.\n(sum by(job,foo) ( # Comment 2.\ntask:errors:rate10s{job="s"}))',
      'sum by (job, foo) (\n  sum by (job, foo) (\n    task:errors:rate10s{job="s"}\n  )\n)',
    ],
  ])('aggregation %j', (input, want) => check(input, want));

  it.each<[string, string]>([
    ['a+b', 'a + b'],
    ['a == bool 1', '  a\n== bool\n  1'],
    ['a + ignoring(job) b', '  a\n+ ignoring (job)\n  b'],
    ['foo_1 + foo_2', '  foo_1\n+\n  foo_2'],
    ['foo_1 + foo_2 + foo_3', '    foo_1\n  +\n    foo_2\n+\n  foo_3'],
    ['foo + baar + foo_3', '  foo + baar\n+\n  foo_3'],
    ['foo_1 + foo_2 + foo_3 + foo_4', '      foo_1\n    +\n      foo_2\n  +\n    foo_3\n+\n  foo_4'],
    [
      'foo_1 + ignoring(foo) foo_2 + ignoring(job) group_left foo_3 + on(instance) group_right foo_4',
      '      foo_1\n    + ignoring (foo)\n      foo_2\n  + ignoring (job) group_left ()\n    foo_3\n+ on (instance) group_right ()\n  foo_4',
    ],
  ])('binary %j', (input, want) => check(input, want));

  it.each<[string, string]>([
    ['rate(foo[1m])', 'rate(\n  foo[1m]\n)'],
    ['rate(long_vector_selector[10m:1m] @ start() offset 1m)', 'rate(\n  long_vector_selector[10m:1m] @ start() offset 1m\n)'],
    ['histogram_quantile(0.9, rate(foo[1m]))', 'histogram_quantile(\n  0.9,\n  rate(\n    foo[1m]\n  )\n)'],
    [
      'max_over_time(rate(demo_api_request_duration_seconds_count[1m])[1m:] @ start() offset 1m)',
      'max_over_time(\n  rate(\n    demo_api_request_duration_seconds_count[1m]\n  )[1m:] @ start() offset 1m\n)',
    ],
    [
      'label_replace(up{job="api-server",service="a:c"}, "foo", "$1", "service", "(.*):.*")',
      'label_replace(\n  up{job="api-server",service="a:c"},\n  "foo",\n  "$1",\n  "service",\n  "(.*):.*"\n)',
    ],
  ])('call %j', (input, want) => check(input, want));

  it.each<[string, string]>([
    ['(foo)', '(foo)'],
    ['(_foo_long_)', '(\n  _foo_long_\n)'],
    ['((foo_long))', '(\n  (foo_long)\n)'],
    ['(((foo_long)))', '(\n  (\n    (foo_long)\n  )\n)'],
    ['(1 + 2)', '(1 + 2)'],
    ['(foo + bar)', '(\n  foo + bar\n)'],
    ['((foo_long + bar_long) + bar_2_long)', '(\n    (\n        foo_long\n      +\n        bar_long\n    )\n  +\n    bar_2_long\n)'],
    ['a @ 1', 'a @ 1.000'],
    ['vector_selector @ start()', 'vector_selector @ start()'],
    ['-vector_selector', '-vector_selector'],
    ['(-vector_selector)', '(\n  -vector_selector\n)'],
    ['-histogram_quantile(0.9, -rate(foo[1m] @ start()))', '-histogram_quantile(\n  0.9,\n  -rate(\n    foo[1m] @ start()\n  )\n)'],
    ['rate(foo[2*1h])', 'rate(\n  foo[2 * 1h]\n)'],
    ['rate(foo[-5m+35m])', 'rate(\n  foo[-5m + 35m]\n)'],
  ])('other %j', (input, want) => check(input, want));

  it('splits mixin rules as Prometheus does', () => {
    check(
      '(node_filesystem_avail_bytes{job="node",fstype!=""} / node_filesystem_size_bytes{job="node",fstype!=""} * 100 < 40 and predict_linear(node_filesystem_avail_bytes{job="node",fstype!=""}[6h], 24*60*60) < 0 and node_filesystem_readonly{job="node",fstype!=""} == 0)',
      [
        '(',
        '            node_filesystem_avail_bytes{fstype!="",job="node"}',
        '          /',
        '            node_filesystem_size_bytes{fstype!="",job="node"}',
        '        *',
        '          100',
        '      <',
        '        40',
        '    and',
        '        predict_linear(',
        '          node_filesystem_avail_bytes{fstype!="",job="node"}[6h],',
        '            24 * 60',
        '          *',
        '            60',
        '        )',
        '      <',
        '        0',
        '  and',
        '      node_filesystem_readonly{fstype!="",job="node"}',
        '    ==',
        '      0',
        ')',
      ].join('\n'),
    );
    check(
      'min by (job, integration) (rate(alertmanager_notifications_failed_total{job="alertmanager", integration=~".*"}[5m]) / rate(alertmanager_notifications_total{job="alertmanager", integration="~.*"}[5m])) > 0.01',
      [
        '  min by (job, integration) (',
        '      rate(',
        '        alertmanager_notifications_failed_total{integration=~".*",job="alertmanager"}[5m]',
        '      )',
        '    /',
        '      rate(',
        '        alertmanager_notifications_total{integration="~.*",job="alertmanager"}[5m]',
        '      )',
        '  )',
        '>',
        '  0.01',
      ].join('\n'),
    );
  });

  it('keeps expressions of up to 100 bytes on one line by default', () => {
    const short = 'sum by (job) (rate(http_requests_total{job="api-server"}[5m]))';
    expect(prettify(parseExpr(short))).toBe(short);
    const long = 'sum by (job, instance) (rate(http_requests_total{job="api-server",handler="/api/v1/query_range"}[5m]))';
    expect(prettify(parseExpr(long))).toBe(
      'sum by (job, instance) (\n  rate(http_requests_total{handler="/api/v1/query_range",job="api-server"}[5m])\n)',
    );
  });
});
