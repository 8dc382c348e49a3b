import { expect, test } from 'vitest';
import { findDuplicateRules, formatDuplicateRules } from './lint.js';
import { parseRuleFile } from './parse.js';
import { testPorts } from './testing/ports.js';

function lint(text: string): string | undefined {
  const res = parseRuleFile(text, 'f.yml', testPorts);
  if (!res.ok) throw new Error('test file is invalid');
  const dups = findDuplicateRules(res.groups);
  return dups.length === 0 ? undefined : formatDuplicateRules(dups);
}

const RULES = (rules: string[][]): string =>
  `groups:\n${rules.map((rs, g) => `  - name: g${g}\n    rules:\n${rs.map((r) => `      - ${r}`).join('\n')}`).join('\n')}\n`;

test.each([
  ['no duplicates', RULES([['{record: a, expr: up}', '{record: b, expr: up}']]), undefined],
  ['same name, other labels', RULES([['{record: a, expr: up, labels: {x: "1"}}', '{record: a, expr: up, labels: {x: "2"}}']]), undefined],
  ['same name and labels, other expressions, across groups, sorted by name',
    RULES([['{record: a, expr: up, labels: {x: y}}', '{alert: B, expr: up}'], ['{record: a, expr: up + 1, labels: {x: y}}', '{alert: B, expr: down}']]),
    'lint error 2 duplicate rule(s) found.\nMetric: B\nLabel(s):\nMetric: a\nLabel(s):\n\tx: y\nMight cause inconsistency while recording expressions'],
  ['three copies count once', RULES([['{record: a, expr: up}', '{record: a, expr: up}', '{record: a, expr: up}']]),
    'lint error 1 duplicate rule(s) found.\nMetric: a\nLabel(s):\nMight cause inconsistency while recording expressions'],
])('%s', (_name, text, want) => {
  expect(lint(text)).toBe(want);
});
