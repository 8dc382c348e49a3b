import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { embeddedEngineDeps } from './embedded.js';
import { runScriptText } from './runner.js';

/** Our own promqltest cases (testdata/*.test): every eval must pass. */
const dir = fileURLToPath(new URL('./testdata/', import.meta.url));
const files = readdirSync(dir).filter((f) => f.endsWith('.test')).sort();

describe('promqltest: our own cases (testdata/*.test)', () => {
  it.each(files)('%s', async (name) => {
    const records = await runScriptText(name, readFileSync(dir + name, 'utf8'), embeddedEngineDeps());
    const failures = records.filter((r) => r.status !== 'pass').map((r) => `${r.file}:${r.line} ${r.expr}\n  ${r.status}: ${r.reason}`);
    expect(failures, failures.join('\n')).toEqual([]);
    expect(records.length).toBeGreaterThan(0);
  });
});
