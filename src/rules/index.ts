/**
 * Public surface of `src/rules`: recording and alerting rules in Prometheus' rule-file format,
 * their evaluation over a `QueryClient` into an `Appendable`, and the notifier.
 */
export type { Alert, AlertingRuleSpec, NotifySink, Position, RecordingRuleSpec, RuleGroupSpec, RuleSpec, TemplateData, TemplateExpander } from './types.js';
// notifier (rules-notify): the `alerting:` section, Alertmanager API v2 and webhook sending.
export {
  DEFAULT_BACKOFF,
  DEFAULT_MAX_BATCH_SIZE,
  DEFAULT_NOTIFY_TIMEOUT_MS,
  DEFAULT_QUEUE_CAPACITY,
  EMPTY_ALERTING_CONFIG,
  Notifier,
  WEBHOOKS_KEY,
  httpNotifyPost,
  labelsFingerprint,
  parseAlertingConfig,
  type AlertingConfig,
  type AlertmanagerConfig,
  type AlertmanagersData,
  type BackoffOptions,
  type DestinationStats,
  type NotifierOptions,
  type NotifierStats,
  type NotifyPost,
  type NotifyRequest,
  type NotifyResponse,
  type WebhookConfig,
} from './notifier/index.js';
// SLOs as data and the default LLM rule pack (rules-slo).
export * from './slo/index.js';
export * from './pack/index.js';
// rules-eval: groups, recording and alerting rules, the manager, ALERTS, restore, replay.
export * from './eval/index.js';
// Templates (rules-template): Go text/template with Prometheus' functions.
export { ALERT_TEMPLATE_DEFS, TEMPLATE_FUNCTION_NAMES, checkTemplate, createTemplateExpander, type TemplateExpanderOptions, type TemplateLimits } from './template/index.js';
// rules-file: rule-file loading and validation (src/rules/file).
export {
  findDuplicateRules,
  formatDuplicateRules,
  formatRuleFileError,
  formatRuleFileErrors,
  expandRuleFileGlobs,
  loadRuleFiles,
  nodeRuleFileFs,
  parseRuleFile,
  type DuplicateRule,
  type LoadRuleFilesPorts,
  type LoadedRuleFiles,
  type ParseRuleFileResult,
  type RuleFileError,
  type RuleFileFailure,
  type RuleFileFs,
  type RuleFilePorts,
} from './file/index.js';
