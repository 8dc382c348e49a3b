import { describe, expect, it, test } from 'vitest';
import { formatRuleFileErrors } from './errors.js';
import { parseRuleFile } from './parse.js';
import { testPorts } from './testing/ports.js';

/** What promtool prints under `  FAILED:` for `text` (one entry per error), or [] when it is valid. */
function errorsOf(text: string | Uint8Array): string[] {
  const res = parseRuleFile(text, 'f.yml', testPorts);
  return res.ok ? [] : formatRuleFileErrors('f.yml', res.errors);
}

const rule = (body: string): string => `groups:\n  - name: g\n    rules:\n      - ${body.replace(/\n/g, '\n        ')}\n`;

// Each row: a file and the errors promtool 2.42 prints for it (test/interop/check-rules.test.ts
// runs the same kinds of files through the real promtool).
const CASES: [name: string, text: string, want: string[]][] = [
  ['empty file', '', []],
  ['only a comment', '# nothing\n', []],
  ['empty groups', 'groups: []\n', []],
  ['null groups', 'groups:\n', []],
  ['a null group and a null rule are dropped', 'groups:\n  - ~\n  - name: x\n    rules:\n      - ~\n', []],
  ['unknown top-level field', 'foo: 1\n', ['f.yml: yaml: unmarshal errors:\n  line 1: field foo not found in type rulefmt.RuleGroups']],
  ['unknown group and rule fields in one block', 'groups:\n  - name: g\n    foo: 1\n    rules:\n      - record: a\n        expr: up\n        bar: 2\n', [
    'f.yml: yaml: unmarshal errors:\n  line 3: field foo not found in type rulefmt.RuleGroup\n  line 7: field bar not found in type rulefmt.RuleNode',
  ]],
  ['top level is a list: both passes complain', '- a\n', [
    'f.yml: yaml: unmarshal errors:\n  line 1: cannot unmarshal !!seq into rulefmt.RuleGroups',
    'f.yml: yaml: unmarshal errors:\n  line 1: cannot unmarshal !!seq into rulefmt.ruleGroups',
  ]],
  ['top level is a scalar', 'hello\n', [
    'f.yml: yaml: unmarshal errors:\n  line 1: cannot unmarshal !!str `hello` into rulefmt.RuleGroups',
    'f.yml: yaml: unmarshal errors:\n  line 1: cannot unmarshal !!str `hello` into rulefmt.ruleGroups',
  ]],
  ['groups is a number', 'groups: 5\n', [
    'f.yml: yaml: unmarshal errors:\n  line 1: cannot unmarshal !!int `5` into []rulefmt.RuleGroup',
    'f.yml: yaml: unmarshal errors:\n  line 1: cannot unmarshal !!int `5` into []yaml.Node',
  ]],
  ['a long scalar is cut in the message', 'abcdefghijklmnop\n', [
    'f.yml: yaml: unmarshal errors:\n  line 1: cannot unmarshal !!str `abcdefg...` into rulefmt.RuleGroups',
    'f.yml: yaml: unmarshal errors:\n  line 1: cannot unmarshal !!str `abcdefg...` into rulefmt.ruleGroups',
  ]],
  ['group name is a list', 'groups:\n  - name: [a]\n', ['f.yml: yaml: unmarshal errors:\n  line 2: cannot unmarshal !!seq into string']],
  ['rules is a map', 'groups:\n  - name: g\n    rules: {a: b}\n', ['f.yml: yaml: unmarshal errors:\n  line 3: cannot unmarshal !!map into []rulefmt.RuleNode']],
  ['limit is a word', 'groups:\n  - name: g\n    limit: abc\n', ['f.yml: yaml: unmarshal errors:\n  line 3: cannot unmarshal !!str `abc` into int']],
  ['limit is a bool', 'groups:\n  - name: g\n    limit: true\n', ['f.yml: yaml: unmarshal errors:\n  line 3: cannot unmarshal !!bool `true` into int']],
  ['labels is a list', rule('alert: A\nexpr: up\nlabels: [a]'), ['f.yml: yaml: unmarshal errors:\n  line 6: cannot unmarshal !!seq into map[string]string']],
  ['a label value is a list', rule('alert: A\nexpr: up\nlabels:\n  a: [x]'), ['f.yml: yaml: unmarshal errors:\n  line 7: cannot unmarshal !!seq into string']],
  ['a repeated key', 'groups:\n  - name: g\n    name: h\n', ['f.yml: yaml: unmarshal errors:\n  line 3: mapping key "name" already defined at line 2']],
  ["repeated keys in yaml.v3's pair order", 'groups:\n  - name: g\n    name: h\n    rules: []\n    name: i\n    rules: []\n', [
    'f.yml: yaml: unmarshal errors:\n  line 3: mapping key "name" already defined at line 2\n  line 5: mapping key "name" already defined at line 2\n  line 5: mapping key "name" already defined at line 3\n  line 6: mapping key "rules" already defined at line 4',
  ]],
  ['a bad interval stops decoding', 'groups:\n  - name: g\n    interval: 5x\n    foo: 1\n', ['f.yml: not a valid duration string: "5x"']],
  ['an interval without unit', 'groups:\n  - name: g\n    interval: 5\n', ['f.yml: not a valid duration string: "5"']],
  ['an empty for', rule('alert: A\nexpr: up\nfor: ""'), ['f.yml: empty duration string']],
  ['a for in words', rule('alert: A\nexpr: up\nfor: 5 minutes'), ['f.yml: not a valid duration string: "5 minutes"']],
  ['a for that is a list', rule('alert: A\nexpr: up\nfor: [1m]'), ['f.yml: yaml: unmarshal errors:\n  line 6: cannot unmarshal !!seq into string']],
  ['tabs', 'groups:\n\t- name: g\n', ['f.yml: yaml: line 2: found character that cannot start any token', 'f.yml: yaml: line 2: found character that cannot start any token']],
  ['control characters', 'groups: []\n\x01\n', ['f.yml: yaml: control characters are not allowed', 'f.yml: yaml: control characters are not allowed']],
  ['empty group names', 'groups:\n  - name: ""\n  - rules: []\n', ['f.yml: 2:5: Groupname must not be empty', 'f.yml: 3:5: Groupname must not be empty', 'f.yml: 3:5: groupname: "" is repeated in the same file']],
  ['a repeated group name', 'groups:\n  - name: g\n  - name: h\n  - name: g\n', ['f.yml: 4:5: groupname: "g" is repeated in the same file']],
  ['neither record nor alert', rule('expr: up'), ['f.yml: 0:0: group "g", rule 1, "": one of \'record\' or \'alert\' must be set']],
  ['record is a list', rule('record: [a]\nexpr: up'), ['f.yml: 4:17: group "g", rule 1, "": one of \'record\' or \'alert\' must be set']],
  ['both record and alert', rule('alert: X\nrecord: y\nexpr: up'), ['f.yml: 5:17: 4:16: group "g", rule 1, "X": only one of \'record\' and \'alert\' must be set']],
  ['no expr', rule('alert: A'), ['f.yml: 0:0: group "g", rule 1, "A": field \'expr\' must be set in rule']],
  ['expr is a map', rule('alert: A\nexpr: {a: 1}'), ['f.yml: 5:15: group "g", rule 1, "A": field \'expr\' must be set in rule']],
  ['a bad expression', rule('record: r\nexpr: sum(up'), ['f.yml: 5:15: group "g", rule 1, "r": could not parse expression: 1:7: parse error: unclosed left parenthesis']],
  ['for, keep_firing_for and annotations on a recording rule', rule('record: r\nexpr: up\nfor: 1m\nkeep_firing_for: 1m\nannotations:\n  a: b'), [
    'f.yml: 4:17: group "g", rule 1, "r": invalid field \'annotations\' in recording rule',
    'f.yml: 4:17: group "g", rule 1, "r": invalid field \'for\' in recording rule',
    'f.yml: 4:17: group "g", rule 1, "r": invalid field \'keep_firing_for\' in recording rule',
  ]],
  ['bad recording rule names', `groups:\n  - name: g\n    rules:\n      - record: "1abc"\n        expr: up\n      - record: a-b\n        expr: up\n      - record: 0\n        expr: up\n`, [
    'f.yml: 4:17: group "g", rule 1, "1abc": invalid recording rule name: 1abc',
    'f.yml: 6:17: group "g", rule 2, "a-b": invalid recording rule name: a-b',
    'f.yml: 8:17: group "g", rule 3, "0": invalid recording rule name: 0',
  ]],
  ['bad label and annotation names, __name__', rule('alert: A\nexpr: up\nlabels:\n  __name__: x\n  "bad-l": y\nannotations:\n  "bad-a": z'), [
    'f.yml: group "g", rule 1, "A": invalid label name: __name__',
    'f.yml: group "g", rule 1, "A": invalid label name: bad-l',
    'f.yml: group "g", rule 1, "A": invalid annotation name: bad-a',
  ]],
  ['bad templates on an alert', rule('alert: A\nexpr: up\nlabels:\n  l: "{{ $labels.x"\nannotations:\n  a: "{{ $value"'), [
    'f.yml: group "g", rule 1, "A": label "l": template: __alert_A:1: unclosed action',
    'f.yml: group "g", rule 1, "A": annotation "a": template: __alert_A:1: unclosed action',
  ]],
  ['templates of a recording rule are not checked', rule('record: a\nexpr: up\nlabels:\n  l: "{{ x"'), []],
  ['errors of two rules keep their index', `groups:\n  - name: g\n    rules:\n      - record: a\n        expr: up\n      - record: b\n        expr: BAD\n`, [
    'f.yml: 7:15: group "g", rule 2, "b": could not parse expression: 1:1: parse error: unexpected identifier "BAD"',
  ]],
  ['scalars of any type are strings', rule('record: a\nexpr: 1\nlabels:\n  x: 5\n  y: true\n  z: ~'), []],
  ['limit may be a float (truncated) or negative', 'groups:\n  - name: g\n    limit: 1.5\n  - name: h\n    limit: -1\n', []],
  ['only the first document counts', 'groups: []\n---\ngroups: [x]\n', []],
  ['merge keys: written keys win wherever they stand, the first merged map wins', `groups:\n  - name: g\n    rules:\n      - &base {alert: A, expr: up}\n      - alert: C\n        <<: *base\n      - <<: [{expr: "sum(up"}, *base]\n`, [
    'f.yml: 7:21: group "g", rule 3, "A": could not parse expression: 1:7: parse error: unclosed left parenthesis',
  ]],
  ['a merge key that is no map', rule('<<: 5\nalert: B\nexpr: up'), ['f.yml: yaml: map merge requires map or sequence of maps as the value']],
  ['an unknown field merged in is reported', rule('<<: {alert: X, foo: 1}\nexpr: up'), ['f.yml: yaml: unmarshal errors:\n  line 4: field foo not found in type rulefmt.RuleNode']],
  ['query_offset (Prometheus 3.x) is accepted', 'groups:\n  - name: g\n    query_offset: 1m\n', []],
];

