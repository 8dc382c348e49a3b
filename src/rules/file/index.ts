/**
 * Rule files: Prometheus' rule-file format read and validated as `promtool check rules` does
 * (`parseRuleFile`), `rule_files:` patterns loaded (`loadRuleFiles`), promtool's wording of every
 * error (`formatRuleFileErrors`) and its duplicate-rules lint (`findDuplicateRules`).
 */
export { formatRuleFileError, formatRuleFileErrors, type RuleFileError } from './errors.js';
export { findDuplicateRules, formatDuplicateRules, type DuplicateRule } from './lint.js';
export { expandRuleFileGlobs, loadRuleFiles, nodeRuleFileFs, type LoadRuleFilesPorts, type LoadedRuleFiles, type RuleFileFailure, type RuleFileFs } from './load.js';
export { parseRuleFile, type ParseRuleFileResult } from './parse.js';
export type { RuleFilePorts } from './validate.js';
