// `infersight serve` with a broken `quality:` section in --config.file: one line naming the file,
// line and column, exit status 1, no stack trace (docs/quality.md, "In the server and the demo").
import { writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';
import { runCli } from './cli.js';

const t = tempDir('e2e-quality-config');
afterAll(() => t.remove());

describe('a broken quality section', () => {
  it.each([
    ['an unknown store kind', 'quality:\n  store: {kind: mysql}\n', ':3:17: quality.store.kind: unknown store kind "mysql"; want pglite or postgres'],
    ['a share above 1', 'quality:\n  judge: {base_url: "http://127.0.0.1:1/v1", model: m, share: 2}\n', ':3:63: quality.judge.share: want a share between 0 and 1, got "2"'],
  ])('%s: one line with file:line:column, exit status 1', async (_name, section, want) => {
    const file = `${t.dir}/config-${_name.replace(/\W+/g, '-')}.yml`;
    writeFileSync(file, `scrape_configs: []\n${section}`);
    const { code, stderr } = await runCli(['serve', '--listen', '127.0.0.1:0', '--data', `${t.dir}/data`, '--otlp.listen', 'off', '--config.file', file]);
    const lines = stderr.split('\n').filter((l) => l !== '' && !l.startsWith('ts='));
    expect(lines, stderr).toEqual([`infersight: ${file}${want}`]);
    expect(code).toBe(1);
  });
});
