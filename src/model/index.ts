/** Public surface of `src/model`: the data model shared by every module. Imports nothing. */
export { Labels, METRIC_NAME_LABEL } from './labels.js';
export { Matcher, matcher, type MatchType } from './matcher.js';
export { Re2SyntaxError, compileAnchoredRe2, compileRe2, type Re2Options, type Re2Regexp, type Re2Search } from './re2.js';
export { STALE_NAN, STALE_NAN_HI, STALE_NAN_LO, isStaleNaN, type Sample } from './sample.js';
export { ArraySeriesIterator, EMPTY_ITERATOR, collectSamples, readBatch, stoppedPast, type SeriesIterator } from './iterator.js';
export {
  MAX_TIME_MS,
  MIN_TIME_MS,
  systemClock,
  type Clock,
  type DurationMs,
  type UnixMs,
} from './time.js';
export { MemoryLogger, noopLogger, type LogFields, type Logger } from './logger.js';
export { formatGoFixed6, formatGoFloatE, formatGoFloatF, formatGoFloatG, goRound, goUnderscoreOK, parseGoFloat } from './go-number.js';
export { goQuote, goQuoteRune, goRuneHash } from './go-quote.js';
export {
  DurationSyntaxError,
  formatDuration,
  parseDuration,
  parseDurationMs,
  type DurationSyntaxReason,
} from './duration.js';
export { systemTimers, type Timers } from './timers.js';
export { VirtualTimers } from './virtual-timers.js';
export { mulberry32 } from './random.js';
export type { SeriesSample, SeriesSink } from './series-sink.js';
export {
  codesOf,
  errorStatus,
  isCodedError,
  specsByCode,
  type CodedError,
  type ErrorCodes,
  type ErrorRegistry,
  type ErrorSpec,
  type PrometheusErrorType,
} from './errors.js';
export { goExpand, goExpandMatch } from './go-expand.js';
export { DEFAULT_REDACTION_RULES, RedactionRuleError, compileRedaction, re2ReplaceAll, type RedactionRule } from './redact.js';
