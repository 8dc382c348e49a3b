import type { Labels, Re2Regexp } from '../../model/index.js';
import type { SequenceValue } from './series-notation.js';

/** The kinds of `expect <kind>` lines. */
export type ExpectKind = 'ordered' | 'fail' | 'warn' | 'no_warn' | 'info' | 'no_info';

/**
 * One `expect` line's text condition: `msg: <exact text>` (`message`), `regex: <RE2>` (`regex`,
 * unanchored as Go's `MatchString`), or neither, which matches anything.
 */
export interface Expectation {
  readonly message: string | null;
  readonly regex: Re2Regexp | null;
  /** The text as written after `msg:`/`regex:`, or '' when there was none. */
  readonly source: string;
}

/** One expected result series, with its 1-based position for `expect ordered`. */
export interface ExpectedSeries {
  readonly pos: number;
  readonly metric: Labels;
  readonly values: readonly SequenceValue[];
}

/**
 * `eval instant at <t> <expr>` or `eval range from <s> to <e> step <d> <expr>` with its
 * expectations. Times are Unix milliseconds (the script clock starts at 0). Field meanings follow
 * test.go's `evalCmd`.
 */
export interface EvalCommand {
  readonly kind: 'eval';
  /** 1-based line of the `eval` line. */
  readonly line: number;
  readonly expr: string;
  readonly isRange: boolean;
  /** Range: the query range. Instant: `startMs` is the eval time, or the `expect range vector` range. */
  readonly startMs: number;
  readonly endMs: number;
  readonly stepMs: number;
  /** Instant: the time the query runs at (`expect range vector` moves it to that range's end). */
  readonly evalMs: number;
  /** Deprecated command forms: `eval_fail`, `eval_warn`, `eval_info`, `eval_ordered`. */
  readonly legacyFail: boolean;
  readonly legacyWarn: boolean;
  readonly legacyInfo: boolean;
  readonly legacyOrdered: boolean;
  /** `expected_fail_message <text>` / `expected_fail_regexp <re>` (with `eval_fail` only). */
  readonly expectedFailMessage: string;
  readonly expectedFailRegexp: Re2Regexp | null;
  readonly expects: Readonly<Record<ExpectKind, readonly Expectation[]>>;
  /** Expected series by `Labels.key()`; a series listed twice keeps the later line. */
  readonly expectedSeries: ReadonlyMap<string, ExpectedSeries>;
  /** Set when the result must be a scalar (a line that is only a number). */
  readonly expectedScalar: SequenceValue | null;
  /** `expect string "…"`; '' when absent (test.go compares against '' then too). */
  readonly expectedString: string;
  /** No range-mode check (`expect range vector`, `expect string`). */
  readonly excludeFromRangeQuery: boolean;
}

/** The query must fail (`expect fail` or `eval_fail`). */
export function isFail(cmd: EvalCommand): boolean {
  return cmd.legacyFail || cmd.expects.fail.length > 0;
}

/** Results must come in the listed order (`expect ordered` or `eval_ordered`). */
export function isOrdered(cmd: EvalCommand): boolean {
  return cmd.legacyOrdered || cmd.expects.ordered.length > 0;
}

/** An error at a 0-based line index, turned into a `ScriptError` by `parseScript`. */
export class LineError extends Error {
  constructor(
    readonly index: number,
    message: string,
  ) {
    super(message);
    this.name = 'LineError';
  }
}

/** Runs `fn`, turning a plain `Error` into a `LineError` at line index `i`. */
export function wrap<T>(i: number, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof LineError) throw e;
    throw new LineError(i, e instanceof Error ? e.message : String(e));
  }
}
