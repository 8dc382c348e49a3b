import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCleanups } from '../model/testing/cleanups.js';
import { tempDir } from '../tsdb/testing/temp-dir.js';
import { UsageError } from './args.js';
import { readScenarioFile } from './scenario-file.js';

const EXAMPLE = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../docs/examples/scenario.json');
const cleanups = useCleanups();

function fileWith(name: string, text: string): string {
  const t = tempDir('scenario-file');
  cleanups.push(t.remove);
  const f = path.join(t.dir, name);
  writeFileSync(f, text);
  return f;
}

describe('readScenarioFile', () => {
  it('reads the example, named from its content', async () => {
    expect((await readScenarioFile(EXAMPLE, ['--scenario-file', EXAMPLE])).name).toBe('two-zone-chat');
  });

  it('names an unnamed scenario after its file', async () => {
    const text = JSON.stringify({ ...(JSON.parse((await import('node:fs')).readFileSync(EXAMPLE, 'utf8')) as object), name: undefined });
    expect((await readScenarioFile(fileWith('my fleet.json', text), [])).name).toBe('my-fleet');
  });

  it.each([
    ['a missing file', () => '/nonexistent/scenario.json', [], /^--scenario-file: cannot read "\/nonexistent\/scenario.json": ENOENT/],
    ['a bad field', () => fileWith('bad.json', '{"fleet": {"endpoints": []}}'), [], /^--scenario-file .*bad\.json: fleet\.endpoints: want an array of 1 to 1000 entries/],
    ['not JSON', () => fileWith('x.json', 'name: yaml'), [], /: not JSON: /],
    ['--scenario as well', () => EXAMPLE, ['--scenario', 'steady'], /exclude each other/],
  ])('refuses %s with a usage error', async (_name, file, argv, want) => {
    const p = readScenarioFile(file(), argv);
    await expect(p).rejects.toThrow(UsageError);
    await expect(readScenarioFile(file(), argv)).rejects.toThrow(want);
  });
});
