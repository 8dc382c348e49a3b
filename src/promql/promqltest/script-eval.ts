import { compileRe2, parseDurationMs, type Re2Regexp } from '../../model/index.js';
import { goUnquote, parseGoNumber } from './go-syntax.js';
import type { MetricParser } from './metric-notation.js';
import { LineError, wrap, type EvalCommand, type ExpectKind, type Expectation, type ExpectedSeries } from './script-types.js';
import { parseSeriesLine, type SequenceValue } from './series-notation.js';

// The regular expressions of test.go, unchanged (Go's RE2 and JavaScript agree on them).
const EVAL_INSTANT = /^eval(?:_(fail|warn|ordered|info))?\s+instant\s+(?:at\s+(.+?))?\s+(.+)$/;
const EVAL_RANGE = /^eval(?:_(fail|warn|info))?\s+range\s+from\s+(.+)\s+to\s+(.+)\s+step\s+(.+?)\s+(.+)$/;
const EXPECT = /^expect\s+(ordered|fail|warn|no_warn|info|no_info)(?:\s+(regex|msg):(.+))?$/;
const EXPECT_RANGE = /^expect range vector\s+from\s+(.+)\s+to\s+(.+)\s+step\s+(.+)$/;
const RANGE_VECTOR_PREFIX = 'expect range vector';
const EXPECT_STRING_PREFIX = 'expect string';

/** Compiles a Go (RE2) regular expression for unanchored matching, as `regexp.MatchString` uses it. */
export function compileGoRegexp(pattern: string): Re2Regexp {
  return compileRe2(pattern, { anchored: false, dotAll: false });
}

/** test.go's `parseDurations`: from, to and step of a range, with `to >= from`. */
function parseRange(from: string, to: string, step: string): [number, number, number] {
  const f = parseDurationMs(from);
  if (f === undefined) throw new Error(`invalid start timestamp definition ${JSON.stringify(from)}`);
  const t = parseDurationMs(to);
  if (t === undefined) throw new Error(`invalid end timestamp definition ${JSON.stringify(to)}`);
  if (t < f) throw new Error(`invalid test definition, end timestamp (${to}) is before start timestamp (${from})`);
  const s = parseDurationMs(step);
  if (s === undefined) throw new Error(`invalid step definition ${JSON.stringify(step)}`);
  return [f, t, s];
}

function parseExpect(line: string): [ExpectKind, Expectation] {
  const m = EXPECT.exec(line.trim());
  if (m === null) throw new Error('invalid expect statement, must match `expect <type> <match_type>: <string>` format');
  const kind = m[1] as ExpectKind;
  if (m[2] === undefined) return [kind, { message: null, regex: /^.*$/, source: '' }];
  const text = m[3].trim();
  if (m[2] === 'msg') return [kind, { message: text, regex: null, source: text }];
  try {
    return [kind, { message: null, regex: compileGoRegexp(text), source: text }];
  } catch {
    throw new Error(`invalid regex ${text} for ${kind}`);
  }
}

function validateExpects(e: Record<ExpectKind, Expectation[]>): void {
  if (e.info.length > 0 && e.no_info.length > 0) throw new Error('invalid expect lines, info and no_info cannot be used together');
  if (e.warn.length > 0 && e.no_warn.length > 0) throw new Error('invalid expect lines, warn and no_warn cannot be used together');
  if (e.fail.length > 1) throw new Error('invalid expect lines, multiple expect fail lines are not allowed');
}

function parseExpectedString(line: string): string {
  const invalid = 'expected string literal not valid - a quoted string literal is required';
  if (line === EXPECT_STRING_PREFIX) throw new Error(invalid);
  const text = line.startsWith(`${EXPECT_STRING_PREFIX} `) ? line.slice(EXPECT_STRING_PREFIX.length + 1) : line;
  if (text === '') throw new Error(invalid);
  const v = goUnquote(text);
  if (v === undefined) throw new Error('expected string literal not valid - check that the string is correctly quoted');
  return v;
}

/**
 * Parses an `eval` block starting at line index `start` (test.go's `parseEval`); returns the
 * command and the index of the block's last line. As in test.go, `expected_fail_message`,
 * `expected_fail_regexp` and a scalar line end the block early.
 */
