/**
 * Alert templates against Debian's promtool 2.42 (Go's text/template with Prometheus' functions).
 *
 * Execution: one rule file holds an alert per case of `CASES`, its annotation the case's template,
 * and one `promtool test rules` file expects, for each alert, the annotation OUR expander renders.
 * promtool's verdict per alert is the verdict per case; on a mismatch it prints what it got,
 * which is parsed back so that each disagreeing case is reported with both strings.
 *
 * Parsing: templates that do not parse cannot sit in that rule file (promtool refuses to load
 * it), so `PARSE_CHECKS` goes through `promtool check rules`: both must accept a template, or both
 * reject it and promtool's message contain what `checkTemplate` returns.
 *
 * `query(...)` runs in promtool over the test's input series; ours asks a `QueryClient` that
 * answers those few queries with the values the series hold at the evaluation time (this test is
 * about templates; PromQL has its own differential test).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect } from 'vitest';
import type { InstantQueryData, QueryClient } from '../../src/query/index.js';
import { checkTemplate, createTemplateExpander } from '../../src/rules/index.js';
import { goUnquote } from '../../src/rules/template/parse.js';
import { itWithPeer } from '../peers/peers.js';

/** A case: its template and the value of the alert's sample ($value). */
type Case = readonly [template: string, value?: string];

