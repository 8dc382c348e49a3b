import { describe, expect, test } from 'vitest';
import { mulberry32 } from '../../model/index.js';
import type { InstantQueryData, QueryClient } from '../../query/index.js';
import { checkTemplate, createTemplateExpander } from './expander.js';

/**
 * Renderings pinned by test/interop/template-differential.test.ts, where promtool 2.42 printed
 * the same for each (labels {instance="host.example.com:9090", job="node"}, external URL
 * http://testhost:9090/path/prefix). Errors include Prometheus' wrapping and the column offset of
 * the prepended `$labels`... definitions (115 for the first action).
 */
const RENDERINGS: readonly [template: string, value: number, want: string][] = [
  ["{{ $value }}", 1234567, "1.234567e+06"],
  ["{{ $value }}", 0.1, "0.1"],
  ["{{ $value }}", 1000000, "1e+06"],
  ["{{ $value }}", NaN, "NaN"],
  ["{{ $value }}", Infinity, "+Inf"],
  ["{{ $value }}", 1e-9, "1e-09"],
  ["{{ $value }}", -2.5, "-2.5"],
  ["{{ humanize $value }}", 0, "0"],
  ["{{ humanize $value }}", NaN, "NaN"],
  ["{{ humanize $value }}", Infinity, "+Inf"],
  ["{{ humanize $value }}", 1e-9, "1n"],
  ["{{ humanize $value }}", 1234567, "1.235M"],
  ["{{ humanize $value }}", 0.12, "120m"],
  ["{{ humanize $value }}", 1234.5, "1.234k"],
  ["{{ humanize1024 $value }}", 1048576, "1Mi"],
  ["{{ humanize1024 $value }}", 0.12, "0.12"],
  ["{{ humanizeDuration $value }}", 0, "0s"],
  ["{{ humanizeDuration $value }}", 3661, "1h 1m 1s"],
  ["{{ humanizeDuration $value }}", 0.1234, "123.4ms"],
  ["{{ humanizeDuration $value }}", 90061.5, "1d 1h 1m 1s"],
  ["{{ humanizeDuration $value }}", -3600, "-1h 0m 0s"],
  ["{{ humanizeDuration $value }}", NaN, "NaN"],
  ["{{ humanizePercentage $value }}", 0.12345, "12.35%"],
  ["{{ humanizeTimestamp $value }}", 1435065584.128, "2015-06-23 13:19:44.128 +0000 UTC"],
  ["{{ humanizeTimestamp $value }}", NaN, "NaN"],
  ["{{ humanize \"abc\" }}", 1, "<error expanding template: error executing template __alert_X: template: __alert_X:1:115: executing \"__alert_X\" at <humanize \"abc\">: error calling humanize: strconv.ParseFloat: parsing \"abc\": invalid syntax>"],
  ["{{ printf \"%.2f\" $value }}", 2.675, "2.67"],
  ["{{ printf \"%5.1f|%-8s|%08.3f\" $value \"ab\" $value }}", 3.14159, "  3.1|ab      |0003.142"],
  ["{{ printf \"%e %E %.3e\" $value $value $value }}", 1234.5678, "1.234568e+03 1.234568E+03 1.235e+03"],
  ["{{ printf \"%x %X %o %b %#x\" 255 255 8 5 255 }}", 1, "ff FF 10 101 0xff"],
  ["{{ printf \"%d\" $value }}", 1.5, "%!d(float64=1.5)"],
  ["{{ printf \"%s\" }}", 1, "%!s(MISSING)"],
  ["{{ printf \"%d\" 1 2 }}", 1, "1%!(EXTRA int=2)"],
  ["{{ printf \"%.0f %.0f %.1f %.2f\" 0.5 1.5 0.25 1.005 }}", 1, "0 2 0.2 1.00"],
  ["{{ printf \"%T %T %T %T\" 1 1.5 \"s\" $labels }}", 1, "int float64 string map[string]string"],
  ["{{ range $k, $v := $labels }}{{ $k }}={{ $v }},{{ end }}", 1, "instance=host.example.com:9090,job=node,"],
  ["{{ with $labels.missing }}x{{ else }}none{{ end }}", 1, "none"],
  ["{{ if gt $value 100.0 }}high{{ else if gt $value 10.0 }}mid{{ else }}low{{ end }}", 50, "mid"],
  ["{{ eq $value 1 }}", 1, "<error expanding template: error executing template __alert_X: template: __alert_X:1:115: executing \"__alert_X\" at <eq $value 1>: error calling eq: incompatible types for comparison>"],
  ["{{ $x := 5 }}{{ $x = 7 }}{{ $x }}", 1, "7"],
  ["{{- \" a \" -}}   {{- \" b \" }}  x", 1, " a  b   x"],
  ["{{/* comment */}}x{{- /* c2 */ -}}  y", 1, "xy"],
  ["{{ define \"t\" }}[{{ . }}]{{ end }}{{ template \"t\" $labels.job }}", 1, "[node]"],
  ["{{ block \"b\" $value }}<{{ . }}>{{ end }}", 7, "<7>"],
  ["{{ print 1 2 \"a\" \"b\" 3 }}", 1, "1 2ab3"],
  ["{{ html \"<b>&\\\"'</b>\" }}", 1, "&lt;b&gt;&amp;&#34;&#39;&lt;/b&gt;"],
  ["{{ js \"a'b\\\"c<d>=\" }}", 1, "a\\'b\\\"c\\u003Cd\\u003E\\u003D"],
  ["{{ urlquery \"a b&c=d/é\" }}", 1, "a+b%26c%3Dd%2F%C3%A9"],
  ["{{ \"aa bb-cc dd_ee\" | title }}", 1, "Aa Bb-Cc Dd_ee"],
  ["{{ reReplaceAll \"a*\" \"-\" \"baaac\" }}", 1, "-b-c-"],
  ["{{ reReplaceAll \"(?P<h>[^:]+):(\\\\d+)\" \"$2/$h/$$\" $labels.instance }}", 1, "9090/host.example.com/$"],
  ["{{ reReplaceAll \"(\" \"x\" \"y\" }}", 1, "<error expanding template: error executing template __alert_X: template: __alert_X:1:115: executing \"__alert_X\" at <reReplaceAll \"(\" \"x\" \"y\">: error calling reReplaceAll: regexp: Compile(`(`): error parsing regexp: missing closing ): `(`>"],
  ["{{ $labels.instance | stripDomain }}", 1, "host:9090"],
  ["{{ \"[::1]:9090\" | stripPort }} {{ \"10.0.0.1:80\" | stripDomain }} {{ \"a.b\" | stripDomain }}", 1, "::1 10.0.0.1:80 a"],
  ["{{ graphLink \"rate(x[5m])\" }}", 1, "/graph?g0.expr=rate%28x%5B5m%5D%29&g0.tab=0"],
  ["{{ args 1 \"a\" }}", 1, "map[arg0:1 arg1:a]"],
  ["{{ parseDuration \"x\" }}", 1, "<error expanding template: error executing template __alert_X: template: __alert_X:1:115: executing \"__alert_X\" at <parseDuration \"x\">: error calling parseDuration: not a valid duration string: \"x\">"],
  ["{{ (toTime 1435065584.128).Format \"2006-01-02T15:04:05.000Z07:00 Mon Jan 2\" }}", 1, "2015-06-23T13:19:44.128Z Tue Jun 23"],
  ["{{ externalURL }} {{ pathPrefix }}", 1, "http://testhost:9090/path/prefix /path/prefix"],
  ["{{ .Foo }}", 1, "<error expanding template: error executing template __alert_X: template: __alert_X:1:115: executing \"__alert_X\" at <.Foo>: can't evaluate field Foo in type struct { Labels map[string]string; ExternalLabels map[string]string; ExternalURL string; Value float64 }>"],
  ["{{ index $labels 1 }}", 1, "<error expanding template: error executing template __alert_X: template: __alert_X:1:115: executing \"__alert_X\" at <index $labels 1>: error calling index: value has type int; should be string>"],
  ["{{ slice \"abcdef\" 1 3 }}", 1, "bc"],
  ["{{ range 5 }}x{{ end }}", 1, "<error expanding template: error executing template __alert_X: template: __alert_X:1:121: executing \"__alert_X\" at <5>: range can't iterate over 5>"],
  ["{{ toUpper $value }}", 1, "<error expanding template: error executing template __alert_X: template: __alert_X:1:123: executing \"__alert_X\" at <$value>: wrong type for value; expected string; got float64>"],
  ["{{ 1 2 }}", 1, "<error expanding template: error executing template __alert_X: template: __alert_X:1:115: executing \"__alert_X\" at <1>: can't give argument to non-function 1>"],
  ["{{ nil }}", 1, "<error expanding template: error executing template __alert_X: template: __alert_X:1:115: executing \"__alert_X\" at <nil>: nil is not a command>"],
  ["{{ printf }}", 1, "<error expanding template: error executing template __alert_X: template: __alert_X:1:115: executing \"__alert_X\" at <printf>: wrong number of args for printf: want at least 1 got 0>"],
  ["{{ template \"t\" }}{{ define \"t\" }}{{ .Foo }}{{ end }}", 1, "<no value>"],
  ["{{ $ }}", 2, "{map[instance:host.example.com:9090 job:node] map[region:eu] http://testhost:9090/path/prefix 2}"],
  ["{{ first \"x\" }}", 1, "<error expanding template: error executing template __alert_X: template: __alert_X:1:121: executing \"__alert_X\" at <\"x\">: can't handle \"x\" for arg of type template.queryResult>"],
  ["{{ value nil }}", 1, "<error expanding template: error executing template __alert_X: template: __alert_X:1:115: executing \"__alert_X\" at <value nil>: error calling value: runtime error: invalid memory address or nil pointer dereference>"],
  ["{{ $labels.job 1 }}", 1, "<error expanding template: error executing template __alert_X: template: __alert_X:1:122: executing \"__alert_X\" at <$labels.job>: job is not a method but has arguments>"],
  ["{{ printf \"%6.3v|%.0e|%#g\" 3.14159 15.0 1.0 }}", 1, "  3.14|2e+01|1.00000"],
  ["{{ 1e6 }} {{ 1 }} {{ 0x10 }} {{ 1.5e3 }} {{ -0.0 }}", 1, "1e+06 1 16 1500 -0"],
  ["{{ 'a' }} {{ 0x1p-2 }} {{ 1_000 }} {{ 010 }}", 1, "97 0.25 1000 8"],
  ["{{ range $i, $v := $labels }}{{ if eq $i \"job\" }}{{ break }}{{ end }}{{ $i }} {{ end }}", 1, "instance "],
];

