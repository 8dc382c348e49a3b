import { readdirSync } from 'node:fs';
import { join, matchesGlob, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { TIERS } from '../tiers.js';

const REPO = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** Every `*.test.ts(x)` below `dir`, repository-relative with `/`. */
function testFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(REPO, dir), { withFileTypes: true })) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory() && e.name !== 'node_modules') out.push(...testFiles(rel));
    else if (e.isFile() && /\.test\.tsx?$/.test(e.name)) out.push(rel);
  }
  return out;
}

test('every test file belongs to exactly one tier', () => {
  const files = ['src', 'test', 'web/src'].flatMap(testFiles);
  expect(files.length).toBeGreaterThan(100);
  const wrong = files
    .map((f) => ({ f, tiers: Object.entries(TIERS).filter(([, globs]) => globs.some((g) => matchesGlob(f, g))).map(([t]) => t) }))
    .filter(({ tiers }) => tiers.length !== 1)
    .map(({ f, tiers }) => `${relative(REPO, join(REPO, f)).split(sep).join('/')}: ${tiers.length === 0 ? 'no tier' : tiers.join(', ')}`);
  expect(wrong).toEqual([]);
});
