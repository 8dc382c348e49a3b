import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';

const SCRIPT = resolve(dirname(fileURLToPath(import.meta.url)), '../../scripts/check-deps.mjs');

const roots: string[] = [];

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** Writes `files` (path → contents) into a fresh temp tree and runs check-deps on it. */
function run(files: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  const root = mkdtempSync(join(tmpdir(), 'check-deps-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const res = spawnSync(process.execPath, [SCRIPT, '--root', root], { encoding: 'utf8' });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

/** A small tree that follows every rule; cases add or replace files in it. */
const CLEAN: Record<string, string> = {
  'src/model/labels.ts': 'export class Labels {}\n',
  'src/model/index.ts': "export { Labels } from './labels.js';\n",
  'src/model/labels.test.ts': "import fc from 'fast-check';\nimport { test } from 'vitest';\nimport { Labels } from './labels.js';\n",
  'src/storage/index.ts':
    "import type { Labels } from '../model/index.js';\nexport class StorageError extends Error {}\nexport function merge(): void {}\n",
  'src/storage/testing/suite.ts': "import { describe } from 'vitest';\nexport function runSuite(): void {}\n",
  'src/tsdb/head.ts': "import { readFile } from 'node:fs/promises';\nimport { StorageError, merge } from '../storage/index.js';\n",
  'src/tsdb/index.ts': "export { Head } from './head.js';\n",
  'src/tsdb/head.test.ts': "import { runSuite } from '../storage/testing/suite.js';\n",
  'src/ingest/scrape.ts':
    "import { type Appendable, StorageError } from '../storage/index.js';\nimport type { Querier } from '../storage/index.js';\n",
  'src/query/client.ts': [
    '// import { x } from "../tsdb/head.js";',
    "const s = \"import '../tsdb/head.js'\";",
    "const t = `${s} from '../tsdb/head.js'`;",
    "const r = /from '..\\/tsdb\\/head.js'/;",
    'export const url = import.meta.url;',
    "import type { Labels } from '../model/index.js';",
  ].join('\n'),
  'src/cli/main.ts': "import { Head } from '../tsdb/index.js';\nimport { serve } from '../server/index.js';\n",
  'src/server/serve.ts': "import { Head } from '../tsdb/index.js';\n",
  'src/server/index.ts': "export { serve } from './serve.js';\n",
  'web/src/app.ts': "import { Client } from '../../src/query/client.js';\nimport React from 'react';\n",
};

describe('check-deps', () => {
  test('a tree that follows the table passes', () => {
    const res = run(CLEAN);
    expect(res.stderr).toBe('');
    expect(res.stdout).toMatch(/^check-deps: 14 files, \d+ imports, OK\n$/);
    expect(res.status).toBe(0);
  });

  test.each<{ name: string; files: Record<string, string>; want: string[] }>([
    {
      name: 'a module imports one the table forbids',
      files: { 'src/ingest/scrape.ts': "import { Head } from '../tsdb/head.js';\n" },
      want: ['src/ingest/scrape.ts: imports src/tsdb (tsdb may not be imported by ingest)'],
    },
    {
      name: 'a re-export counts as an import',
      files: { 'src/wire/index.ts': "export { Head } from '../tsdb/head.js';\n" },
      want: ['src/wire/index.ts: imports src/tsdb (tsdb may not be imported by wire)'],
    },
    {
      name: 'a dynamic import counts',
      files: { 'src/rules/eval.ts': "export const m = await import('../promql/engine.js');\n" },
      want: ['src/rules/eval.ts: imports src/promql (promql may not be imported by rules)'],
    },
    {
      name: 'nothing but cli imports server',
      files: { 'src/rules/manager.ts': "import type { Config } from '../server/config.js';\n" },
      want: ['src/rules/manager.ts: imports src/server (server may not be imported by rules)'],
    },
    {
      name: 'tests may not cross the table either',
      files: { 'src/promql/engine.test.ts': "import { Head } from '../tsdb/head.js';\n" },
      want: ['src/promql/engine.test.ts: imports src/tsdb (tsdb may not be imported by promql)'],
    },
    {
      name: 'model imports a node: builtin',
      files: { 'src/model/time.ts': "import { performance } from 'node:perf_hooks';\n" },
      want: ['src/model/time.ts: imports node:perf_hooks (model may not import Node builtins)'],
    },
    {
      name: 'semconv imports a bare builtin',
      files: { 'src/semconv/gen.ts': "import { join } from 'path';\n" },
      want: ['src/semconv/gen.ts: imports path (semconv may not import Node builtins)'],
    },
    {
      name: 'query imports a package',
      files: { 'src/query/http.ts': "import axios from 'axios';\n" },
      want: ['src/query/http.ts: imports axios (query may not import packages)'],
    },
    {
      name: 'production code imports a test-only package',
      files: { 'src/tsdb/head.ts': "import { expect } from 'vitest';\n" },
      want: ['src/tsdb/head.ts: imports vitest (only test code may import vitest)'],
    },
    {
      name: 'production code imports a test helper',
      files: { 'src/tsdb/head.ts': "import { runSuite } from '../storage/testing/suite.js';\n" },
      want: ['src/tsdb/head.ts: imports src/storage/testing/suite.js (only test code may import test helpers)'],
    },
    {
      name: 'ingest imports a storage value',
      files: { 'src/ingest/scrape.ts': "import { merge, type Appendable } from '../storage/index.js';\n" },
      want: [
        'src/ingest/scrape.ts: imports value merge from src/storage (ingest may import only types from storage, and its error codes)',
      ],
    },
    {
      name: 'web imports a server-side module',
      files: { 'web/src/app.ts': "import { Head } from '../../src/tsdb/head.js';\n" },
      want: ['web/src/app.ts: imports src/tsdb (tsdb may not be imported by web)'],
    },
    {
      name: 'a folder that is not in the table',
      files: { 'src/util/strings.ts': 'export {};\n' },
      want: ['src/util: not a module in the table (add it to scripts/check-deps.mjs and docs/architecture.md)'],
    },
    {
      name: 'another module imports a file behind the index',
      files: { 'src/tsdb/chunk.ts': "import type { Labels } from '../model/labels.js';\n" },
      want: ['src/tsdb/chunk.ts: imports src/model/labels.js (bypasses src/model/index.ts, the module\'s public surface)'],
    },
    {
      name: 'a test bypasses another module\'s index',
      files: { 'src/tsdb/head.test.ts': "import { merge } from '../storage/merge.js';\n" },
      want: ['src/tsdb/head.test.ts: imports src/storage/merge.js (bypasses src/storage/index.ts, the module\'s public surface)'],
    },
    {
      name: 'another module imports a nested index',
      files: { 'src/server/serve.ts': "import { Head } from '../tsdb/head/index.js';\n" },
      want: ['src/server/serve.ts: imports src/tsdb/head/index.js (bypasses src/tsdb/index.ts, the module\'s public surface)'],
    },
    {
      name: 'a module-level cycle',
      files: {
        'src/wire/text.ts': "import { Head } from '../tsdb/head.js';\n",
        'src/tsdb/wal.ts': "import { parse } from '../wire/text.js';\n",
      },
      want: [
        'cycle: tsdb -> wire -> tsdb (src/tsdb/wal.ts imports src/wire; src/wire/text.ts imports src/tsdb)',
        'src/tsdb/wal.ts: imports src/wire (wire may not be imported by tsdb)',
        'src/wire/text.ts: imports src/tsdb (tsdb may not be imported by wire)',
      ],
    },
  ])('fails when $name', ({ files, want }) => {
    const res = run({ ...CLEAN, ...files });
    expect(res.status).toBe(1);
    expect(res.stdout).toBe('');
    const lines = res.stderr.trimEnd().split('\n');
    expect(lines.slice(0, -1)).toEqual(want);
    expect(lines.at(-1)).toMatch(new RegExp(`^check-deps: \\d+ files, \\d+ imports, ${want.length} violations$`));
  });
});
