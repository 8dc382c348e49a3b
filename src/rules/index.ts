/**
 * Public surface of `src/rules`: recording and alerting rules in Prometheus' rule-file format,
 * their evaluation over a `QueryClient` into an `Appendable`, and the notifier.
 */
export type { Alert, AlertingRuleSpec, NotifySink, Position, RecordingRuleSpec, RuleGroupSpec, RuleSpec, TemplateData, TemplateExpander } from './types.js';
// rules-eval: groups, recording and alerting rules, the manager, ALERTS, restore, replay.
export * from './eval/index.js';
