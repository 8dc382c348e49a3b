import { describe, expect, it } from 'vitest';
import { Labels } from '../model/index.js';
import { hashMod, parseRelabelConfigs, relabel, relabelConfig, type RelabelConfig } from './relabel.js';
import { parseYamlDocument } from './yaml-reader.js';

type Fields = Parameters<typeof relabelConfig>[0];

const L = (r: Record<string, string>) => Labels.from(r);
const rec = (l: Labels | null) => (l === null ? null : Object.fromEntries(l.flat().flatMap((_, i, a) => (i % 2 === 0 ? [[a[i], a[i + 1]]] : []))));

/** Prometheus' TestRelabel table (model/relabel/relabel_test.go), plus cases for every action. */
const CASES: [name: string, input: Record<string, string>, cfgs: Fields[], want: Record<string, string> | null][] = [
  ['replace with ${1} twice', { a: 'foo', b: 'bar', c: 'baz' }, [{ sourceLabels: ['a'], regex: 'f(.*)', targetLabel: 'd', replacement: 'ch${1}-ch${1}' }], { a: 'foo', b: 'bar', c: 'baz', d: 'choo-choo' }],
  ['replace chained over two source labels', { a: 'foo', b: 'bar', c: 'baz' }, [
    { sourceLabels: ['a', 'b'], regex: 'f(.*);(.*)r', targetLabel: 'a', replacement: 'b${1}${2}m' },
    { sourceLabels: ['c', 'a'], regex: '(b).*b(.*)ba(.*)', targetLabel: 'd', replacement: '$1$2$2$3' },
  ], { a: 'boobam', b: 'bar', c: 'baz', d: 'boooom' }],
  ['drop before replace', { a: 'foo' }, [{ sourceLabels: ['a'], regex: '.*o.*', action: 'drop' }, { sourceLabels: ['a'], regex: 'f(.*)', targetLabel: 'd', replacement: 'ch$1-ch$1' }], null],
  ['drop on match', { a: 'foo', b: 'bar' }, [{ sourceLabels: ['a'], regex: '.*o.*', action: 'drop' }], null],
  ['replace with a group in the middle', { a: 'abc' }, [{ sourceLabels: ['a'], regex: '.*(b).*', targetLabel: 'd' }], { a: 'abc', d: 'b' }],
  ['drop without match keeps', { a: 'foo' }, [{ sourceLabels: ['a'], regex: 'no-match', action: 'drop' }], { a: 'foo' }],
  ['regex is anchored (f|o does not match foo)', { a: 'foo' }, [{ sourceLabels: ['a'], regex: 'f|o', action: 'drop' }], { a: 'foo' }],
  ['keep without match drops', { a: 'foo' }, [{ sourceLabels: ['a'], regex: 'no-match', action: 'keep' }], null],
  ['keep on match', { a: 'foo' }, [{ sourceLabels: ['a'], regex: 'f.*', action: 'keep' }], { a: 'foo' }],
  ['no replacement without a match', { a: 'boo' }, [{ sourceLabels: ['a'], regex: 'f', targetLabel: 'b', replacement: 'bar' }], { a: 'boo' }],
  ['hashmod (Prometheus: baz % 1000 = 976)', { a: 'foo', b: 'bar', c: 'baz' }, [{ sourceLabels: ['c'], targetLabel: 'd', action: 'hashmod', modulus: 1000 }], { a: 'foo', b: 'bar', c: 'baz', d: '976' }],
  ['hashmod over a newline (Prometheus: 734)', { a: 'foo\nbar' }, [{ sourceLabels: ['a'], targetLabel: 'b', action: 'hashmod', modulus: 1000 }], { a: 'foo\nbar', b: '734' }],
  ['labelmap', { a: 'foo', b1: 'bar', b2: 'baz' }, [{ regex: '(b.*)', replacement: 'bar_${1}', action: 'labelmap' }], { a: 'foo', b1: 'bar', b2: 'baz', bar_b1: 'bar', bar_b2: 'baz' }],
  ['labelmap of meta labels', { a: 'foo', __meta_my_bar: 'aaa', __meta_my_baz: 'bbb', __meta_other: 'ccc' }, [{ regex: '__meta_(my.*)', replacement: '${1}', action: 'labelmap' }],
    { a: 'foo', __meta_my_bar: 'aaa', __meta_my_baz: 'bbb', __meta_other: 'ccc', my_bar: 'aaa', my_baz: 'bbb' }],
  ['target label from a group', { a: 'some-name-value' }, [{ sourceLabels: ['a'], regex: 'some-([^-]+)-([^,]+)', replacement: '${2}', targetLabel: '${1}' }], { a: 'some-name-value', name: 'value' }],
  ['empty replacement from a missing group sets nothing', { a: 'some-name-value' }, [{ sourceLabels: ['a'], regex: 'some-([^-]+)-([^,]+)', replacement: '${3}', targetLabel: '${1}' }], { a: 'some-name-value' }],
  ['invalid expanded target label is skipped', { a: 'some-name-0' }, [
    { sourceLabels: ['a'], regex: 'some-([^-]+)-([^,]+)', replacement: '${1}', targetLabel: '${3}' },
    { sourceLabels: ['a'], regex: 'some-([^-]+)(-[^,]+)', replacement: '${1}', targetLabel: '${3}' },
  ], { a: 'some-name-0' }],
  ['real-life tags', { __meta_sd_tags: 'path:/secret,job:some-job,label:foo=bar' }, [
    { sourceLabels: ['__meta_sd_tags'], regex: '(?:.+,|^)path:(/[^,]+).*', replacement: '${1}', targetLabel: '__metrics_path__' },
    { sourceLabels: ['__meta_sd_tags'], regex: '(?:.+,|^)job:([^,]+).*', replacement: '${1}', targetLabel: 'job' },
    { sourceLabels: ['__meta_sd_tags'], regex: '(?:.+,|^)label:([^=]+)=([^,]+).*', replacement: '${2}', targetLabel: '${1}' },
  ], { __meta_sd_tags: 'path:/secret,job:some-job,label:foo=bar', __metrics_path__: '/secret', job: 'some-job', foo: 'bar' }],
  ['labeldrop then replace then keep (prometheus#12283)', { __meta_kubernetes_pod_container_port_name: 'foo', __meta_kubernetes_pod_annotation_XXX_metrics_port: '9091' }, [
    { regex: '^__meta_kubernetes_pod_container_port_name$', action: 'labeldrop' },
    { sourceLabels: ['__meta_kubernetes_pod_annotation_XXX_metrics_port'], regex: '(.+)', replacement: 'metrics', targetLabel: '__meta_kubernetes_pod_container_port_name' },
    { sourceLabels: ['__meta_kubernetes_pod_container_port_name'], regex: '^metrics$', action: 'keep' },
  ], { __meta_kubernetes_pod_annotation_XXX_metrics_port: '9091', __meta_kubernetes_pod_container_port_name: 'metrics' }],
  ['labelkeep', { a: 'foo', b1: 'bar', b2: 'baz' }, [{ regex: '(b.*)', action: 'labelkeep' }], { b1: 'bar', b2: 'baz' }],
  ['labeldrop', { a: 'foo', b1: 'bar', b2: 'baz' }, [{ regex: '(b.*)', action: 'labeldrop' }], { a: 'foo' }],
  ['uppercase and lowercase', { foo: 'bAr123Foo' }, [{ sourceLabels: ['foo'], action: 'uppercase', targetLabel: 'foo_uppercase' }, { sourceLabels: ['foo'], action: 'lowercase', targetLabel: 'foo_lowercase' }],
    { foo: 'bAr123Foo', foo_lowercase: 'bar123foo', foo_uppercase: 'BAR123FOO' }],
  ['keepequal keeps equal', { __tmp_port: '1234', __port1: '1234', __port2: '5678' }, [{ sourceLabels: ['__tmp_port'], action: 'keepequal', targetLabel: '__port1' }], { __tmp_port: '1234', __port1: '1234', __port2: '5678' }],
  ['dropequal drops equal', { __tmp_port: '1234', __port1: '1234', __port2: '5678' }, [{ sourceLabels: ['__tmp_port'], action: 'dropequal', targetLabel: '__port1' }], null],
  ['dropequal keeps different', { __tmp_port: '1234', __port1: '1234', __port2: '5678' }, [{ sourceLabels: ['__tmp_port'], action: 'dropequal', targetLabel: '__port2' }], { __tmp_port: '1234', __port1: '1234', __port2: '5678' }],
  ['keepequal drops different', { __tmp_port: '1234', __port1: '1234', __port2: '5678' }, [{ sourceLabels: ['__tmp_port'], action: 'keepequal', targetLabel: '__port2' }], null],
  // Beyond the upstream table.
  ['replace with an empty result deletes the target label', { a: 'x', b: 'y' }, [{ sourceLabels: ['a'], targetLabel: 'b', replacement: '' }], { a: 'x' }],
  ['default regex (.*) does not match a newline (no dot-all)', { a: 'foo\nbar' }, [{ sourceLabels: ['a'], targetLabel: 'b' }], { a: 'foo\nbar' }],
  ['missing source labels join as empty strings', { a: 'x' }, [{ sourceLabels: ['a', 'missing', 'a'], separator: '-', targetLabel: 'b' }], { a: 'x', b: 'x--x' }],
  ['named groups and $$', { a: 'v1.2' }, [{ sourceLabels: ['a'], regex: 'v(?P<major>\\d+)\\.(\\d+)', targetLabel: 'b', replacement: '$$${major}_$2' }], { a: 'v1.2', b: '$1_2' }],
  ['$1x names group "1x" (Go) and expands to nothing', { a: 'foo' }, [{ sourceLabels: ['a'], regex: '(f)oo', targetLabel: 'b', replacement: '$1x' }], { a: 'foo' }],
  ['RE2 case-insensitive flag', { a: 'FOO' }, [{ sourceLabels: ['a'], regex: '(?i)foo', action: 'keep' }], { a: 'FOO' }],
  ['hashmod of the empty join', { a: 'x' }, [{ sourceLabels: ['missing'], targetLabel: 'h', modulus: 10, action: 'hashmod' }], { a: 'x', h: hashMod('', 10) }],
];