/** Parse errors as promtool check rules prints them (pinned by the same interop test). */
const PARSE_ERRORS: readonly [template: string, want: string | undefined][] = [
  ['plain text', undefined],
  ['{{ $labels.instance }} {{ humanize $value }}', undefined],
  ['{{ $labels.instance }', 'template: __alert_X:1: unexpected "}" in operand'],
  ['{{', 'template: __alert_X:1: unclosed action'],
  ['{{ foo }}', 'template: __alert_X:1: function "foo" not defined'],
  ['{{ now }}', 'template: __alert_X:1: function "now" not defined'],
  ['{{ $x }}', 'template: __alert_X:1: undefined variable "$x"'],
  ['{{ end }}', 'template: __alert_X:1: unexpected {{end}}'],
  ['{{ if 1 }}', 'template: __alert_X:1: unexpected EOF'],
  ['{{ "abc }}', 'template: __alert_X:1: unterminated quoted string'],
  ['{{ .A | 1 }}', 'template: __alert_X:1: non executable command in pipeline stage 2'],
  ['{{ 3x }}', 'template: __alert_X:1: bad number syntax: "3x"'],
  ['{{ break }}', 'template: __alert_X:1: {{break}} outside {{range}}'],
  ['{{/* x */ 1}}', 'template: __alert_X:1: comment ends before closing delimiter'],
  ['{{ (1 }}', 'template: __alert_X:1: unclosed left paren'],
  ['{{ range $a, $b, $c := . }}{{ end }}', 'template: __alert_X:1: too many declarations in range'],
  ['{{ $labels. }}', 'template: __alert_X:1: unexpected <.> in operand'],
  ['{{ if . }}{{ else }}{{ else }}{{ end }}', 'template: __alert_X:1: expected end; found {{else}}'],
  ['{{ 1.2.3 }}', 'template: __alert_X:1: unexpected ".3" in operand'],
  ["{{ 'ab' }}", "template: __alert_X:1: malformed character constant: 'ab'"],
  ['{{ define "a" }}x{{ end }}{{ define "a" }}y{{ end }}', 'template: __alert_X:1: template: multiple definition of template "a"'],
  ['{{ template x }}', 'template: __alert_X:1: unexpected "x" in template clause'],
  ['{{ with }}{{ end }}', 'template: __alert_X:1: missing value for with'],
  ['{{ 99999999999999999999 }}', 'template: __alert_X:1: integer overflow: "99999999999999999999"'],
  ['a\n{{ if }}\nb', 'template: __alert_X:2: missing value for if'],
  ['{{ "x".y }}', 'template: __alert_X:1: unexpected . after term "\\"x\\""'],
  ['{{ define "a" }}{{ else }}{{ end }}', 'template: __alert_X:1: unexpected {{else}} in define clause'],
];

