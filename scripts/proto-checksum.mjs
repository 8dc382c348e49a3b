#!/usr/bin/env node
// proto-checksum: keeps the generated protobuf code (src/wire/gen) honest without running buf,
// which may not be reachable (it downloads nothing, but CI machines and laptops may lack it).
// `npm run generate:proto` ends with `--write`, which records the SHA-256 of every input
// (src/wire/proto/**: the .proto files, buf.yaml, buf.gen.yaml), the protoc-gen-es version
// pinned in package.json, and every generated file in src/wire/gen.sha256 (sha256sum's format;
// beside the output, as buf.gen.yaml's `clean: true` empties src/wire/gen). `--check` (run by
// test/tooling/proto-checksum.test.ts) fails, naming the files, when an input changed without
// regenerating or a generated file was edited by hand.
//
//   node scripts/proto-checksum.mjs --write | --check [--root DIR]
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const rootAt = args.indexOf('--root');
const root = rootAt >= 0 ? resolve(args[rootAt + 1]) : resolve(dirname(fileURLToPath(import.meta.url)), '..');
const mode = args.includes('--write') ? 'write' : args.includes('--check') ? 'check' : null;
if (mode === null) {
  process.stderr.write('usage: proto-checksum.mjs --write | --check [--root DIR]\n');
  process.exit(2);
}
const SUMS = join(root, 'src/wire/gen.sha256');

/** Every file below `dir`, as sorted repository-relative paths with `/`. */
function files(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, e.name);
    if (e.isDirectory()) out.push(...files(full));
    else if (e.isFile()) out.push(relative(root, full).split(sep).join('/'));
  }
  return out.sort();
}

const sha256 = (data) => createHash('sha256').update(data).digest('hex');

/** The lines of gen.sha256 for the tree as it is now. */
function current() {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const plugin = `@bufbuild/protoc-gen-es@${pkg.devDependencies?.['@bufbuild/protoc-gen-es'] ?? 'missing'}`;
  const lines = [`${sha256(plugin)}  ${plugin}`];
  for (const f of [...files(join(root, 'src/wire/proto')), ...files(join(root, 'src/wire/gen'))]) lines.push(`${sha256(readFileSync(join(root, f)))}  ${f}`);
  return lines;
}

const now = current();
if (mode === 'write') {
  writeFileSync(SUMS, now.join('\n') + '\n');
  process.stdout.write(`proto-checksum: ${now.length} entries written to ${relative(root, SUMS)}\n`);
  process.exit(0);
}
let recorded;
try {
  recorded = readFileSync(SUMS, 'utf8').trimEnd().split('\n');
} catch {
  process.stderr.write(`proto-checksum: ${relative(root, SUMS)} is missing; run npm run generate:proto\n`);
  process.exit(1);
}
const byName = (lines) => new Map(lines.map((l) => [l.slice(66), l.slice(0, 64)]));
const want = byName(recorded);
const got = byName(now);
const differ = [...new Set([...want.keys(), ...got.keys()])].filter((name) => want.get(name) !== got.get(name)).sort();
if (differ.length > 0) {
  process.stderr.write(`proto-checksum: src/wire/gen is stale or was edited by hand; run npm run generate:proto (differs: ${differ.join(', ')})\n`);
  process.exit(1);
}
process.stdout.write(`proto-checksum: src/wire/gen matches its ${now.length - 1} inputs and outputs\n`);
