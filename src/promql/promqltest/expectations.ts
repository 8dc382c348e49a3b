import type { EvalCommand, Expectation } from './script-types.js';

/**
 * How `msg:` / `regex:` conditions (and `expected_fail_message` / `expected_fail_regexp`) are
 * read. `strict` compares them with the text verbatim, as test.go does; `lenient` reads each as
 * "some error / some annotation of this kind", for an engine whose wording is not yet
 * Prometheus'. The runner reports lenient passes separately and never counts them as passes.
 */
export type MessageMode = 'strict' | 'lenient';

/** A failed check: the reason, and whether only the wording of a message made it fail. */
export interface CheckFailure {
  readonly reason: string;
  /** True when the lenient mode would have accepted this (an error or annotation text mismatch). */
  readonly messageOnly: boolean;
}

function matches(e: Expectation, text: string): boolean {
  return e.regex === null ? e.message === text : e.regex.test(text);
}

function describe(e: Expectation): string {
  return e.regex === null ? `message ${JSON.stringify(e.message)}` : `pattern ${JSON.stringify(e.source || e.regex.source)}`;
}

/** Checks the error of a query that was expected to fail (test.go's `checkExpectedFailure`). */
export function checkExpectedFailure(cmd: EvalCommand, errorText: string, mode: MessageMode): CheckFailure | null {
  if (mode === 'lenient') return null;
  const where = `evaluating query ${JSON.stringify(cmd.expr)} (line ${cmd.line})`;
  if (cmd.expectedFailMessage !== '' && cmd.expectedFailMessage !== errorText) {
    return { reason: `expected error ${JSON.stringify(cmd.expectedFailMessage)} ${where}, but got: ${errorText}`, messageOnly: true };
  }
  if (cmd.expectedFailRegexp !== null && !cmd.expectedFailRegexp.test(errorText)) {
    return { reason: `expected error matching pattern ${JSON.stringify(cmd.expectedFailRegexp.source)} ${where}, but got: ${errorText}`, messageOnly: true };
  }
  const fail = cmd.expects.fail[0] as Expectation | undefined;
  if (fail !== undefined && !matches(fail, errorText)) {
    return { reason: `expected error matching ${describe(fail)} ${where}, but got: ${errorText}`, messageOnly: true };
  }
  return null;
}

function checkKind(
  kind: 'warn' | 'info',
  expected: readonly Expectation[],
  actual: readonly string[],
  expr: string,
  line: number,
  mode: MessageMode,
): CheckFailure | null {
  if (expected.length === 0) return null;
  if (actual.length === 0) {
    return { reason: `expected ${kind} annotations but none were found for query ${JSON.stringify(expr)} (line ${line})`, messageOnly: false };
  }
  if (mode === 'lenient') return null;
  for (const e of expected) {
    if (!actual.some((a) => matches(e, a))) {
      return {
        reason: `expected ${kind} annotation matching ${describe(e)} but no matching annotation was found for query ${JSON.stringify(expr)} (line ${line}), found: ${JSON.stringify(actual)}`,
        messageOnly: true,
      };
    }
  }
  for (const a of actual) {
    if (!expected.some((e) => matches(e, a))) {
      return { reason: `unexpected ${kind} annotation ${JSON.stringify(a)} found for query ${expr} (line ${line})`, messageOnly: true };
    }
  }
  return null;
}

/**
 * Checks a query's warnings and infos against the eval's `expect warn|info|no_warn|no_info`
 * lines and the deprecated `eval_warn` / `eval_info` forms (test.go's `checkAnnotations`). A kind
 * without expect lines is not checked.
 */
export function checkAnnotations(
  cmd: EvalCommand,
  expr: string,
  warnings: readonly string[],
  infos: readonly string[],
  mode: MessageMode,
): CheckFailure | null {
  if (cmd.legacyWarn && warnings.length === 0) {
    return { reason: `expected warnings evaluating query ${JSON.stringify(expr)} (line ${cmd.line}) but got none`, messageOnly: false };
  }
  if (cmd.legacyInfo && infos.length === 0) {
    return { reason: `expected info annotations evaluating query ${JSON.stringify(expr)} (line ${cmd.line}) but got none`, messageOnly: false };
  }
  const failure =
    checkKind('warn', cmd.expects.warn, warnings, expr, cmd.line, mode) ?? checkKind('info', cmd.expects.info, infos, expr, cmd.line, mode);
  if (failure !== null) return failure;
  const all = JSON.stringify([...warnings, ...infos]);
  if (cmd.expects.no_warn.length > 0 && warnings.length > 0) {
    return { reason: `unexpected warning annotations evaluating query ${JSON.stringify(expr)} (line ${cmd.line}): ${all}`, messageOnly: false };
  }
  if (cmd.expects.no_info.length > 0 && infos.length > 0) {
    return { reason: `unexpected info annotations evaluating query ${JSON.stringify(expr)} (line ${cmd.line}): ${all}`, messageOnly: false };
  }
  return null;
}
