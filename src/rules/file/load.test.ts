import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRuleFiles, type RuleFileFs } from './load.js';
import { testPorts } from './testing/ports.js';

/** A file system over a map of absolute paths to contents. */
function memFs(files: Record<string, string>): RuleFileFs {
  return {
    readFile: async (f) => {
      const text = files[f];
      if (text === undefined) throw new Error(`open ${f}: no such file or directory`);
      return new TextEncoder().encode(text);
    },
    readdir: async (dir) => {
      const names = Object.keys(files).filter((f) => path.dirname(f) === dir).map((f) => path.basename(f));
      if (names.length === 0) throw new Error(`open ${dir}: no such file or directory`);
      return names;
    },
  };
}

const group = (name: string): string => `groups:\n  - name: ${name}\n    rules:\n      - record: r\n        expr: up\n`;

describe('loadRuleFiles', () => {
  const fs = memFs({
    '/etc/p/rules/b.yml': group('b'),
    '/etc/p/rules/a.yml': group('a'),
    '/etc/p/rules/notes.txt': 'not rules',
    '/etc/p/other.yml': group('a'),
    '/abs/x.yml': group('x'),
  });

  it('resolves patterns against the base directory, sorts matches, keeps pattern order and loads each file once', async () => {
    const res = await loadRuleFiles(['other.yml', 'rules/*.yml', 'rules/a.yml', '/abs/x.yml'], '/etc/p', { ...testPorts, fs });
    expect(res.files).toEqual(['/etc/p/other.yml', '/etc/p/rules/a.yml', '/etc/p/rules/b.yml', '/abs/x.yml']);
    // One group name may appear in two files; a group is identified by file and name.
    expect(res.groups.map((g) => `${g.file}:${g.name}`)).toEqual(['/etc/p/other.yml:a', '/etc/p/rules/a.yml:a', '/etc/p/rules/b.yml:b', '/abs/x.yml:x']);
    expect(res.failures).toEqual([]);
  });

  it('takes patterns that match nothing, and missing directories, as no files', async () => {
    const res = await loadRuleFiles(['rules/*.yaml', 'nowhere/*.yml', 'missing.yml'], '/etc/p', { ...testPorts, fs });
    expect(res).toEqual({ files: [], groups: [], failures: [], messages: [] });
  });

  it('collects every failing file with promtool wording, and refuses a * outside the last element', async () => {
    const bad = memFs({ '/d/a.yml': 'groups:\n  - name: g\n    foo: 1\n', '/d/b.yml': group('b'), '/d/c.yml': 'groups: [\n' });
    const res = await loadRuleFiles(['*.yml', 'x*/y.yml'], '/d', { ...testPorts, fs: bad });
    expect(res.groups.map((g) => g.name)).toEqual(['b']);
    expect(res.messages).toEqual([
      'x*/y.yml: invalid rule file path "x*/y.yml"',
      '/d/a.yml: yaml: unmarshal errors:\n  line 3: field foo not found in type rulefmt.RuleGroup',
      expect.stringMatching(/^\/d\/c\.yml: yaml: line \d+: /),
      expect.stringMatching(/^\/d\/c\.yml: yaml: line \d+: /),
    ]);
  });

  it('reports a file that cannot be read', async () => {
    const broken: RuleFileFs = { readdir: async () => ['a.yml'], readFile: async () => Promise.reject(new Error('EACCES: permission denied')) };
    const res = await loadRuleFiles(['*.yml'], '/d', { ...testPorts, fs: broken });
    expect(res.messages).toEqual(['/d/a.yml: EACCES: permission denied']);
  });
});
