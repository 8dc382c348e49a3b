import type { Position } from '../types.js';

/**
 * One problem in a rule file. `message` is promtool's wording; `position` and `positionAlt` are
 * what promtool prints before it (yaml.v3 node positions; `0:0` for a field that is missing, as
 * promtool prints it); `at` is always the best place we know, for people and editors, even where
 * promtool prints none (label names, templates, durations). `group`, `rule` (1-based) and
 * `ruleName` are set for a rule's errors, which promtool prints as
 * `5:15: group "g", rule 2, "Foo": could not parse expression: ...`.
 */
export interface RuleFileError {
  readonly message: string;
  readonly at: Position;
  readonly position?: Position;
  readonly positionAlt?: Position;
  readonly group?: string;
  readonly rule?: number;
  readonly ruleName?: string;
  /**
   * Set on the type errors of one yaml.v3 decoding pass: promtool prints those of one pass as
   * one error, `yaml: unmarshal errors:` followed by `  line N: ...` lines. The value names the
   * pass (1: the rule groups, 2: the positions pass that reads `groups` as raw nodes).
   */
  readonly unmarshalPass?: 1 | 2;
}

// Go's %q and JSON agree on printable text, which is all that group and rule names hold in practice.
const quote = (s: string): string => JSON.stringify(s);

const pos = (p: Position): string => `${p.line}:${p.column}: `;

/** One error as promtool prints it, without the file name in front. */
export function formatRuleFileError(e: RuleFileError): string {
  let where = '';
  if (e.position !== undefined) where += pos(e.position);
  if (e.positionAlt !== undefined) where += pos(e.positionAlt);
  if (e.group !== undefined && e.rule !== undefined) where += `group ${quote(e.group)}, rule ${e.rule}, ${quote(e.ruleName ?? '')}: `;
  return where + e.message;
}

/**
 * The errors of one file as promtool prints them under `  FAILED:`, one string per promtool
 * error (an unmarshal block spans several lines), each prefixed with `file: `.
 */
export function formatRuleFileErrors(file: string, errors: readonly RuleFileError[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < errors.length; i++) {
    const e = errors[i];
    if (e.unmarshalPass === undefined) {
      out.push(`${file}: ${formatRuleFileError(e)}`);
      continue;
    }
    let block = `${file}: yaml: unmarshal errors:`;
    for (; i < errors.length && errors[i].unmarshalPass === e.unmarshalPass; i++) block += `\n  line ${errors[i].at.line}: ${errors[i].message}`;
    i--;
    out.push(block);
  }
  return out;
}
