import fsp from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { findDuplicateRules, formatDuplicateRules, formatRuleFileErrors, parseRuleFile, type ParseRuleFileResult, type RuleFilePorts } from '../rules/index.js';
import { ruleFilePorts } from '../server/index.js';

/** Usage text of `infersight check-rules`. */
export const CHECK_RULES_USAGE = `Usage: infersight check-rules [flags] FILE...

Checks Prometheus rule files as 'promtool check rules' does, with the same output and exit
status: 0 when every file is valid, 1 when one is not (or a file does not exist), 3 with
--lint-fatal when only lint problems were found. docs/rules.md describes the format.

Flags:
  --lint LIST     lint checks, comma-separated: duplicate-rules (default), all, none
  --lint-fatal    make lint problems exit with status 3
`;

/** Where `checkRulesCommand` writes and reads; tests pass buffers and a map. */
export interface CheckRulesIo {
  stdout(text: string): void;
  stderr(text: string): void;
  readFile(file: string): Promise<Uint8Array>;
  /** 'file', 'dir' or undefined when nothing is there. */
  kind(file: string): Promise<'file' | 'dir' | undefined>;
}

const processIo: CheckRulesIo = {
  stdout: (t) => void process.stdout.write(t),
  stderr: (t) => void process.stderr.write(t),
  readFile: (f) => fsp.readFile(f),
  kind: async (f) => {
    try {
      return (await fsp.stat(f)).isDirectory() ? 'dir' : 'file';
    } catch {
      return undefined;
    }
  },
};

/** The ports `check-rules` validates with: the same as the server's (src/server/rules-wiring.ts). */
export const CHECK_RULES_PORTS: RuleFilePorts = ruleFilePorts();

/**
 * Runs `infersight check-rules`: every file is checked in order and reported as promtool 2.42
 * reports it (`Checking FILE`, then `  SUCCESS: N rules found` on stdout, or `  FAILED:` and the
 * errors on stderr, then an empty line). Resolves with promtool's exit status.
 */
export async function checkRulesCommand(argv: string[], io: CheckRulesIo = processIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { lint: { type: 'string', default: 'duplicate-rules' }, 'lint-fatal': { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } },
    strict: true,
    allowPositionals: true,
  });
  if (values.help === true) {
    io.stdout(CHECK_RULES_USAGE);
    return 0;
  }
  // promtool (kingpin) checks every argument before it reads any, and exits 1.
  if (positionals.length === 0) return usageFailure(io, "required argument 'rule-files' not provided");
  for (const f of positionals) {
    const kind = await io.kind(f);
    if (kind === undefined) return usageFailure(io, `path '${f}' does not exist`);
    if (kind === 'dir') return usageFailure(io, `'${f}' is a directory`);
  }
  let lintDuplicates = false;
  for (const opt of values.lint.split(',')) {
    if (opt === 'all' || opt === 'duplicate-rules') lintDuplicates = true;
    else if (opt !== 'none') io.stdout(`WARNING: unknown lint option ${opt}\n`);
  }
  let failed = false;
  let lintOnly = true;
  for (const file of positionals) {
    io.stdout(`Checking ${file}\n`);
    const res = await checkFile(io, file);
    const dups = res.ok && lintDuplicates ? findDuplicateRules(res.groups) : [];
    if (!res.ok || dups.length > 0) {
      failed = true;
      if (!res.ok) lintOnly = false;
      const lines = res.ok ? [formatDuplicateRules(dups)] : formatRuleFileErrors(file, res.errors);
      io.stderr(`  FAILED:\n${lines.join('\n')}\n`);
    } else {
      io.stdout(`  SUCCESS: ${res.groups.reduce((n, g) => n + g.rules.length, 0)} rules found\n`);
    }
    io.stdout('\n');
  }
  if (failed && !lintOnly) return 1;
  if (failed && values['lint-fatal']) return 3;
  return 0;
}

/** Reads and parses one file; a file that cannot be read fails like an invalid one, as in promtool. */
async function checkFile(io: CheckRulesIo, file: string): Promise<ParseRuleFileResult> {
  let content: Uint8Array;
  try {
    content = await io.readFile(file);
  } catch (e) {
    return { ok: false, errors: [{ message: (e as Error).message, at: { line: 0, column: 0 } }] };
  }
  return parseRuleFile(content, file, CHECK_RULES_PORTS);
}

function usageFailure(io: CheckRulesIo, message: string): number {
  io.stderr(`infersight check-rules: error: ${message}, try --help\n`);
  return 1;
}
