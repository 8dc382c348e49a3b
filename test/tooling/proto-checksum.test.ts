import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SCRIPT = join(REPO, 'scripts/proto-checksum.mjs');
const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

function check(root: string): { status: number | null; out: string } {
  const res = spawnSync(process.execPath, [SCRIPT, '--check', '--root', root], { encoding: 'utf8' });
  return { status: res.status, out: res.stdout + res.stderr };
}

/** A copy of what the check reads: the protobuf inputs, the generated code, its sums, package.json. */
function copyTree(): string {
  const root = mkdtempSync(join(tmpdir(), 'proto-checksum-'));
  roots.push(root);
  for (const p of ['src/wire/proto', 'src/wire/gen', 'src/wire/gen.sha256', 'package.json']) cpSync(join(REPO, p), join(root, p), { recursive: true });
  return root;
}

test('src/wire/gen matches the recorded sums of its inputs and outputs', () => {
  const r = check(REPO);
  expect(r.out).toMatch(/matches its \d+ inputs and outputs/);
  expect(r.status).toBe(0);
});

test.each([
  ['a .proto edited without regenerating', 'src/wire/proto/prometheus/remote.proto'],
  ['a generated file edited by hand', 'src/wire/gen/prometheus/remote_pb.ts'],
])('%s is named', (_what, file) => {
  const root = copyTree();
  appendFileSync(join(root, file), '\n// changed\n');
  const r = check(root);
  expect(r.status).toBe(1);
  expect(r.out).toContain(`stale or was edited by hand; run npm run generate:proto (differs: ${file})`);
});