const CASES: readonly Case[] = [
  ['{{ $value }}', '1234567'],
  ['{{ $value }}', '0.1'],
  ['{{ $value }}', '1e6'],
  ['{{ $value }}', 'NaN'],
  ['{{ $value }}', 'Inf'],
  ['{{ $value }}', '-Inf'],
  ['{{ $value }}', '1e-9'],
  ['{{ $value }}', '0'],
  ['{{ $value }}', '-2.5'],
  ['{{ .Value }}', '123456'],
  ['{{ humanize $value }}', '0'],
  ['{{ humanize $value }}', 'NaN'],
  ['{{ humanize $value }}', 'Inf'],
  ['{{ humanize $value }}', '1e-9'],
  ['{{ humanize $value }}', '1234567'],
  ['{{ humanize $value }}', '0.12'],
  ['{{ humanize $value }}', '-1500'],
  ['{{ $value | humanize }}', '1234.5'],
  ['{{ humanize1024 $value }}', '1048576'],
  ['{{ humanize1024 $value }}', '0.12'],
  ['{{ humanize1024 $value }}', '1234567'],
  ['{{ humanizeDuration $value }}', '0'],
  ['{{ humanizeDuration $value }}', '3661'],
  ['{{ humanizeDuration $value }}', '0.1234'],
  ['{{ humanizeDuration $value }}', '90061.5'],
  ['{{ humanizeDuration $value }}', '-3600'],
  ['{{ humanizeDuration $value }}', 'NaN'],
  ['{{ humanizeDuration $value }}', '1e-9'],
  ['{{ humanizePercentage $value }}', '0.12345'],
  ['{{ $value | humanizePercentage }}', '1e-9'],
  ['{{ humanizeTimestamp $value }}', '1435065584.128'],
  ['{{ humanizeTimestamp $value }}', 'NaN'],
  ['{{ humanize "1234.5" }} {{ humanize 2048 }}'],
  ['{{ humanize "abc" }}'],
  ['{{ printf "%.2f" $value }}', '2.675'],
  ['{{ printf "%d" 42 }}'],
  ['{{ printf "%5.1f|%-8s|%08.3f" $value "ab" $value }}', '3.14159'],
  ['{{ printf "%e %E %.3e" $value $value $value }}', '1234.5678'],
  ['{{ printf "%g %G %.3g" $value 1e-7 $value }}', '1234.5678'],
  ['{{ printf "%v %s" $labels.job $labels.instance }}'],
  ['{{ printf "%q" $labels.instance }}'],
  ['{{ printf "%x %X %o %b %#x" 255 255 8 5 255 }}'],
  ['{{ printf "%t %v" true false }}'],
  ['{{ printf "100%%" }}'],
  ['{{ printf "%d" $value }}', '1.5'],
  ['{{ printf "%s" }}'],
  ['{{ printf "%d" 1 2 }}'],
  ['{{ printf "%.0f %.0f %.1f %.2f" 0.5 1.5 0.25 1.005 }}'],
  ['{{ printf "%+d|% d|%+.2f" 5 5 $value }}', '3.5'],
  ['{{ printf "%10.4g|%-10v|" $value $value }}', '1234567'],
  ['{{ printf "%6.2f%%" 12.345 }}'],
  ['{{ printf "%T %T %T %T" 1 1.5 "s" $labels }}'],
  ['{{ printf "%x" "hi" }} {{ printf "%5s|%-5s|%.2s" "a" "b" "xyz" }}'],
  ['{{ $labels.instance }}'],
  ['{{ .Labels.job }}'],
  ['{{ $labels.missing }}|'],
  ['{{ index $labels "instance" }}'],
  ['{{ len $labels }}'],
  ['{{ range $k, $v := $labels }}{{ $k }}={{ $v }},{{ end }}'],
  ['{{ range $labels }}{{ . }};{{ end }}'],
  ['{{ with $labels.job }}job={{ . }}{{ else }}none{{ end }}'],
  ['{{ with $labels.missing }}x{{ else }}none{{ end }}'],
  ['{{ if gt $value 100.0 }}high{{ else if gt $value 10.0 }}mid{{ else }}low{{ end }}', '50'],
  ['{{ if and (gt $value 1.0) (lt $value 100.0) }}in{{ end }}', '50'],
  ['{{ if or (eq $labels.job "x") (ne $labels.job "node") }}a{{ else }}b{{ end }}'],
  ['{{ not (eq $value 1.0) }} {{ and 1 0 }} {{ or 0 "x" }}'],
  ['{{ eq $value 1 }}'],
  ['{{ $x := 5 }}{{ $x = 7 }}{{ $x }}'],
  ['{{- " a " -}}   {{- " b " }}  x'],
  ['{{/* comment */}}x{{- /* c2 */ -}}  y'],
  ['{{ define "t" }}[{{ . }}]{{ end }}{{ template "t" $labels.job }}'],
  ['{{ block "b" $value }}<{{ . }}>{{ end }}', '7'],
  ['{{ print 1 2 "a" "b" 3 }}'],
  ['{{ println "a" 1 }}'],
  ['{{ html "<b>&\\"\'</b>" }}'],
  ['{{ js "a\'b\\"c<d>=" }}'],
  ['{{ urlquery "a b&c=d/é" }}'],
  ['{{ "aa bb-cc dd_ee" | title }}'],
  ['{{ toUpper "abc" }}{{ toLower "ABC" }}'],
  ['{{ match "^no" $labels.job }} {{ match "x+" "y" }}'],
  ['{{ reReplaceAll "([a-z]+)\\\\.example\\\\.com" "${1}-host" $labels.instance }}'],
  ['{{ reReplaceAll "a*" "-" "baaac" }}'],
  ['{{ reReplaceAll "(?P<h>[^:]+):(\\\\d+)" "$2/$h/$$" $labels.instance }}'],
  ['{{ reReplaceAll "(" "x" "y" }}'],
  ['{{ $labels.instance | stripPort }}'],
  ['{{ $labels.instance | stripDomain }}'],
  ['{{ "[::1]:9090" | stripPort }} {{ "10.0.0.1:80" | stripDomain }} {{ "a.b" | stripDomain }}'],
  ['{{ graphLink "rate(x[5m])" }}'],
  ['{{ tableLink "up == 0" }}'],
  ['{{ args 1 "a" }}'],
  ['{{ (args 1 "a").arg1 }}'],
  ['{{ parseDuration "1h30m" }}'],
  ['{{ parseDuration "x" }}'],
  ['{{ safeHtml "<b>" }}'],
  ['{{ (toTime 1435065584.128).Format "2006-01-02T15:04:05.000Z07:00 Mon Jan 2" }}'],
  ['{{ toTime 1435065584 }}'],
  ['{{ $externalURL }}'],
  ['{{ $externalLabels.region }}'],
  ['{{ range query "demo_requests" | sortByLabel "instance" }}{{ .Labels.instance }}={{ .Value }} {{ end }}'],
  ['{{ with query "demo_requests" | sortByLabel "instance" }}{{ . | first | label "instance" }}{{ end }}'],
  ['{{ query "sum(demo_requests)" | first | value | humanize }}'],
  ['{{ with query "scalar(sum(demo_requests))" }}{{ . | first | value }}{{ end }}'],
  ['{{ query "demo_none" | first }}'],
  ['{{ len (query "demo_requests") }}'],
  ['{{ range $i, $s := query "demo_requests" | sortByLabel "instance" }}{{ $i }}:{{ $s.Labels.instance }} {{ end }}'],
  ['{{ strvalue (query "sum(demo_requests)" | first) }}|'],
  ['{{ $labels.job | printf "%s!" }}'],
  ['{{ .Foo }}'],
  ['{{ index $labels 1 }}'],
  ['{{ range $i, $v := $labels }}{{ if eq $i "job" }}{{ break }}{{ end }}{{ $i }} {{ end }}'],
  ['{{ 1e6 }} {{ 1 }} {{ 0x10 }} {{ 1.5e3 }} {{ -0.0 }}'],
  ['{{ $value | humanizePercentage }}', '0.5'],
  ['{{ printf "%.3e|%8.2e" 0.0 $value }}', '-0.000123456'],
  ['{{ printf "%v" $labels }}'],
  ['line1\n{{ $labels.job }}\n  line3'],
  ['{{ humanize }}'],
  ['{{ label 1 (query "demo_requests" | first) }}'],
  ['{{ first "x" }}'],
  ['{{ value nil }}'],
  ['{{ toUpper $value }}'],
  ['{{ $labels.job 1 }}'],
  ['{{ 1 2 }}'],
  ['{{ nil }}'],
  ['{{ printf }}'],
  ['{{ index nil 1 }}'],
  ['{{ index $labels }}'],
  ['{{ template "t" }}{{ define "t" }}{{ .Foo }}{{ end }}'],
  ['{{ (query "demo_requests").banana }}'],
  ['{{ printf "%s" (safeHtml "<x>") }}'],
  ['{{ safeHtml "a" | toUpper }}'],
  ['{{ match "(" "x" }}'],
  ['{{ $value | printf "%.2f" }}', '2.5'],
  ['{{ range $labels }}{{ continue }}{{ end }}done'],
  ['{{ eq nil nil }}'],
  ['{{ not nil }}'],
  ['{{ and }}'],
  ['{{ $value := 3 }}{{ $value }}'],
  ['{{ with .Labels }}{{ .job }}{{ end }}'],
  ['{{ .Labels }}'],
  ['{{ $ }}', '2'],
  ['{{ $.Value }} {{ $.ExternalURL }}', '2'],
  ['{{ range $i, $v := (query "demo_requests" | sortByLabel "instance") }}{{ $v.Value | printf "%.1f" }}{{ end }}'],
  ['{{ index (query "demo_requests" | sortByLabel "instance") 1 | value }}'],
  ['{{ index (query "demo_requests") 5 }}'],
  ['{{ humanizeDuration "1e3" }}'],
  ['{{ humanize "0x10" }}'],
  ['{{ humanize "1e500" }}'],
  ['{{ printf "%v" (toTime 0) }} {{ toTime 0 }}'],
  ['{{ query "demo_requests{" }}'],
  ['{{ printf "%-6.2f|%06.2f|% .1e" 1.5 -1.5 12345.678 }}'],
  ['{{ printf "%3c|%-4q|%x" 65 66 -255 }}'],
  ['{{ printf "%.2g %.10g %g %g" 123456.0 0.1 100000.0 1000000.0 }}'],
  ['{{ printf "%e" 0.0 }} {{ printf "%g" -0.0 }} {{ printf "%.1f" -0.04 }}'],
  ['{{ call $value 1 }}'],
  ['a\n  {{ .Foo }}'],
  ['{{ if true }}\n x {{ humanize "x" }}{{ end }}'],
  ['{{ define "d" }}\n\n {{ .x }}{{ end }}{{ template "d" 1 }}'],
  ['é {{ .Foo }}'],
  ['{{ printf "%99999999d|" 1 }} {{ printf "%*d" 10000000 1 }} {{ printf "%.*f" -1 1.0 }}'],
  ['{{ call .Missing }}'],
  ['{{ (toTime 0).Year }}'],
  ['{{ printf "%x" 1.5 }}'],
  ['{{ printf "%x|%X|%x|%10x" 0.0 -1.0 5e-324 1e100 }}'],
  ['{{ (toTime 1435065584.128).Month }} {{ (toTime 0).Weekday }} {{ (toTime 1435065584.128).Nanosecond }} {{ (toTime 1435065584.128).YearDay }}'],
  ['{{ (toTime 1435065584.128).Format "Jan _2 03:04:05.999PM -0700, 06 Monday .000000" }}'],
  ['{{ printf "%v %v %v" 1e21 123456789012.0 0.000012345 }}'],
  ['{{ printf "%.1f %.2f %.3f" 0.05 0.125 2.0005 }}'],
  ['{{ humanize 999.95 }} {{ humanize 999999.5 }} {{ humanize1024 1023.99 }}'],
  ['{{ humanizeDuration 59.99 }} {{ humanizeDuration 59.9999 }} {{ humanizeDuration 86399.9 }}'],
  ['{{ $value }}', '123456789012'],
  ['{{ printf "%08.3f|%-8d|%+08d" -3.5 5 -42 }}'],
  ['{{ printf "%c %q" 65 65 }}'],
  ['{{ printf "%5t|%.3s|%q" true "héllo" "tab\there" }}'],
  ['{{ index "abc" 1 }} {{ len "héllo" }}'],
  ['{{ slice "abcdef" 1 3 }}'],
  ['{{ template "nope" }}'],
  ['{{ range 5 }}x{{ end }}'],
  ['{{ len 3 }}'],
  ['{{ $value.Foo }}'],
  ['{{ .Labels.job.x }}'],
  ['{{ "a" | len }} {{ le 1 2 }} {{ lt "a" "b" }} {{ eq "a" "b" "a" }} {{ ge 2.5 2.5 }}'],
  ['{{ lt 1 1.5 }}'],
  ['{{ first (query "demo_requests" | sortByLabel "instance") }}'],
  ['{{ toTime "abc" }}'],
  ['{{ humanizeTimestamp -1 }} {{ humanizeTimestamp "0" }}'],
  ['{{ title "hello wORLD o\'neil x-y" }}'],
  ['{{ with $x := $labels.job }}{{ $x }}{{ end }}'],
  ['{{ if $labels }}y{{ end }}{{ if "" }}n{{ else }}e{{ end }}'],
  ['{{ 1 -}}\n\n  x'],
  ['{{ "\\u00e9\\t\\x41" }}|{{ `a\\nb` }}'],
  ["{{ 'a' }} {{ 0x1p-2 }} {{ 1_000 }} {{ 010 }} {{ -5 | printf \"%d\" }}"],
  ['{{ range $i, $e := query "demo_none" }}x{{ else }}empty{{ end }}'],
  ['{{ $labels.instance | reReplaceAll ":.*" "" }}'],
  ['{{ printf "%s" $value }}', '2'],
  ['{{ printf "%d %s" nil nil }}'],
  ['{{ print nil }} {{ printf "%v" .Missing }}'],
  ['{{ humanize 1e30 }} {{ humanize -1e-30 }} {{ humanize1024 -2048 }}'],
  ['{{ printf "%6.3v|%.0e|%#g" 3.14159 15.0 1.0 }}'],
  ['{{ js "\\u2028é\\x01" }} {{ html 1 "<" }} {{ urlquery "~a-b_c.d" }}'],
];

