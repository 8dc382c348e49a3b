import type { Labels, Matcher } from '../../model/index.js';
import type { Expr } from './ast.js';
import { checkAST } from './check.js';
import { ParseError } from './parse-error.js';
import { parseQuery } from './parse-expr.js';
import { parseLabelSet, parseSelectorOnly } from './parse-selector.js';
import { type ParserOptions, ParserState, Unexpected } from './parser-state.js';

function resolve(opts: ParserOptions): Required<ParserOptions> {
  return {
    enableExperimentalFunctions: opts.enableExperimentalFunctions ?? false,
    enableDurationExpressions: opts.enableDurationExpressions ?? false,
    enableExtendedRangeSelectors: opts.enableExtendedRangeSelectors ?? false,
    enableBinopFillModifiers: opts.enableBinopFillModifiers ?? false,
  };
}

/** Runs one parse and turns whatever escapes it into a `ParseError`. */
function run<R>(input: string, opts: ParserOptions, parse: (p: ParserState) => R): R {
  const p = new ParserState(input, resolve(opts));
  try {
    return parse(p);
  } catch (e) {
    if (e instanceof ParseError) throw e;
    if (e instanceof Unexpected) throw p.toParseError(e);
    const whole = { start: 0, end: p.byte(input.length) };
    // A stack overflow despite the nesting limits, or a bug: still a ParseError, never a crash.
    if (e instanceof RangeError) throw new ParseError('expression is nested too deeply', whole, input);
    throw new ParseError('unexpected error', whole, input, { cause: e });
  }
}

/**
 * Parses a PromQL expression into a typed, type-checked syntax tree, as Prometheus'
 * `parser.ParseExpr` with the given features enabled (all off by default, like a stock server).
 * Throws `ParseError` with Prometheus' message and byte position for every invalid query, and
 * nothing else. Trees nested deeper than 1,000 levels are rejected rather than risk the stack.
 */
export function parseExpr(input: string, opts: ParserOptions = {}): Expr {
  return run(input, opts, (p) => {
    const e = parseQuery(p);
    checkAST(p, e);
    return e;
  });
}

/**
 * Parses a series selector such as `up{job="vllm"}` or `{__name__=~"llm_.*"}` into its
 * matchers, as Prometheus' `parser.ParseMetricSelector` (the API's `match[]`). Like Prometheus it
 * does not insist on a non-empty matcher; callers that need one check it. Throws `ParseError`.
 */
export function parseMetricSelector(input: string): Matcher[] {
  return run(input, {}, (p) => parseSelectorOnly(p));
}

/**
 * Parses a metric in series notation, `name{label="value", ...}` (both parts optional), into
 * its label set with `__name__`, as Prometheus' `parser.ParseMetric`. Throws `ParseError`.
 */
export function parseMetric(input: string): Labels {
  return run(input, {}, (p) => parseLabelSet(p));
}
