import fsp from 'node:fs/promises';
import path from 'node:path';
import { globElementRegExp } from '../../config/index.js';
import type { RuleGroupSpec } from '../types.js';
import { formatRuleFileErrors, type RuleFileError } from './errors.js';
import { parseRuleFile } from './parse.js';
import type { RuleFilePorts } from './validate.js';

/** The file system as the rule loader reads it; injected so tests can use a map. */
export interface RuleFileFs {
  readFile(file: string): Promise<Uint8Array>;
  /** The names in `dir`; rejects when it cannot be read. */
  readdir(dir: string): Promise<string[]>;
}

/** The real file system. */
export const nodeRuleFileFs: RuleFileFs = {
  readFile: (file) => fsp.readFile(file),
  readdir: (dir) => fsp.readdir(dir),
};

/** The ports `loadRuleFiles` needs: the validators and the file system. */
export interface LoadRuleFilesPorts extends RuleFilePorts {
  readonly fs: RuleFileFs;
}

/** One file that did not load, with everything wrong in it. */
export interface RuleFileFailure {
  readonly file: string;
  readonly errors: RuleFileError[];
}

/**
 * What `loadRuleFiles` found: the files matched (in load order), the groups of all of them, and
 * the files that failed. Like Prometheus, a caller applies the groups only when `failures` is
 * empty and otherwise keeps the last good rules; `messages` are the failures as promtool prints them.
 */
export interface LoadedRuleFiles {
  readonly files: string[];
  readonly groups: RuleGroupSpec[];
  readonly failures: RuleFileFailure[];
  readonly messages: string[];
}

// Prometheus' config check for rule_files: a `*` only in the last path element.
const RULE_PATH = /^[^*]*(\*[^/]*)?$/;
const hasMeta = (s: string): boolean => /[*?[\\]/.test(s);

async function expand(pattern: string, fs: RuleFileFs): Promise<string[]> {
  const dir = path.dirname(pattern);
  const base = path.basename(pattern);
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    // Go's filepath.Glob: a directory that cannot be read matches nothing.
    return [];
  }
  if (!hasMeta(base)) return names.includes(base) ? [pattern] : [];
  const re = globElementRegExp(base);
  return names.filter((n) => re.test(n)).sort().map((n) => path.join(dir, n));
}

/**
 * The files `rule_files:`-style patterns name (resolved, globbed, sorted, each once; see
 * `loadRuleFiles`), and the patterns refused. SLO files (`slo_files:`) are found the same way.
 */
export async function expandRuleFileGlobs(globs: readonly string[], baseDir: string, fs: RuleFileFs): Promise<{ files: string[]; failures: RuleFileFailure[] }> {
  const files: string[] = [];
  const failures: RuleFileFailure[] = [];
  for (const glob of globs) {
    const pattern = path.isAbsolute(glob) ? glob : path.join(baseDir, glob);
    if (!RULE_PATH.test(glob)) {
      failures.push({ file: glob, errors: [{ message: `invalid rule file path ${JSON.stringify(glob)}`, at: { line: 0, column: 0 } }] });
      continue;
    }
    for (const f of await expand(pattern, fs)) if (!files.includes(f)) files.push(f);
  }
  return { files, failures };
}

/**
 * Loads Prometheus' `rule_files:` patterns: each is resolved against `baseDir` (the configuration
 * file's directory) unless absolute, expanded as Go's `filepath.Glob` in its last element, its
 * matches sorted; patterns keep their order and a file matched twice loads once. A pattern that
 * matches nothing is fine. Every file is read and parsed with `parseRuleFile`; all failures are
 * collected, never thrown.
 */
export async function loadRuleFiles(globs: readonly string[], baseDir: string, ports: LoadRuleFilesPorts): Promise<LoadedRuleFiles> {
  const { files, failures } = await expandRuleFileGlobs(globs, baseDir, ports.fs);
  const groups: RuleGroupSpec[] = [];
  for (const file of files) {
    let content: Uint8Array;
    try {
      content = await ports.fs.readFile(file);
    } catch (e) {
      failures.push({ file, errors: [{ message: (e as Error).message, at: { line: 0, column: 0 } }] });
      continue;
    }
    const res = parseRuleFile(content, file, ports);
    if (res.ok) groups.push(...res.groups);
    else failures.push({ file, errors: res.errors });
  }
  return { files, groups, failures, messages: failures.flatMap((f) => formatRuleFileErrors(f.file, f.errors)) };
}