function vectorClient(answer: (q: string) => InstantQueryData | Error): QueryClient & { calls: [string, number][] } {
  const calls: [string, number][] = [];
  const fail = (): Promise<never> => Promise.reject(new Error('not used'));
  return {
    calls,
    instant: (q, tMs) => {
      calls.push([q, tMs]);
      const a = answer(q);
      return a instanceof Error ? Promise.reject(a) : Promise.resolve({ data: a, warnings: [], infos: [] });
    },
    range: fail,
    series: fail,
    labelNames: fail,
    labelValues: fail,
    metadata: fail,
  };
}

const DATA = { labels: { instance: 'host.example.com:9090', job: 'node' }, externalLabels: { region: 'eu' }, externalURL: 'http://testhost:9090/path/prefix' };

describe('createTemplateExpander', () => {
  const expander = createTemplateExpander({ queryClient: vectorClient(() => new Error('no query here')), externalURL: DATA.externalURL, now: () => 0 });

  test.each(RENDERINGS)('%j with $value %d', async (template, value, want) => {
    expect(await expander.expand('__alert_X', template, { ...DATA, value }, 0)).toBe(want);
  });

  test('query runs at the evaluation time and its samples have .Labels and .Value', async () => {
    const client = vectorClient(() => ({
      resultType: 'vector',
      result: [
        { metric: { instance: 'b' }, value: [1, '2'] },
        { metric: { instance: 'a' }, value: [1, '1.5e+06'] },
      ],
    }));
    const e = createTemplateExpander({ queryClient: client, now: () => 0 });
    const text = '{{ range query "up" | sortByLabel "instance" }}{{ .Labels.instance }}={{ .Value }} {{ end }}';
    expect(await e.expand('__alert_Q', text, { ...DATA, value: 1 }, 1_700_000_000_000)).toBe('a=1.5e+06 b=2 ');
    expect(client.calls).toEqual([['up', 1_700_000_000_000]]);
  });

  const matrix: InstantQueryData = { resultType: 'matrix', result: [] };
  test.each([
    ['a parse error of the engine, without the API wording', new Error('invalid parameter "query": 1:3: parse error: unexpected end of input'), 'error calling query: 1:3: parse error: unexpected end of input>'],
    ['a matrix result', matrix, 'error calling query: rule result is not a vector or scalar>'],
  ] as const)('query fails on %s', async (_, answer, tail) => {
    const e = createTemplateExpander({ queryClient: vectorClient(() => answer), now: () => 0 });
    const out = await e.expand('__alert_Q', '{{ query "x" }}', { ...DATA, value: 1 }, 0);
    expect(out.startsWith('<error expanding template: error executing template __alert_Q: template: __alert_Q:1:115: executing "__alert_Q" at <query "x">: ')).toBe(true);
    expect(out.endsWith(tail)).toBe(true);
  });

  test('a scalar result is one sample without labels', async () => {
    const e = createTemplateExpander({ queryClient: vectorClient(() => ({ resultType: 'scalar', result: [0, '42'] })), now: () => 0 });
    expect(await e.expand('__alert_Q', '{{ query "1" | first | value }} {{ (query "1" | first).Labels }}', { ...DATA, value: 1 }, 0)).toBe('42 map[]');
  });

  const recursive = '{{ define "r" }}x{{ template "r" . }}{{ end }}{{ template "r" . }}';
  test.each([
    ['output size', { maxOutputBytes: 100 }, recursive, 'template output exceeds 100 bytes>'],
    ['steps', { maxSteps: 50 }, recursive, 'template execution exceeded the limit of 50 steps>'],
    ['template depth', {}, recursive, 'exceeded maximum template depth (1000)>'],
    ['output size, for strings kept in variables', { maxOutputBytes: 1000 }, `{{ $x := "0123456789" }}${'{{ $x = printf "%s%s" $x $x }}'.repeat(40)}`, 'the result of printf exceeds 1000 bytes>'],
    ['range iterations', { maxSteps: 200 }, '{{ range $labels }}{{ range $labels }}{{ range $labels }}{{ range $labels }}{{ range $labels }}{{ range $labels }}{{ range $labels }}{{ range $labels }}.{{ end }}{{ end }}{{ end }}{{ end }}{{ end }}{{ end }}{{ end }}{{ end }}', 'template execution exceeded the limit of 200 steps>'],
  ] as const)('a hostile template is stopped by the %s limit', async (_, limits, text, tail) => {
    const e = createTemplateExpander({ queryClient: vectorClient(() => new Error('no')), limits, now: () => 0 });
    const out = await e.expand('__alert_H', text, { ...DATA, value: 1 }, 0);
    expect(out.startsWith('<error expanding template: error executing template __alert_H: template: __alert_H:1:')).toBe(true);
    expect(out.endsWith(tail)).toBe(true);
  });

  test('the deadline is measured on the injected clock', async () => {
    let t = 0;
    const e = createTemplateExpander({ queryClient: vectorClient(() => new Error('no')), limits: { timeoutMs: 1_000 }, now: () => (t += 100) });
    const out = await e.expand('__alert_H', recursive, { ...DATA, value: 1 }, 0);
    expect(out.endsWith('template execution exceeded its deadline>')).toBe(true);
  });
});