export function parseEvalBlock(lines: readonly string[], start: number, parseMetric: MetricParser): [EvalCommand, number] {
  const head = lines[start];
  const inst = EVAL_INSTANT.exec(head);
  const rng = EVAL_RANGE.exec(head);
  if (inst === null && rng === null) {
    throw new LineError(
      start,
      "invalid evaluation command. Must be either 'eval[_fail|_warn|_ordered] instant [at <offset:duration>] <query>' or 'eval[_fail|_warn] range from <from> to <to> step <step> <query>'",
    );
  }
  const isRange = inst === null;
  const mod = isRange ? rng![1] : inst[1];
  const expr = isRange ? rng![5] : inst[3];
  const fail = (detail: string): LineError => new LineError(start, `error in eval ${expr} (line ${start + 1}): ${detail}`);
  let startMs: number;
  let endMs = 0;
  let stepMs = 0;
  if (isRange) {
    try {
      [startMs, endMs, stepMs] = parseRange(rng![2], rng![3], rng![4]);
    } catch (e) {
      throw fail((e as Error).message);
    }
  } else {
    const at = inst[2] ?? '';
    const t = parseDurationMs(at);
    if (t === undefined) throw fail(`invalid timestamp definition ${JSON.stringify(at)}`);
    startMs = t;
  }
  let evalMs = startMs;
  let expectedFailMessage = '';
  let expectedFailRegexp: Re2Regexp | null = null;
  const expects: Record<ExpectKind, Expectation[]> = { ordered: [], fail: [], warn: [], no_warn: [], info: [], no_info: [] };
  const expectedSeries = new Map<string, ExpectedSeries>();
  let expectedScalar: SequenceValue | null = null;
  let expectedString = '';
  let excludeFromRangeQuery = false;
  let expectRangeVector = false;
  let i = start;
  for (let j = 1; i + 1 < lines.length && lines[i + 1] !== ''; j++) {
    const line = lines[++i];
    if (mod === 'fail' && line.startsWith('expected_fail_message')) {
      expectedFailMessage = line.slice('expected_fail_message'.length).trim();
      break;
    }
    if (mod === 'fail' && line.startsWith('expected_fail_regexp')) {
      const pattern = line.slice('expected_fail_regexp'.length).trim();
      try {
        expectedFailRegexp = compileGoRegexp(pattern);
      } catch (e) {
        throw fail(`invalid regexp '${pattern}' for expected_fail_regexp: ${(e as Error).message}`);
      }
      break;
    }
    if (line.startsWith(RANGE_VECTOR_PREFIX)) {
      const m = EXPECT_RANGE.exec(line);
      if (m === null) throw fail(`invalid range vector definition ${JSON.stringify(line)}`);
      try {
        [startMs, endMs, stepMs] = parseRange(m[1], m[2], m[3]);
      } catch (e) {
        throw fail((e as Error).message);
      }
      evalMs = endMs;
      expectRangeVector = true;
      excludeFromRangeQuery = true;
      continue;
    }
    if (line.startsWith(EXPECT_STRING_PREFIX)) {
      try {
        expectedString = parseExpectedString(line);
      } catch (e) {
        throw fail((e as Error).message);
      }
      excludeFromRangeQuery = true;
      continue;
    }
    // A metric named `expect` can still be written as `expect{}`.
    if (line.split(' ')[0] === 'expect') {
      try {
        const [kind, e] = parseExpect(line);
        expects[kind].push(e);
        validateExpects(expects);
      } catch (e) {
        throw fail((e as Error).message);
      }
      j--;
      continue;
    }
    const scalar = parseGoNumber(line);
    if (scalar !== undefined) {
      expectedScalar = { kind: 'float', value: scalar };
      break;
    }
    const series = wrap(i, () => parseSeriesLine(line, parseMetric));
    if (series.values.length > 1 && !isRange && !expectRangeVector) {
      throw fail(
        "expecting multiple values in instant evaluation not allowed. consider using 'expect range vector' directive to enable a range vector result for an instant query",
      );
    }
    expectedSeries.set(series.metric.key(), { pos: j, metric: series.metric, values: series.values });
    expectedScalar = null;
  }
  const cmd: EvalCommand = {
    kind: 'eval',
    line: start + 1,
    expr,
    isRange,
    startMs,
    endMs,
    stepMs,
    evalMs,
    legacyFail: mod === 'fail',
    legacyWarn: mod === 'warn',
    legacyInfo: mod === 'info',
    legacyOrdered: mod === 'ordered',
    expectedFailMessage,
    expectedFailRegexp,
    expects,
    expectedSeries,
    expectedScalar,
    expectedString,
    excludeFromRangeQuery,
  };
  return [cmd, i];
}
