// bench-compare: `npm run bench -- --compare REV [filters]` runs the selected benchmarks on git
// revision REV and on the working tree in one run and prints, for every numeric key of their JSON
// lines, the median of each side and the ratio, as graphql-js' benchmark runner compares
// revisions (benchmark/benchmark.js: a checkout of each revision in a temp dir, interleaved runs,
// one table). Interleaved: round r runs each bench on both sides, the order alternating between
// rounds (ABBA), so a machine that warms up or slows down during the run hurts both sides alike.
//
// REV is checked out with `git worktree add --detach` into a temp dir (removed afterwards, also
// on failure). Its node_modules is a link to the working tree's when both package-lock.json files
// are the same, else `npm ci --offline` runs there (the registry may be unreachable). When a
// bench's folder mentions dist/ (a bench that starts the built CLI), both sides are built first
// (`tsc -p tsconfig.build.json`). Benches that exist on only one side are skipped with a note.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Runs a command; throws with its output when it fails. */
function must(cmd, args, cwd, what) {
  const res = spawnSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (res.status !== 0) throw new Error(`${what} failed (${cmd} ${args.join(' ')}): ${(res.stderr || res.stdout || res.error?.message || '').trim()}`);
  return res.stdout.trim();
}

/** The last line of `stdout` that parses as a JSON object, or null. */
export function lastJsonLine(stdout) {
  const lines = stdout.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('{'));
  for (let i = lines.length - 1; i >= 0; i--) {
    try {
      const v = JSON.parse(lines[i]);
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) return v;
    } catch {
      // not JSON: a bench's progress line that happens to start with a brace
    }
  }
  return null;
}

/** Every numeric leaf of a bench's JSON object, flattened with dots (`queries.p99Ms`). */
export function numericKeys(obj, prefix = '') {
  const out = {};
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix === '' ? k : `${prefix}.${k}`;
    if (typeof v === 'number' && Number.isFinite(v)) out[key] = v;
    else if (v !== null && typeof v === 'object' && !Array.isArray(v)) Object.assign(out, numericKeys(v, key));
  }
  return out;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * Which way is better for a key, from the unit in its name (CONTRIBUTING.md: the unit is in every
 * key): rates and throughputs up, times, sizes and delays down; null when the name does not say.
 */
export function betterWhen(key) {
  const k = key.split('.').at(-1);
  if (/Per(Sec|Second|CpuSec)/.test(k)) return 'higher';
  if (/^bytesPer/.test(k) || /(Ms|Us|Ns|Seconds|Bytes|MiB|KiB|MB|KB)$/.test(k)) return 'lower';
  return null;
}

/**
 * The comparison rows: for each bench and numeric key seen on both sides, the medians and the
 * ratio head / base (null when the base median is 0). `runs` maps a bench file to
 * `{ base: object[], head: object[] }` (one parsed JSON line per round).
 */
export function compareRuns(runs) {
  const rows = [];
  for (const [bench, { base, head }] of Object.entries(runs)) {
    const b = base.map((o) => numericKeys(o));
    const h = head.map((o) => numericKeys(o));
    const keys = [...new Set(b.flatMap((o) => Object.keys(o)))].filter((k) => h.some((o) => k in o)).sort();
    for (const key of keys) {
      const bm = median(b.filter((o) => key in o).map((o) => o[key]));
      const hm = median(h.filter((o) => key in o).map((o) => o[key]));
      rows.push({ bench, key, base: bm, head: hm, ratio: bm === 0 ? null : hm / bm, better: betterWhen(key) });
    }
  }
  return rows;
}

const fmt = (v) => (Math.abs(v) >= 1000 || Number.isInteger(v) ? String(Math.round(v)) : v.toPrecision(4));

/** The table `compareRuns` rows make: one line per key, a mark where head is 5 % better or worse. */
export function formatComparison(rows, baseName) {
  const head = ['bench', 'key', baseName, 'working tree', 'ratio', ''];
  const body = rows.map((r) => {
    let mark = '';
    if (r.ratio !== null && r.better !== null && Math.abs(r.ratio - 1) >= 0.05) mark = (r.ratio > 1) === (r.better === 'higher') ? 'better' : 'worse';
    return [r.bench, r.key, fmt(r.base), fmt(r.head), r.ratio === null ? '-' : `${r.ratio.toFixed(3)}x`, mark];
  });
  const widths = head.map((_, i) => Math.max(head[i].length, ...body.map((row) => row[i].length)));
  return [head, ...body].map((row) => row.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd()).join('\n') + '\n';
}

/** Whether the folder of `file` (a bench) refers to the built CLI, so both sides need a build. */
function needsBuild(root, file) {
  const dir = join(root, dirname(file));
  return readdirSync(dir).some((f) => f.endsWith('.ts') && readFileSync(join(dir, f), 'utf8').includes('dist/'));
}

/**
 * Runs `selected` (bench paths relative to a tree) `rounds` times on REV and on the working tree
 * at `root`, interleaved, and writes the table to stdout. `runBench(treeRoot, file)` runs one
 * bench and returns its stdout, or throws. Resolves with the rows; the temp worktree is removed.
 */
export async function compareRevisions({ root, rev, selected, rounds, runBench, log }) {
  const sha = must('git', ['rev-parse', '--verify', `${rev}^{commit}`], root, `resolving ${rev}`);
  const short = sha.slice(0, 10);
  const tmp = mkdtempSync(join(tmpdir(), `infersight-bench-${short}-`));
  const tree = join(tmp, 'tree');
  must('git', ['worktree', 'add', '--detach', tree, sha], root, 'git worktree add');
  try {
    const lock = (d) => (existsSync(join(d, 'package-lock.json')) ? readFileSync(join(d, 'package-lock.json'), 'utf8') : '');
    if (lock(root) === lock(tree)) symlinkSync(join(root, 'node_modules'), join(tree, 'node_modules'), 'dir');
    else {
      log(`bench --compare: ${short} has another package-lock.json: npm ci --offline there`);
      must('npm', ['ci', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], tree, 'npm ci --offline');
    }
    const both = selected.filter((f) => existsSync(join(tree, f)));
    for (const f of selected.filter((x) => !both.includes(x))) log(`bench --compare: ${f} does not exist at ${short}: skipped`);
    if (both.some((f) => needsBuild(root, f))) {
      for (const d of [tree, root]) {
        log(`bench --compare: building ${d === root ? 'the working tree' : short}`);
        must(process.execPath, [join(d, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], d, 'build');
      }
    }
    const runs = Object.fromEntries(both.map((f) => [f, { base: [], head: [] }]));
    for (let r = 0; r < rounds; r++) {
      for (const f of both) {
        const sides = r % 2 === 0 ? ['base', 'head'] : ['head', 'base'];
        for (const side of sides) {
          log(`bench --compare: round ${r + 1}/${rounds} ${f} on ${side === 'base' ? short : 'the working tree'}`);
          const line = lastJsonLine(await runBench(side === 'base' ? tree : root, f));
          if (line === null) throw new Error(`${f} printed no JSON line on ${side === 'base' ? short : 'the working tree'}`);
          runs[f][side].push(line);
        }
      }
    }
    const rows = compareRuns(runs);
    process.stdout.write(formatComparison(rows, short));
    return rows;
  } finally {
    spawnSync('git', ['worktree', 'remove', '--force', tree], { cwd: root, stdio: 'ignore' });
    rmSync(tmp, { recursive: true, force: true });
    spawnSync('git', ['worktree', 'prune'], { cwd: root, stdio: 'ignore' });
  }
}