describe('relabel (Prometheus model/relabel semantics)', () => {
  it.each(CASES)('%s', (_name, input, cfgs, want) => {
    const configs: RelabelConfig[] = cfgs.map((c) => relabelConfig(c));
    expect(rec(relabel(L(input), configs))).toEqual(want);
  });

  it.each([
    // Values from Prometheus' own tests and documented sharding examples, recomputed by md5.
    ['baz', 1000, '976'],
    ['foo\nbar', 1000, '734'],
  ])('hashmod(%j, %d) = %s', (value, modulus, want) => {
    expect(hashMod(value, modulus)).toBe(want);
  });

  it('hashmod uses the last 8 bytes of md5 as a big-endian uint64', () => {
    // md5("baz") = 73feffa4b7f6bb68e44cf984c85f6e88; 0xe44cf984c85f6e88 % 1000 = 976.
    expect((0xe44cf984c85f6e88n % 1000n).toString()).toBe('976');
    expect(hashMod('baz', 2 ** 32)).toBe((0xe44cf984c85f6e88n % 2n ** 32n).toString());
  });
});

describe('relabel config validation (Prometheus messages)', () => {
  const check = (yaml: string) => () => parseRelabelConfigs(parseYamlDocument(yaml));
  it.each([
    ['- action: hashmod\n  target_label: x', 'relabel configuration for hashmod requires non-zero modulus'],
    ['- action: replace', "relabel configuration for replace action requires 'target_label' value"],
    ['- action: lowercase', "relabel configuration for lowercase action requires 'target_label' value"],
    ['- action: lowercase\n  target_label: ${3}', `"\${3}" is invalid 'target_label' for lowercase action`],
    ['- target_label: 0${3}', `"0\${3}" is invalid 'target_label' for replace action`],
    ['- target_label: -${3}', `"-\${3}" is invalid 'target_label' for replace action`],
    ['- target_label: a-b', `"a-b" is invalid 'target_label' for replace action`],
    ['- action: uppercase\n  target_label: x\n  replacement: y', "'replacement' can not be set for uppercase action"],
    ['- action: labelmap\n  replacement: 0-x', `"0-x" is invalid 'replacement' for labelmap action`],
    ['- action: hashmod\n  modulus: 2\n  target_label: a-b', `"a-b" is invalid 'target_label' for hashmod action`],
    ['- action: keepequal\n  target_label: x\n  regex: y', "keepequal action requires only 'source_labels' and `target_label`, and no other fields"],
    ['- action: dropequal\n  target_label: x\n  separator: ","', "dropequal action requires only 'source_labels' and `target_label`, and no other fields"],
    ['- action: labeldrop\n  source_labels: [a]', "labeldrop action requires only 'regex', and no other fields"],
    ['- action: labelkeep\n  target_label: a', "labelkeep action requires only 'regex', and no other fields"],
    ['- action: explode', 'line 1: [0].action: unknown relabel action "explode"'],
    ['- source_labels: [a-b]\n  target_label: x', 'line 1: [0].source_labels[0]: "a-b" is not a valid label name'],
    ['- regex: "(a"\n  target_label: x', 'error parsing regexp: missing closing )'],
    ['- regex: "(?=a)"\n  target_label: x', 'invalid or unsupported Perl syntax'],
    ['- target_label: x\n  colour: red', 'line 2: field colour not found in type relabel.Config'],
    ['- modulus: -1\n  action: hashmod\n  target_label: x', 'cannot unmarshal !!int `-1` into uint'],
  ])('%j → %s', (yaml, message) => {
    expect(check(yaml)).toThrow(message);
  });

  it('accepts action names in any case and the Prometheus defaults', () => {
    const [c] = parseRelabelConfigs(parseYamlDocument('- action: Replace\n  target_label: x'));
    expect({ ...c, compiled: undefined }).toEqual({ sourceLabels: [], separator: ';', regex: '(.*)', modulus: 0, targetLabel: 'x', replacement: '$1', action: 'replace', compiled: undefined });
  });
});