/** Templates at the edges of the syntax, most of which must not parse: promtool's verdict against `checkTemplate`'s. */
const PARSE_CHECKS: readonly string[] = [
  '{{ $labels.instance }',
  '{{',
  '{{ foo }}',
  '{{ now }}',
  '{{ $x }}',
  '{{ end }}',
  '{{ if 1 }}',
  '{{ "abc }}',
  '{{ .A | 1 }}',
  '{{ 3x }}',
  '{{ break }}',
  '{{/* x */ 1}}',
  '{{ (1 }}',
  '{{ range $a, $b, $c := . }}{{ end }}',
  '{{ $labels. }}',
  '{{ if . }}{{ else }}{{ else }}{{ end }}',
  '{{ /* x */ }}',
  '{{ "a" "b }}',
  '{{ 1.2.3 }}',
  '{{ `x }}',
  "{{ 'ab' }}",
  '{{ define "a" }}x{{ end }}{{ define "a" }}y{{ end }}',
  '{{ template x }}',
  '{{ $x := 1 }}{{ $x := }}',
  '{{ .a.b( }}',
  '{{ with }}{{ end }}',
  '{{ 99999999999999999999 }}',
  '{{ "\\q" }}',
  '{{ 1 | printf }}{{ ) }}',
  '{{ range . }}{{ else }}{{ else }}{{ end }}',
  '{{ else }}',
  'a\n{{ if }}\nb',
  '{{ if true }}\n{{ $z }}{{ end }}',
  '{{ ( }}',
  '{{ nil.x }}',
  '{{ "x".y }}',
  '{{ define "a" }}{{ else }}{{ end }}',
  '{{ else if }}',
  '{{ 1 }}{{ 2 }',
  'x {{ 1 \n}}',
  '{{ $x := 1, 2 }}',
  '{{ range $x, 1 }}{{ end }}',
  '{{ 1 + 2 }}',
  '{{ .x@ }}',
  '{{ $x@ }}',
  '{{ €  }}',
  '{{ 1i }}',
  '{{- /* unclosed }}',
];

