import { Labels } from '../../model/index.js';
import type { RuleGroupSpec } from '../types.js';

/** Two or more rules of one file that produce the same series: the name (`record` or `alert`) and the labels. */
export interface DuplicateRule {
  readonly metric: string;
  readonly labels: Labels;
}

const nameOf = (r: RuleGroupSpec['rules'][number]): string => (r.kind === 'recording' ? r.record : r.alert);

function compare(a: DuplicateRule, b: DuplicateRule): number {
  if (a.metric !== b.metric) return a.metric < b.metric ? -1 : 1;
  return a.labels.compare(b.labels);
}

/**
 * promtool's `duplicate-rules` lint: rules of one file, across its groups, with the same name and
 * labels (expressions are not compared), each reported once, sorted by name then labels.
 */
export function findDuplicateRules(groups: readonly RuleGroupSpec[]): DuplicateRule[] {
  const rules = groups.flatMap((g) => g.rules.map((r): DuplicateRule => ({ metric: nameOf(r), labels: Labels.from(r.labels) })));
  rules.sort(compare);
  const out: DuplicateRule[] = [];
  for (let i = 1; i < rules.length; i++) {
    if (compare(rules[i - 1], rules[i]) === 0 && (out.length === 0 || compare(out[out.length - 1], rules[i]) !== 0)) out.push(rules[i]);
  }
  return out;
}

/** The lint's report as promtool 2.42 prints it under `  FAILED:` (its exit status stays 0 unless `--lint-fatal`). */
export function formatDuplicateRules(dups: readonly DuplicateRule[]): string {
  let msg = `lint error ${dups.length} duplicate rule(s) found.\n`;
  for (const d of dups) {
    msg += `Metric: ${d.metric}\nLabel(s):\n`;
    d.labels.forEach((name, value) => (msg += `\t${name}: ${value}\n`));
  }
  return msg + 'Might cause inconsistency while recording expressions';
}
