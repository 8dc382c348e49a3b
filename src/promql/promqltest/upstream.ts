import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Access to the upstream promqltest files in /work/shared/conformance/promqltest (read in place,
 * never copied into the repository): checksum verification and the `index.tsv` eval index.
 */

/** Where the upstream files live, relative to the repository root. */
export const UPSTREAM_DIR_FROM_REPO = join('..', 'shared', 'conformance', 'promqltest');

/** One `.test` file, verified against SHA256SUMS. */
export interface UpstreamFile {
  readonly name: string;
  readonly text: string;
}

/** One row of index.tsv (one eval). */
export interface IndexRow {
  readonly file: string;
  readonly line: number;
  readonly kind: string;
  readonly nativeHistogram: boolean;
  readonly expr: string;
}

/** The verified upstream suite. */
export interface UpstreamSuite {
  readonly dir: string;
  readonly files: readonly UpstreamFile[];
  /** index.tsv rows by `file:line`. */
  readonly index: ReadonlyMap<string, IndexRow>;
}

/** Reports whether the upstream directory exists. */
export function upstreamPresent(dir: string): boolean {
  return existsSync(join(dir, 'SHA256SUMS'));
}

/**
 * Reads every `.test` file of `dir` and checks it against SHA256SUMS. Throws when a listed file
 * is missing or differs, or when a `.test` file is not listed: a changed copy must never pass
 * for the pinned upstream version.
 */
export function loadUpstreamSuite(dir: string): UpstreamSuite {
  const sums = new Map<string, string>();
  for (const line of readFileSync(join(dir, 'SHA256SUMS'), 'utf8').split('\n')) {
    const m = /^([0-9a-f]{64}) [ *](.+)$/.exec(line.trim());
    if (m !== null) sums.set(m[2], m[1]);
  }
  if (sums.size === 0) throw new Error(`${dir}/SHA256SUMS lists no files`);
  const problems: string[] = [];
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.test'))) {
    if (!sums.has(name)) problems.push(`${name} is not listed in SHA256SUMS`);
  }
  const files: UpstreamFile[] = [];
  for (const [name, want] of [...sums].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const path = join(dir, name);
    if (!existsSync(path)) {
      problems.push(`${name} is missing`);
      continue;
    }
    const bytes = readFileSync(path);
    const got = createHash('sha256').update(bytes).digest('hex');
    if (got !== want) problems.push(`${name}: sha256 ${got}, SHA256SUMS says ${want}`);
    files.push({ name, text: bytes.toString('utf8') });
  }
  if (problems.length > 0) throw new Error(`upstream promqltest files in ${dir} do not match SHA256SUMS:\n  ${problems.join('\n  ')}`);
  const indexPath = join(dir, 'index.tsv');
  const index = existsSync(indexPath) ? parseIndexTsv(readFileSync(indexPath, 'utf8')) : new Map<string, IndexRow>();
  return { dir, files, index };
}

/** Parses index.tsv (`file line kind time expect_fail ordered annotations native_histogram expr`). */
export function parseIndexTsv(text: string): Map<string, IndexRow> {
  const rows = new Map<string, IndexRow>();
  const lines = text.split('\n');
  const header = lines[0].split('\t');
  const col = (name: string): number => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`index.tsv has no ${name} column`);
    return i;
  };
  const [file, line, kind, nh, expr] = ['file', 'line', 'kind', 'native_histogram', 'expr'].map(col);
  for (const l of lines.slice(1)) {
    if (l.trim() === '') continue;
    const f = l.split('\t');
    const row: IndexRow = { file: f[file], line: Number(f[line]), kind: f[kind], nativeHistogram: f[nh] === '1', expr: f.slice(expr).join('\t') };
    rows.set(`${row.file}:${row.line}`, row);
  }
  return rows;
}
