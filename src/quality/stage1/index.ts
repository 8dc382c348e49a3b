/** Stage 1 of the quality evaluation: cheap, linear-time checks on every sampled pair. */
export { compileBlocklist, type Blocklist } from './blocklist.js';
export { detectLanguage, languageMismatch, LANGUAGE_SCAN_CHARS, type DetectedLanguage } from './language.js';
export { LengthTracker, type LengthTrackerOptions, type LengthVerdict } from './length.js';
export { findPii, luhn, PII_KINDS, type PiiFindings, type PiiKind } from './pii.js';
export { findRefusal, REFUSAL_PHRASES, REFUSAL_SCAN_CHARS } from './refusal.js';
export { invalidJson, isBlank, jsonOpenAtEnd, truncation, type JsonEnd } from './shape.js';
export { runStage1, STAGE1_CHECKS, type Stage1Options } from './stage1.js';
