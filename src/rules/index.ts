/**
 * Public surface of `src/rules`: recording and alerting rules in Prometheus' rule-file format,
 * their evaluation over a `QueryClient` into an `Appendable`, and the notifier.
 */
export type { Alert, AlertingRuleSpec, NotifySink, Position, RecordingRuleSpec, RuleGroupSpec, RuleSpec, TemplateData, TemplateExpander } from './types.js';
// SLOs as data and the default LLM rule pack (rules-slo).
export * from './slo/index.js';
export * from './pack/index.js';
