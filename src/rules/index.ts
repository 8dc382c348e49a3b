/**
 * Public surface of `src/rules`: recording and alerting rules in Prometheus' rule-file format,
 * their evaluation over a `QueryClient` into an `Appendable`, and the notifier.
 */
export type { Alert, AlertingRuleSpec, NotifySink, Position, RecordingRuleSpec, RuleGroupSpec, RuleSpec, TemplateData, TemplateExpander } from './types.js';
// Templates (rules-template): Go text/template with Prometheus' functions.
export { ALERT_TEMPLATE_DEFS, TEMPLATE_FUNCTION_NAMES, checkTemplate, createTemplateExpander, type TemplateExpanderOptions, type TemplateLimits } from './template/index.js';