test.each(CASES)('%s', (_name, text, want) => {
  expect(errorsOf(text)).toEqual(want);
});

describe('bytes are read as yaml.v3 reads them', () => {
  test.each([
    ['a bad leading octet', [0x67, 0xff], 'yaml: invalid leading UTF-8 octet'],
    ['a bad trailing octet', [0x67, 0xc3, 0x28], 'yaml: invalid trailing UTF-8 octet'],
    ['a cut sequence', [0x67, 0xe2, 0x82], 'yaml: incomplete UTF-8 octet sequence'],
    ['a NUL byte', [0x00, 0x01], 'yaml: control characters are not allowed'],
    ['an overlong sequence', [0x67, 0xc0, 0x80], 'yaml: invalid length of a UTF-8 sequence'],
    ['a surrogate', [0x67, 0xed, 0xa0, 0x80], 'yaml: invalid Unicode character'],
    ['past U+10FFFF', [0x67, 0xf4, 0x90, 0x80, 0x80], 'yaml: invalid Unicode character'],
  ])('%s', (_name, bytes, want) => {
    expect(errorsOf(new Uint8Array(bytes))).toEqual([`f.yml: ${want}`, `f.yml: ${want}`]);
  });

  it('skips a UTF-8 byte order mark', () => {
    expect(errorsOf(new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('groups: []\n')]))).toEqual([]);
  });
});

