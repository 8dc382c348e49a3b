import { parseMetric as parsePromqlMetric } from '../parser/index.js';
import type { MetricParser } from './metric-notation.js';
import { parseEvalBlock } from './script-eval.js';
import { LineError, wrap, type EvalCommand } from './script-types.js';
import { parseSeriesLine, type SequenceValue } from './series-notation.js';
import { isStartTimestampLine, parseStartTimestampLine } from './start-timestamps.js';
import { parseDurationMs, type Labels } from '../../model/index.js';

export type { EvalCommand, ExpectKind, Expectation, ExpectedSeries } from './script-types.js';

/**
 * The promqltest script language, parsed as Prometheus' `promql/promqltest/test.go` (v3.14) does:
 * the text is split on `\n`, each line trimmed, `#` lines blanked; the first word picks the command
 * (`clear`, `load…`, `eval…`); `load` and `eval` take the following lines up to a blank one. See
 * /work/shared/conformance/promqltest/README.md for the whole language.
 */

/** A parsed script: its commands in file order. */
export interface Script {
  readonly file: string;
  readonly commands: readonly Command[];
}

/** One command of a script. */
export type Command = ClearCommand | LoadCommand | EvalCommand;

/** `clear`: empties the storage. */
export interface ClearCommand {
  readonly kind: 'clear';
  readonly line: number;
}

/** `load <interval>` / `load_with_nhcb <interval>` and its series. */
export interface LoadCommand {
  readonly kind: 'load';
  readonly line: number;
  readonly intervalMs: number;
  /** `load_with_nhcb`: classic histograms are also written as NHCB native histograms. */
  readonly withNhcb: boolean;
  /** One entry per series; a series written twice in one block keeps the later line (as test.go). */
  readonly series: readonly LoadedSeries[];
}

/** One series of a `load` block; value i belongs at `i * intervalMs`. */
export interface LoadedSeries {
  readonly line: number;
  readonly metric: Labels;
  readonly values: readonly SequenceValue[];
  /** Start-timestamp offsets from an `@st` line (or the block's default), else null. Unused by the storage. */
  readonly startOffsetsMs: readonly (number | null)[] | null;
}

/** A script that cannot be parsed; the message starts with `file:line:` (1-based). */
export class ScriptError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    detail: string,
  ) {
    super(`${file}:${line}: ${detail}`);
    this.name = 'ScriptError';
  }
}

/** Splits a script into trimmed lines, blanking comments (test.go's `getLines`). */
export function scriptLines(text: string): string[] {
  return text.split('\n').map((l) => {
    const t = l.trim();
    return t.startsWith('#') ? '' : t;
  });
}

/**
 * Parses a whole script. `parseMetric` reads the label sets of series lines (default: the PromQL
 * parser's, as test.go uses `ParseSeriesDesc`). Eval expressions are not parsed
 * here: the runner does it, so that one bad expression fails one eval rather than the file.
 * Throws `ScriptError` on the first bad line.
 */
export function parseScript(file: string, text: string, parseMetric: MetricParser = parsePromqlMetric): Script {
  const lines = scriptLines(text);
  const commands: Command[] = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (l === '') continue;
    const word = l.split(/[\t ]+/, 1)[0].toLowerCase();
    try {
      if (word === 'clear') {
        commands.push({ kind: 'clear', line: i + 1 });
      } else if (word.startsWith('load')) {
        const [cmd, last] = parseLoad(lines, i, parseMetric);
        commands.push(cmd);
        i = last;
      } else if (word.startsWith('eval')) {
        const [cmd, last] = parseEvalBlock(lines, i, parseMetric);
        commands.push(cmd);
        i = last;
      } else {
        throw new LineError(i, `invalid command ${JSON.stringify(l)}`);
      }
    } catch (e) {
      if (e instanceof LineError) throw new ScriptError(file, e.index + 1, e.message);
      throw e;
    }
  }
  return { file, commands };
}

/** Parses a `load` block starting at line index `start`; returns it and the index of its last line. */
function parseLoad(lines: readonly string[], start: number, parseMetric: MetricParser): [LoadCommand, number] {
  const m = /^load(?:_(with_nhcb))?\s+(.+?)$/.exec(lines[start]);
  if (m === null) throw new LineError(start, 'invalid load command. (load[_with_nhcb] <step:duration>)');
  const intervalMs = parseDurationMs(m[2]);
  if (intervalMs === undefined) throw new LineError(start, `invalid step definition ${JSON.stringify(m[2])}`);
  const bySeries = new Map<string, LoadedSeries>();
  let defaultOffsets: readonly (number | null)[] | null = null;
  let pending: { metric: Labels; offsets: readonly (number | null)[]; index: number } | null = null;
  let i = start;
  while (i + 1 < lines.length && lines[i + 1] !== '') {
    i++;
    const line = lines[i];
    if (isStartTimestampLine(line)) {
      if (pending !== null) throw new LineError(pending.index, '@st line has no following sample line');
      const st = wrap(i, () => parseStartTimestampLine(line, parseMetric));
      if (st.metric === null) defaultOffsets = st.offsetsMs;
      else pending = { metric: st.metric, offsets: st.offsetsMs, index: i };
      continue;
    }
    const series = wrap(i, () => parseSeriesLine(line, parseMetric));
    let offsets: readonly (number | null)[] | null = null;
    if (pending !== null) {
      if (!pending.metric.equals(series.metric)) {
        throw new LineError(pending.index, '@st metric does not match the following sample line metric');
      }
      if (pending.offsets.length !== series.values.length) {
        throw new LineError(pending.index, `@st line has ${pending.offsets.length} values but sample line has ${series.values.length}`);
      }
      offsets = pending.offsets;
      pending = null;
    } else if (defaultOffsets !== null && defaultOffsets.length > 0) {
      const d = defaultOffsets;
      offsets = series.values.map((_, k) => d[k % d.length]);
    }
    bySeries.set(series.metric.key(), { line: i + 1, metric: series.metric, values: series.values, startOffsetsMs: offsets });
  }
  if (pending !== null) throw new LineError(pending.index, '@st line has no following sample line');
  return [{ kind: 'load', line: start + 1, intervalMs, withNhcb: m[1] === 'with_nhcb', series: [...bySeries.values()] }, i];
}
