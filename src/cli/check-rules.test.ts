import { describe, expect, it } from 'vitest';
import { checkRulesCommand, type CheckRulesIo } from './check-rules.js';

/** Runs `check-rules` over in-memory files; returns its status and what it printed on each stream. */
async function run(argv: string[], files: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CheckRulesIo = {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    readFile: async (f) => (f === 'locked.yml' ? Promise.reject(new Error('EACCES: permission denied, open \'locked.yml\'')) : new TextEncoder().encode(files[f])),
    kind: async (f) => (f.endsWith('/') ? 'dir' : f in files ? 'file' : undefined),
  };
  const code = await checkRulesCommand(argv, io);
  return { code, stdout, stderr };
}

const GOOD = 'groups:\n  - name: g\n    rules:\n      - record: job:up:sum\n        expr: sum by (job) (up)\n      - alert: Down\n        expr: up == 0\n';
const BAD = 'groups:\n  - name: g\n    rules:\n      - record: r\n        expr: sum(up\n';
const DUP = 'groups:\n  - name: g\n    rules:\n      - record: r\n        expr: up\n      - record: r\n        expr: up\n';

describe('infersight check-rules', () => {
  it('prints what promtool prints for good and bad files and exits 1 when one failed', async () => {
    const res = await run(['good.yml', 'bad.yml'], { 'good.yml': GOOD, 'bad.yml': BAD });
    expect(res).toEqual({
      code: 1,
      stdout: 'Checking good.yml\n  SUCCESS: 2 rules found\n\nChecking bad.yml\n\n',
      stderr: '  FAILED:\nbad.yml: 5:15: group "g", rule 1, "r": could not parse expression: 1:7: parse error: unclosed left parenthesis\n',
    });
  });

  it.each([
    ['{{ $labels.x', 'template: __alert_A:1: unclosed action'],
    ['{{ nosuch }}', 'template: __alert_A:1: function "nosuch" not defined'],
  ])('checks the templates of alerts with Go\'s parser: %s', async (template, want) => {
    const text = `groups:\n  - name: g\n    rules:\n      - alert: A\n        expr: up\n        annotations:\n          s: "${template}"\n`;
    const res = await run(['a.yml'], { 'a.yml': text });
    expect(res.stderr).toBe(`  FAILED:\na.yml: group "g", rule 1, "A": annotation "s": ${want}\n`);
  });

  it.each([
    [[], 0, 'Checking d.yml\n\n', '  FAILED:\nlint error 1 duplicate rule(s) found.\nMetric: r\nLabel(s):\nMight cause inconsistency while recording expressions\n'],
    [['--lint-fatal'], 3, 'Checking d.yml\n\n', expect.stringContaining('lint error 1 duplicate')],
    [['--lint=none'], 0, 'Checking d.yml\n  SUCCESS: 2 rules found\n\n', ''],
    [['--lint=none,spelling'], 0, 'WARNING: unknown lint option spelling\nChecking d.yml\n  SUCCESS: 2 rules found\n\n', ''],
  ])('the duplicate-rules lint with %j exits %i', async (flags, code, stdout, stderr) => {
    expect(await run([...flags, 'd.yml'], { 'd.yml': DUP })).toEqual({ code, stdout, stderr });
  });

  it('a file that cannot be read fails like an invalid one', async () => {
    expect(await run(['locked.yml'], { 'locked.yml': '' })).toEqual({
      code: 1,
      stdout: 'Checking locked.yml\n\n',
      stderr: "  FAILED:\nlocked.yml: EACCES: permission denied, open 'locked.yml'\n",
    });
  });

  it('a lint problem does not hide a real failure: exit 1', async () => {
    expect((await run(['--lint-fatal', 'd.yml', 'bad.yml'], { 'd.yml': DUP, 'bad.yml': BAD })).code).toBe(1);
  });

  it.each([
    [[], "infersight check-rules: error: required argument 'rule-files' not provided, try --help\n"],
    [['good.yml', 'missing.yml'], "infersight check-rules: error: path 'missing.yml' does not exist, try --help\n"],
    [['rules/'], "infersight check-rules: error: 'rules/' is a directory, try --help\n"],
  ])('refuses %j before checking anything, with status 1 as promtool', async (argv, stderr) => {
    expect(await run(argv, { 'good.yml': GOOD })).toEqual({ code: 1, stdout: '', stderr });
  });
});