describe('the groups of a valid file', () => {
  it('become RuleGroupSpecs with positions, durations in ms and query_offset', () => {
    const text = [
      'groups:',
      '  - name: g',
      '    interval: 30s',
      '    query_offset: 1m',
      '    limit: 10',
      '    rules:',
      '      - record: job:up:sum',
      '        expr: sum by (job) (up)',
      '        labels: {team: a}',
      '      - alert: Down',
      '        expr: up == 0',
      '        for: 5m',
      '        keep_firing_for: 1m',
      '        annotations:',
      '          summary: "{{ $labels.instance }} down"',
      '  - name: h',
      '    rules: []',
    ].join('\n');
    const res = parseRuleFile(text, 'rules/a.yml', testPorts);
    expect(res).toEqual({
      ok: true,
      groups: [
        {
          name: 'g', file: 'rules/a.yml', intervalMs: 30_000, queryOffsetMs: 60_000, limit: 10, position: { line: 2, column: 5 },
          rules: [
            { kind: 'recording', record: 'job:up:sum', expr: 'sum by (job) (up)', labels: { team: 'a' }, position: { line: 7, column: 9 } },
            { kind: 'alerting', alert: 'Down', expr: 'up == 0', forMs: 300_000, keepFiringForMs: 60_000, labels: {}, annotations: { summary: '{{ $labels.instance }} down' }, position: { line: 10, column: 9 } },
          ],
        },
        { name: 'h', file: 'rules/a.yml', intervalMs: undefined, queryOffsetMs: undefined, limit: 0, position: { line: 16, column: 5 }, rules: [] },
      ],
    });
  });

  it('an error promtool prints without a position still says where it is', () => {
    const res = parseRuleFile(rule('alert: A\nexpr: up\nlabels:\n  "bad-l": y'), 'f.yml', testPorts);
    expect(res.ok ? [] : res.errors.map((e) => e.at)).toEqual([{ line: 7, column: 11 }]);
  });

  it('a bad duration says where it is', () => {
    const res = parseRuleFile('groups:\n  - name: g\n    interval: 5x\n', 'f.yml', testPorts);
    expect(res.ok ? [] : res.errors.map((e) => e.at)).toEqual([{ line: 3, column: 15 }]);
  });
});

