import { STALE_NAN, type Labels } from '../../model/index.js';
import { parseSeriesNumber } from './go-syntax.js';
import { parseHistogramNotation, type HistogramNotation } from './histogram-notation.js';
import { parseMetric as parsePromqlMetric } from '../parser/index.js';
import { metricEnd, type MetricParser } from './metric-notation.js';

/**
 * The series-value notation shared by `load` blocks and expected results (Prometheus'
 * `ParseSeriesDesc`): `<metric> <item> <item> …`, where items expand as
 *
 * | item | values |
 * |---|---|
 * | `7`, `-1.5`, `1e3`, `Inf`, `NaN` | one value |
 * | `a+bxN`, `a-bxN` | N+1 values a, a±b, … (by repeated addition, as Go does) |
 * | `axN` | N+1 copies of a |
 * | `_` / `_xN` | one / N omitted steps |
 * | `stale` | the staleness marker |
 * | `{{…}}`, `{{…}}xN`, `{{A}}+{{B}}xN`, `{{A}}-{{B}}xN` | native histograms (parsed, flagged) |
 *
 * Hexadecimal is not a number here: `0x10` is "0, ten more times".
 */

/**
 * One step of an expanded sequence. Float values live in an object property, never in a plain
 * `number[]`: V8 canonicalizes NaNs stored in double arrays, which would turn the stale marker
 * into an ordinary NaN.
 */
export type SequenceValue =
  | { readonly kind: 'float'; readonly value: number }
  | { readonly kind: 'omitted' }
  | {
      readonly kind: 'histogram';
      /** The histogram written (`A` of `{{A}}+{{B}}xN`). */
      readonly histogram: HistogramNotation;
      /** For `{{A}}±{{B}}xN`: this value is A + sign·times·B (not computed: histograms are skipped). */
      readonly step: { readonly sign: 1 | -1; readonly delta: HistogramNotation; readonly times: number } | null;
    };

/** A parsed series line: its labels and its expanded values. */
export interface SeriesLine {
  readonly metric: Labels;
  readonly values: readonly SequenceValue[];
}

const OMITTED: SequenceValue = { kind: 'omitted' };

/**
 * Parses one series line (`metric{labels} 1 2+3x4 _ stale`). The metric part goes through
 * `parseMetric` (default: the PromQL parser's). Throws an `Error` describing the
 * first bad item.
 */
export function parseSeriesLine(line: string, parseMetric: MetricParser = parsePromqlMetric): SeriesLine {
  const end = metricEnd(line);
  if (end === 0) throw new Error(`missing metric name or label set in series ${JSON.stringify(line)}`);
  const metric = parseMetric(line.slice(0, end));
  const rest = line.slice(end);
  if (rest !== '' && !/^\s/.test(rest)) throw new Error(`unexpected ${JSON.stringify(rest)} after metric`);
  return { metric, values: expandSeriesValues(rest) };
}

/** Expands the value part of a series line (everything after the metric). */
export function expandSeriesValues(text: string): SequenceValue[] {
  const out: SequenceValue[] = [];
  let i = 0;
  for (;;) {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
    if (i >= text.length) return out;
    if (text.startsWith('{{', i)) {
      i = expandHistogramItem(text, i, out);
      if (i < text.length && text[i] !== ' ' && text[i] !== '\t') {
        throw new Error(`unexpected ${JSON.stringify(text.slice(i))} after histogram`);
      }
      continue;
    }
    let j = i;
    while (j < text.length && text[j] !== ' ' && text[j] !== '\t') j++;
    for (const v of expandItem(text.slice(i, j))) out.push(v);
    i = j;
  }
}

/** Reads `{{…}}` at `start` with an optional `xN` or `±{{…}}xN` suffix; returns the end index. */
function expandHistogramItem(text: string, start: number, out: SequenceValue[]): number {
  const [first, afterFirst] = readHistogram(text, start);
  let i = afterFirst;
  if ((text[i] === '+' || text[i] === '-') && text.startsWith('{{', i + 1)) {
    const sign = text[i] === '+' ? 1 : -1;
    const [delta, afterDelta] = readHistogram(text, i + 1);
    const times = /^x(\d+)/.exec(text.slice(afterDelta));
    if (times === null) throw new Error(`expected xN after ${JSON.stringify(text.slice(start, afterDelta))}`);
    const n = Number(times[1]);
    for (let k = 0; k <= n; k++) out.push({ kind: 'histogram', histogram: first, step: k === 0 ? null : { sign, delta, times: k } });
    return afterDelta + times[0].length;
  }
  const times = /^x(\d+)/.exec(text.slice(i));
  const copies = times === null ? 1 : Number(times[1]) + 1;
  for (let k = 0; k < copies; k++) out.push({ kind: 'histogram', histogram: first, step: null });
  if (times !== null) i += times[0].length;
  return i;
}

function readHistogram(text: string, start: number): [HistogramNotation, number] {
  const close = text.indexOf('}}', start + 2);
  if (close < 0) throw new Error(`unterminated histogram ${JSON.stringify(text.slice(start))}`);
  return [parseHistogramNotation(text.slice(start + 2, close)), close + 2];
}

const NUMBER = String.raw`(?:[0-9][0-9_]*\.?[0-9_]*|\.[0-9][0-9_]*)(?:[eE][+-]?[0-9]+)?|[iI][nN][fF]|[nN][aA][nN]`;
const ITEM = new RegExp(String.raw`^([+-]?(?:${NUMBER}))(?:([+-](?:${NUMBER})))?(?:x([0-9]+))?$`);

/** Expands one space-free item. */
function expandItem(item: string): SequenceValue[] {
  if (item === '_') return [OMITTED];
  if (item === 'stale') return [{ kind: 'float', value: STALE_NAN }];
  const blanks = /^_x([0-9]+)$/.exec(item);
  if (blanks !== null) return Array.from({ length: Number(blanks[1]) }, () => OMITTED);
  const m = ITEM.exec(item);
  // The lexer reads `Infx3` as one identifier, so a word-number never takes a suffix.
  if (m === null || (m[3] !== undefined && /[a-zA-Z]$/.test(m[2] ?? m[1]))) {
    throw new Error(`invalid series value ${JSON.stringify(item)}: expected a number, "stale", "_", "a+bxN" or "axN"`);
  }
  const base = parseSeriesNumber(m[1]);
  const inc = m[2] === undefined ? undefined : parseSeriesNumber(m[2]);
  if (base === undefined || (m[2] !== undefined && inc === undefined)) throw new Error(`invalid number in series value ${JSON.stringify(item)}`);
  if (m[3] === undefined) {
    if (inc !== undefined) throw new Error(`series value ${JSON.stringify(item)} needs a repetition count (xN)`);
    return [{ kind: 'float', value: base }];
  }
  const n = Number(m[3]);
  const out: SequenceValue[] = [];
  let v = base;
  for (let k = 0; k <= n; k++) {
    out.push({ kind: 'float', value: v });
    if (inc !== undefined) v += inc;
  }
  return out;
}
