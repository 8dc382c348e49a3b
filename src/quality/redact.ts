/**
 * Redaction for the quality path: the one implementation lives in src/model (`compileRedaction`,
 * RE2 semantics, shared with the gateway's sampling); the pipeline applies it to every text of a
 * pair before the pair reaches the sample store.
 */
export { DEFAULT_REDACTION_RULES, RedactionRuleError, compileRedaction, type RedactionRule } from '../model/index.js';