const EVAL_MS = 60_000;
const EXTERNAL_URL = 'http://testhost:9090/path/prefix';

/** Answers the cases' queries as Prometheus does over the input series at 1m. */
const queryClient: QueryClient = {
  instant: (q: string) => {
    const vec = (result: { metric: Record<string, string>; value: string }[]): InstantQueryData => ({
      resultType: 'vector',
      result: result.map((r) => ({ metric: r.metric, value: [EVAL_MS / 1000, r.value] })),
    });
    const answers: Record<string, InstantQueryData> = {
      demo_requests: vec([
        { metric: { __name__: 'demo_requests', instance: 'a:9090', job: 'api' }, value: '20' },
        { metric: { __name__: 'demo_requests', instance: 'b:9090', job: 'api' }, value: '2' },
      ]),
      'sum(demo_requests)': vec([{ metric: {}, value: '22' }]),
      'scalar(sum(demo_requests))': { resultType: 'scalar', result: [EVAL_MS / 1000, '22'] },
      demo_none: vec([]),
    };
    // As the embedded engine's client words a parse error.
    if (q === 'demo_requests{') return Promise.reject(new Error('invalid parameter "query": 1:15: parse error: unexpected end of input inside braces'));
    const data = answers[q];
    if (data === undefined) return Promise.reject(new Error(`unexpected query ${q}`));
    return Promise.resolve({ data, warnings: [], infos: [] });
  },
  range: () => Promise.reject(new Error('not used')),
  series: () => Promise.reject(new Error('not used')),
  labelNames: () => Promise.reject(new Error('not used')),
  labelValues: () => Promise.reject(new Error('not used')),
  metadata: () => Promise.reject(new Error('not used')),
};