describe('checkTemplate', () => {
  test.each(PARSE_ERRORS)('%j', (template, want) => {
    expect(checkTemplate('__alert_X', template)).toBe(want);
  });
});

describe('hostile input', () => {
  const FRAGMENTS = ['{{', '}}', '{{-', '-}}', ' ', '$labels', '$value', '.Labels', '.', '|', '(', ')', '"a"', '`b`', "'c'", '1', '1.5e3', '-', 'if', 'else', 'end', 'range', 'with', 'define', 'template', 'block', 'break', ':=', '=', '$x', ',', 'printf', '"%d%s%v"', 'humanize', 'query', 'first', 'index', 'len', 'and', 'or', 'nil', 'true', '/*', '*/', '\n', 'é', '\\'];

  test('random templates never make expand reject or checkTemplate throw (seeded)', async () => {
    const rand = mulberry32(16);
    const e = createTemplateExpander({ queryClient: vectorClient(() => ({ resultType: 'vector', result: [] })), limits: { maxSteps: 1000, maxOutputBytes: 1000 }, now: () => 0 });
    for (let n = 0; n < 2000; n++) {
      let text = '';
      const len = 1 + Math.floor(rand() * 12);
      for (let i = 0; i < len; i++) text += FRAGMENTS[Math.floor(rand() * FRAGMENTS.length)];
      expect(() => checkTemplate('__alert_F', text), text).not.toThrow();
      const out = await e.expand('__alert_F', text, { ...DATA, value: 1 }, 0);
      expect(out.startsWith('<error expanding template: panic'), `${text} -> ${out}`).toBe(false);
    }
  });
});
