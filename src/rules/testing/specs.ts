/**
 * Builders of rule specs for tests, so a table row reads like the rule file it stands for.
 * Positions are fixed (1:1): tests of evaluation never look at them.
 */
import type { DurationMs } from '../../model/index.js';
import type { AlertingRuleSpec, RecordingRuleSpec, RuleGroupSpec, RuleSpec } from '../types.js';

const AT = { line: 1, column: 1 } as const;

/** A recording rule. */
export function recordingSpec(record: string, expr: string, labels: Record<string, string> = {}): RecordingRuleSpec {
  return { kind: 'recording', record, expr, labels, position: AT };
}

/** An alerting rule; `forMs` and `keepFiringForMs` default to 0. */
export function alertingSpec(
  alert: string,
  expr: string,
  o: { forMs?: DurationMs; keepFiringForMs?: DurationMs; labels?: Record<string, string>; annotations?: Record<string, string> } = {},
): AlertingRuleSpec {
  return { kind: 'alerting', alert, expr, forMs: o.forMs ?? 0, keepFiringForMs: o.keepFiringForMs ?? 0, labels: o.labels ?? {}, annotations: o.annotations ?? {}, position: AT };
}

/** A group in file `rules.yml` unless told otherwise; interval and query offset default to the manager's. */
export function groupSpec(
  name: string,
  rules: readonly RuleSpec[],
  o: { file?: string; intervalMs?: DurationMs; queryOffsetMs?: DurationMs; limit?: number } = {},
): RuleGroupSpec {
  return { name, file: o.file ?? 'rules.yml', intervalMs: o.intervalMs, queryOffsetMs: o.queryOffsetMs, limit: o.limit ?? 0, rules, position: AT };
}
