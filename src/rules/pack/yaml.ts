/**
 * Rule groups written as a Prometheus rule file (`groups:` … `rules:` with `record`/`alert`, `expr`,
 * `for`, `keep_firing_for`, `labels`, `annotations`), in the field order promtool and the Prometheus
 * docs use. Long expressions stay on one line (no folding), so a diff shows the rule that changed.
 */
import { stringify } from 'yaml';
import { formatPromDuration } from '../../config/index.js';
import type { RuleGroupSpec, RuleSpec } from '../types.js';

/** One rule as the plain object Prometheus' `rulefmt.Rule` reads. */
function ruleObject(r: RuleSpec): Record<string, unknown> {
  const out: Record<string, unknown> = r.kind === 'recording' ? { record: r.record } : { alert: r.alert };
  out.expr = r.expr;
  if (r.kind === 'alerting' && r.forMs > 0) out.for = formatPromDuration(r.forMs);
  if (r.kind === 'alerting' && r.keepFiringForMs > 0) out.keep_firing_for = formatPromDuration(r.keepFiringForMs);
  if (Object.keys(r.labels).length > 0) out.labels = { ...r.labels };
  if (r.kind === 'alerting' && Object.keys(r.annotations).length > 0) out.annotations = { ...r.annotations };
  return out;
}

/**
 * The text of a rule file holding `groups`, with `header` lines as `#` comments on top. Group
 * `interval`, `query_offset` and `limit` are written when set.
 */
export function ruleFileYaml(groups: readonly RuleGroupSpec[], header: readonly string[] = []): string {
  const doc = {
    groups: groups.map((g) => ({
      name: g.name,
      ...(g.intervalMs === undefined ? {} : { interval: formatPromDuration(g.intervalMs) }),
      ...(g.queryOffsetMs === undefined ? {} : { query_offset: formatPromDuration(g.queryOffsetMs) }),
      ...(g.limit > 0 ? { limit: g.limit } : {}),
      rules: g.rules.map(ruleObject),
    })),
  };
  const comments = header.map((l) => (l === '' ? '#' : `# ${l}`)).join('\n');
  return `${comments === '' ? '' : `${comments}\n`}${stringify(doc, { lineWidth: 0, indentSeq: true })}`;
}