describe('hostile files end in an error or a result, never a crash', () => {
  it('refuses nesting deeper than yaml.v3 allows with yaml.v3 words, before parsing', () => {
    const deep = `groups: ${'['.repeat(10_001)}${']'.repeat(10_001)}\n`;
    expect(errorsOf(deep)).toEqual(['f.yml: yaml: exceeded max depth of 10000', 'f.yml: yaml: exceeded max depth of 10000']);
  });

  test.each([
    ['flow', 1, (n: number) => `groups: ${'['.repeat(n)}${']'.repeat(n)}\n`],
    ['block', 2, (n: number) => `groups:\n${'- '.repeat(n)}x\n`],
    ['indentation', 3, (n: number) => `groups:\n${Array.from({ length: n }, (_, i) => `${' '.repeat(i + 1)}- `).join('\n')}x\n`],
  ])('refuses %s nesting past our own limit (100), and reads 98 levels as one type error', (_kind, line, doc) => {
    expect(errorsOf(doc(101))[0]).toBe("f.yml: yaml: nested deeper than 100 levels (Infersight's limit; yaml.v3's is 10000)");
    expect(errorsOf(doc(98))).toEqual([`f.yml: yaml: unmarshal errors:\n  line ${line}: cannot unmarshal !!seq into rulefmt.RuleGroup`]);
  });

  it('stops an alias bomb (groups of rules of labels, all aliased) with yaml.v3 words', () => {
    const n = 300;
    const labels = `{${Array.from({ length: n }, (_, i) => `l${i}: v`).join(', ')}}`;
    const bomb = [
      'groups:',
      '  - name: g',
      '    rules:',
      `      - &r {record: a, expr: up, labels: ${labels}}`,
      '  - &g',
      '    name: h',
      `    rules: [${Array(n).fill('*r').join(', ')}]`,
      ...Array<string>(n).fill('  - *g'),
      '',
    ].join('\n');
    expect(errorsOf(bomb)).toEqual(['f.yml: yaml: document contains excessive aliasing']);
  });

  it('lets a few hundred aliases of one rule through (yaml.v3 does), to the duplicate lint', () => {
    const text = `groups:\n  - name: h\n    rules:\n      - &r {record: a, expr: up}\n${'      - *r\n'.repeat(300)}`;
    const res = parseRuleFile(text, 'f.yml', testPorts);
    expect(res.ok && res.groups[0].rules.length).toBe(301);
  });

  it('checks 100,000 labels for repeats in linear time, and stops at 1,000 repeat errors', () => {
    const labels = Array.from({ length: 100_000 }, (_, i) => `  l${i}: v`).join('\n');
    expect(parseRuleFile(rule(`record: a\nexpr: up\nlabels:\n${labels}`), 'f.yml', testPorts).ok).toBe(true);
    const res = parseRuleFile(rule(`record: a\nexpr: up\nlabels:\n${'  x: v\n'.repeat(5000)}`), 'f.yml', testPorts);
    expect(res.ok ? 0 : res.errors.length).toBe(1000);
  });

  it('takes a 1 MB expression', () => {
    const res = parseRuleFile(rule(`record: a\nexpr: up{a="${'x'.repeat(1 << 20)}"}`), 'f.yml', testPorts);
    expect(res.ok && res.groups[0].rules[0].expr.length).toBe((1 << 20) + 8);
  });

  it('takes 20,000 rules', () => {
    const rules = Array.from({ length: 20_000 }, (_, i) => `      - record: r${i}\n        expr: up`).join('\n');
    const res = parseRuleFile(`groups:\n  - name: g\n    rules:\n${rules}\n`, 'f.yml', testPorts);
    expect(res.ok && res.groups[0].rules.length).toBe(20_000);
  });
});
