import { describe, expect, it } from 'vitest';
import { MAX_YAML_DEPTH, yamlNestingDepth } from './yaml-depth.js';
import { parseYamlDocument } from './yaml-reader.js';

describe('yamlNestingDepth', () => {
  it.each([
    ['a flat map', 'a: 1\nb: 2\n', 1],
    ['a block map in a map', 'a:\n  b: 1\n', 2],
    ['a list entry in a map', 'a:\n  - b: 1\n', 3],
    ['flow collections', 'a: [[1], {b: [2]}]\n', 4],
    ['brackets inside quotes and comments', 'a: "[[[" # [[[\nb: \'{{\'\n', 1],
  ])('%s', (_name, text, want) => {
    expect(yamlNestingDepth(text)).toBe(want);
  });
});

describe('parseYamlDocument and hostile nesting', () => {
  it.each([
    ['flow', '['.repeat(20_000)],
    ['block', Array.from({ length: 5_000 }, (_, i) => `${' '.repeat(i)}k:`).join('\n')],
    ['list entries', `x:\n${'- '.repeat(5_000)}1\n`],
  ])('refuses %s nesting past the bound with a ConfigError, before the parser recurses', (_name, text) => {
    expect(() => parseYamlDocument(text)).toThrow(`yaml: nested deeper than ${MAX_YAML_DEPTH} levels`);
  });

  it('reads nesting at the bound', () => {
    const text = `${'['.repeat(MAX_YAML_DEPTH - 1)}1${']'.repeat(MAX_YAML_DEPTH - 1)}\n`;
    expect(parseYamlDocument(text).isNull()).toBe(false);
  });
});
