#!/usr/bin/env node
// run-benches: runs every bench/**/*.bench.ts, one at a time, each as
// `node --import tsx <file>`, so that no bench shares a process (or a JIT warm-up) with another.
//
//   npm run bench                 every bench
//   npm run bench -- tsdb wire    only benches whose path below bench/ contains "tsdb" or "wire"
//   npm run bench -- --list       print the bench files that would run
//   npm run bench -- --compare REV [--runs N] tsdb
//                                 run the selected benches on git revision REV and on the
//                                 working tree, interleaved, N rounds (default 3), and print the
//                                 median of each key on both sides and their ratio
//                                 (scripts/bench-compare.mjs; bench/README.md)
//
// Each bench prints one JSON line to stdout (CONTRIBUTING.md, Benchmarks); stdout is passed through
// untouched so `npm run bench --silent > results.jsonl` collects them. This script's own
// messages go to stderr. Exit code 1 when any bench fails, or when a filter matches nothing.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareRevisions } from './bench-compare.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Lists `*.bench.ts` files under `dir`, sorted, as paths relative to the repository root. */
function findBenches(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    if (err.code === 'ENOENT') return [];
    throw err;
  }
  const out = [];
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const full = join(dir, e.name);
    if (e.isDirectory() && e.name !== 'node_modules') out.push(...findBenches(full));
    else if (e.isFile() && e.name.endsWith('.bench.ts')) out.push(relative(root, full).split(sep).join('/'));
  }
  return out;
}

const args = process.argv.slice(2);
/** The value after option `name` (removed from `args` with it), or undefined. */
function optionValue(name) {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const v = args[i + 1];
  if (v === undefined || v.startsWith('-')) {
    process.stderr.write(`run-benches: ${name} needs a value\n`);
    process.exit(2);
  }
  args.splice(i, 2);
  return v;
}
const compareRev = optionValue('--compare');
const runsText = optionValue('--runs');
const rounds = runsText === undefined ? 3 : Number(runsText);
if (!Number.isInteger(rounds) || rounds < 1) {
  process.stderr.write(`run-benches: --runs wants a positive integer, got ${runsText}\n`);
  process.exit(2);
}
const listOnly = args.includes('--list');
const unknown = args.filter((a) => a.startsWith('-') && a !== '--list');
if (unknown.length > 0) {
  process.stderr.write(`run-benches: unknown option ${unknown.join(' ')}\n`);
  process.exit(2);
}
const filters = args.filter((a) => !a.startsWith('-'));

const all = findBenches(join(root, 'bench'));
// A filter matches a substring of the path below bench/ (`tsdb` matches bench/tsdb/head-append.bench.ts).
const matches = (file, word) => file.slice('bench/'.length).includes(word);
const selected = filters.length === 0 ? all : all.filter((f) => filters.some((word) => matches(f, word)));

if (selected.length === 0) {
  if (filters.length > 0) {
    process.stderr.write(`run-benches: no bench file matches ${filters.join(', ')} (of ${all.length})\n`);
    process.exit(1);
  }
  process.stderr.write('run-benches: no bench/**/*.bench.ts files yet\n');
  process.exit(0);
}

if (listOnly) {
  for (const f of selected) process.stdout.write(`${f}\n`);
  process.exit(0);
}

// One bench in its own process, as below, but with stdout captured (the JSON line to compare).
const NODE_ARGS = ['--expose-gc', '--max-old-space-size=8192', '--import', 'tsx'];
function runCaptured(treeRoot, file) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...NODE_ARGS, file], { cwd: treeRoot, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.once('error', reject);
    child.once('exit', (code, signal) => (code === 0 ? resolve(out) : reject(new Error(`${file} in ${treeRoot}: ${signal ?? `exit code ${code}`}`))));
  });
}

if (compareRev !== undefined) {
  try {
    await compareRevisions({ root, rev: compareRev, selected, rounds, runBench: runCaptured, log: (m) => process.stderr.write(`${m}\n`) });
  } catch (e) {
    process.stderr.write(`run-benches: --compare ${compareRev}: ${e.message}\n`);
    process.exit(1);
  }
  process.exit(0);
}

const failed = [];
for (const file of selected) {
  process.stderr.write(`run-benches: ${file}\n`);
  // --expose-gc lets memory benchmarks measure after a full collection; a large heap fits 300k series.
  const res = spawnSync(process.execPath, [...NODE_ARGS, file], { cwd: root, stdio: 'inherit' });
  if (res.error !== undefined) {
    process.stderr.write(`run-benches: ${file}: ${res.error.message}\n`);
    failed.push(file);
  } else if (res.status !== 0) {
    const why = res.signal !== null ? `killed by ${res.signal}` : `exit code ${res.status}`;
    process.stderr.write(`run-benches: ${file}: ${why}\n`);
    failed.push(file);
  }
}

if (failed.length > 0) {
  process.stderr.write(`run-benches: ${failed.length} of ${selected.length} benches failed: ${failed.join(', ')}\n`);
  process.exit(1);
}
process.stderr.write(`run-benches: ${selected.length} benches passed\n`);
