/**
 * Rule evaluation: recording and alerting rules, groups on a schedule, the rule manager, `for`
 * state restore, the rules/alerts API snapshot, and the virtual-time replay.
 */
export { AlertingRule, ERR_DUPLICATE_ALERT, RESOLVED_RETENTION_MS, needsSending, type ActiveAlert, type AlertState, type AlertingRuleDeps } from './alerting-rule.js';
export { alertsApiData, formatGoTime, rulesApiData, type ApiAlert, type RulesApiType } from './api-shapes.js';
export { RuleGroup, groupKey, type RuleGroupPorts, type RuleGroupSettings } from './group.js';
export { generatorURL, goQueryEscape, newGroupMetrics, type GroupMetrics, type Rule } from './group-eval.js';
export { RULE_DEFAULTS, RuleManager, groupPorts, literalExpander, type RuleManagerOptions } from './manager.js';
export { ERR_SAME_LABELSET_RECORDING, RecordingRule } from './recording-rule.js';
export { runRulesOver, type ReplayPorts, type ReplayResult } from './replay.js';
export { forStateSelector, restoreForState, type RestoreOptions } from './restore.js';
export type { RuleHealth, RuleSample } from './rule.js';
export { evalTimestampMs, groupHash, groupOffsetNs } from './schedule.js';
export {
  snapshotGroups,
  type AlertSnapshot,
  type AlertingRuleSnapshot,
  type GroupSnapshot,
  type RecordingRuleSnapshot,
  type RuleSnapshot,
  type RulesSnapshot,
} from './snapshot.js';