function labelsOf(i: number): Record<string, string> {
  return { __name__: 'demo_value', case: `c${i}`, instance: 'host.example.com:9090', job: 'node' };
}

/** Pulls `Annotations:{a="..."}` of each failing alert out of promtool's output. */
function parseGot(output: string): Map<string, string> {
  const got = new Map<string, string>();
  const re = /alertname: (T\d+), time: [^\n]*\n\s*exp:[\s\S]*?got:([\s\S]*?)(?=\n\s*alertname: |\nFAILED|$)/g;
  for (let m = re.exec(output); m !== null; m = re.exec(output)) {
    const a = /Annotations:\{a=("(?:[^"\\]|\\.)*")\}/.exec(m[2]);
    got.set(m[1], a === null ? `<no alert: ${m[2].trim()}>` : (goUnquote(a[1]) ?? a[1]));
  }
  return got;
}

describe('templates against promtool 2.42', () => {
  itWithPeer(
    'test rules: every case renders as promtool renders it',
    'promtool',
    async (promtool) => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'infersight-tmpl-'));
      try {
        const expander = createTemplateExpander({ queryClient, externalURL: EXTERNAL_URL, now: () => 0 });
        const rules: string[] = ['groups:', '  - name: templates', '    rules:'];
        const series: string[] = [
          "      - series: 'demo_requests{instance=\"a:9090\",job=\"api\"}'",
          "        values: '10 20 30'",
          "      - series: 'demo_requests{instance=\"b:9090\",job=\"api\"}'",
          "        values: '1 2 3'",
        ];
        const tests: string[] = [];
        const ours = new Map<string, string>();
        for (const [i, [template, value = '1234567']] of CASES.entries()) {
          const name = `T${i}`;
          rules.push(`      - alert: ${name}`, `        expr: demo_value{case="c${i}"}`, `        annotations:`, `          a: ${JSON.stringify(template)}`);
          series.push(`      - series: 'demo_value{case="c${i}",instance="host.example.com:9090",job="node"}'`, `        values: '${value} ${value} ${value}'`);
          const v = value === 'Inf' ? Infinity : value === '-Inf' ? -Infinity : Number(value);
          const out = await expander.expand(`__alert_${name}`, template, { labels: labelsOf(i), value: v, externalLabels: { region: 'eu' }, externalURL: EXTERNAL_URL }, EVAL_MS);
          ours.set(name, out);
          const { __name__: _, ...alertLabels } = labelsOf(i);
          tests.push(
            `      - eval_time: 1m`,
            `        alertname: ${name}`,
            `        exp_alerts:`,
            `          - exp_labels: ${JSON.stringify(alertLabels)}`,
            `            exp_annotations: ${JSON.stringify({ a: out })}`,
          );
        }
        writeFileSync(path.join(dir, 'rules.yml'), rules.join('\n') + '\n');
        const testFile = [
          'rule_files: [rules.yml]',
          'evaluation_interval: 1m',
          'tests:',
          '  - interval: 1m',
          `    external_url: ${EXTERNAL_URL}`,
          '    external_labels: {region: eu}',
          '    input_series:',
          ...series,
          '    alert_rule_test:',
          ...tests,
        ].join('\n');
        writeFileSync(path.join(dir, 'test.yml'), testFile + '\n');
        const res = spawnSync(promtool, ['test', 'rules', 'test.yml'], { cwd: dir, encoding: 'utf8', maxBuffer: 64 << 20 });
        const output = res.stdout + res.stderr;
        expect(output, output.slice(0, 3000)).not.toMatch(/could not|error loading|Unrecognized|yaml:/);
        const got = parseGot(output);
        const disagree = [...got].map(([name, theirs]) => {
          const i = Number(name.slice(1));
          return `${name} ${JSON.stringify(CASES[i][0])} ($value ${CASES[i][1] ?? '1234567'})\n    ours:     ${JSON.stringify(ours.get(name))}\n    promtool: ${JSON.stringify(theirs)}`;
        });
        process.stdout.write(`template differential: ${CASES.length - got.size} of ${CASES.length} cases agree with promtool 2.42\n${disagree.join('\n')}\n`);
        if (res.status !== 0) expect(got.size, output.slice(0, 3000)).toBeGreaterThan(0);
        expect(disagree).toEqual([]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    120_000,
  );

  itWithPeer(
    'check rules: the same templates parse, the others fail with the same message',
    'promtool',
    (promtool) => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'infersight-tmpl-'));
      try {
        const disagree: string[] = [];
        for (const [i, template] of PARSE_CHECKS.entries()) {
          const file = path.join(dir, `bad${i}.yml`);
          writeFileSync(file, ['groups:', '  - name: g', '    rules:', '      - alert: Bad', '        expr: up', '        annotations:', `          a: ${JSON.stringify(template)}`].join('\n') + '\n');
          const res = spawnSync(promtool, ['check', 'rules', file], { encoding: 'utf8' });
          const output = res.stdout + res.stderr;
          const ours = checkTemplate('__alert_Bad', template);
          const agree = ours === undefined ? res.status === 0 : res.status !== 0 && output.includes(ours);
          if (!agree) {
            disagree.push(`${JSON.stringify(template)}\n    ours:     ${ours}\n    promtool: ${output.split('\n').find((l) => l.includes('template')) ?? output.trim()}`);
          }
        }
        process.stdout.write(`template parse checks: ${PARSE_CHECKS.length - disagree.length} of ${PARSE_CHECKS.length} agree with promtool 2.42\n${disagree.join('\n')}\n`);
        expect(disagree).toEqual([]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      return Promise.resolve();
    },
    120_000,
  );
});
