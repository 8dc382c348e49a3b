import type { Labels } from '../../model/index.js';

/**
 * The label-set part of a series line: `name`, `name{l="v", …}`, `{__name__="x"}`, `{"utf8.name"}`
 * or `{}`. `metricEnd` finds where it stops (the values follow); the PromQL parser's `parseMetric`
 * (Prometheus' `ParseMetric`) turns it into labels.
 */

/** Turns the metric part of a series line into labels; throws on bad syntax. */
export type MetricParser = (text: string) => Labels;

const IDENT = /^[A-Za-z_:][A-Za-z0-9_:]*/;

/**
 * Returns the index just past the metric part of a series line (0 when the line starts with no
 * metric). A `{` after the name, possibly after spaces, opens the label set unless it is `{{`,
 * which starts a native-histogram value. Quoted label values may contain braces and spaces.
 */
export function metricEnd(line: string): number {
  const name = IDENT.exec(line);
  const afterName = name === null ? 0 : name[0].length;
  let j = afterName;
  while (line[j] === ' ' || line[j] === '\t') j++;
  if (line[j] !== '{' || line[j + 1] === '{') return afterName;
  for (let i = j + 1; i < line.length; i++) {
    const c = line[i];
    if (c === '}') return i + 1;
    if (c === '"' || c === "'" || c === '`') i = quotedEnd(line, i) - 1;
  }
  return line.length; // unterminated: let the metric parser report it
}

/** The index just past the quoted string that starts at `start`. */
function quotedEnd(text: string, start: number): number {
  const q = text[start];
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\' && q !== '`') i++;
    else if (text[i] === q) return i + 1;
  }
  return text.length;
}
