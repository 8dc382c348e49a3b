import { parseDurationMs, type Labels } from '../../model/index.js';
import { parseMetric as parsePromqlMetric } from '../parser/index.js';
import type { MetricParser } from './metric-notation.js';
import { parseSeriesLine } from './series-notation.js';

/**
 * Start-timestamp lines of `load` blocks (start_timestamps.test): `metric{labels}@st <items>`,
 * or `@st <items>` on its own as a default for the following series. Each item gives, per
 * sample, the offset from the sample's timestamp to its start timestamp. Infersight's storage
 * keeps no start timestamps yet, so the runner parses and checks these lines (as test.go does)
 * and then ignores them.
 *
 * Items: `_` (no start timestamp), `_xN` (N of them), `*` / `*xN` (repeat the previous offset,
 * 1 or N+1 times), `<dur>`, `<dur>xN` (N+1 copies) and `<dur>±<dur>xN` (N+1 offsets changing by
 * the second duration). Durations may carry a sign.
 */

/** A parsed start-timestamp line; `metric` is null for the standalone default form. */
export interface StartTimestampLine {
  readonly metric: Labels | null;
  /** Offsets in milliseconds, `null` where the item was `_`. */
  readonly offsetsMs: readonly (number | null)[];
}

/** Reports whether a (trimmed) load line is a start-timestamp line: its first word ends in `@st`. */
export function isStartTimestampLine(line: string): boolean {
  const space = line.search(/[ \t]/);
  return space >= 0 && line.slice(0, space).endsWith('@st');
}

/** Parses a start-timestamp line; throws an `Error` on bad syntax. */
export function parseStartTimestampLine(line: string, parseMetric: MetricParser = parsePromqlMetric): StartTimestampLine {
  const space = line.search(/[ \t]/);
  if (space < 0) throw new Error('invalid @st line: missing value sequence');
  const metricPart = line.slice(0, space).slice(0, -'@st'.length);
  const offsetsMs: (number | null)[] = [];
  for (const item of line.slice(space + 1).trim().split(/[ \t]+/).filter((x) => x !== '')) {
    let prev = 0;
    for (let i = offsetsMs.length - 1; i >= 0; i--) {
      const v = offsetsMs[i];
      if (v !== null) {
        prev = v;
        break;
      }
    }
    try {
      offsetsMs.push(...expandStartTimestampItem(item, prev));
    } catch (e) {
      throw new Error(`invalid @st sequence: invalid ST item ${JSON.stringify(item)}: ${(e as Error).message}`);
    }
  }
  if (metricPart === '') return { metric: null, offsetsMs };
  try {
    return { metric: parseSeriesLine(`${metricPart} _`, parseMetric).metric, offsetsMs };
  } catch (e) {
    throw new Error(`invalid @st line metric ${JSON.stringify(metricPart)}: ${(e as Error).message}`);
  }
}

function repeat(n: number, v: number | null): (number | null)[] {
  return Array.from({ length: n }, () => v);
}

function count(text: string): number {
  if (!/^[0-9]+$/.test(text)) throw new Error('invalid repeat count');
  return Number(text);
}

/** test.go's `parseSTItem`. */
function expandStartTimestampItem(item: string, prev: number): (number | null)[] {
  if (item === '_') return [null];
  if (item.startsWith('_x')) {
    const n = count(item.slice(2));
    if (n === 0) throw new Error('invalid repeat count');
    return repeat(n, null);
  }
  if (item === '*') return [prev];
  if (item.startsWith('*x')) return repeat(count(item.slice(2)) + 1, prev);
  const [base, rest] = durationPrefix(item);
  if (rest === '') return [base];
  if (rest[0] === 'x') return repeat(count(rest.slice(1)) + 1, base);
  if (rest[0] !== '+' && rest[0] !== '-') throw new Error(`unexpected character ${JSON.stringify(rest[0])} after duration`);
  const [delta, rest2] = durationPrefix(rest.slice(1));
  if (rest2 === '' || rest2[0] !== 'x') throw new Error("expected 'x<count>' after step duration");
  const n = count(rest2.slice(1));
  const out: number[] = [];
  for (let k = 0; k <= n; k++) out.push(base + (rest[0] === '-' ? -delta : delta) * k);
  return out;
}

/** Reads a signed duration from the start of `s`; returns milliseconds and the rest. */
function durationPrefix(s: string): [number, string] {
  const m = /^([+-]?)([0-9]+)([a-wyzA-Z]*)/.exec(s);
  if (m === null) throw new Error(`expected digits in duration ${JSON.stringify(s)}`);
  const ms = parseDurationMs(m[2] + m[3]);
  if (ms === undefined) throw new Error(`invalid duration ${JSON.stringify(m[2] + m[3])}`);
  return [m[1] === '-' ? -ms : ms, s.slice(m[0].length)];
}
