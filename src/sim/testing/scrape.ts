/**
 * Test helpers: scrape simulated targets in-process (render + parse with src/wire, as a scraper
 * would) and add up series. Virtual time only; no HTTP.
 */
import { parseExposition, type ParsedFamily, type ParsedSample } from '../../wire/index.js';
import type { SimTarget } from '../targets.js';

/** One scrape of one target: its samples and families. */
export interface Scrape {
  readonly target: SimTarget;
  readonly samples: ParsedSample[];
  readonly families: ParsedFamily[];
}

/** Renders and parses one target (text 0.0.4, or OpenMetrics). Undefined when it is not up. */
export function scrape(t: SimTarget, openMetrics = false): Scrape | undefined {
  if (!t.available()) return undefined;
  const samples: ParsedSample[] = [];
  const fs = t.families();
  const text = openMetrics ? fs.renderOpenMetrics() : fs.renderText();
  const { families } = parseExposition(text, openMetrics ? 'openmetrics-1.0' : 'prometheus-0.0.4', (s) => samples.push(s));
  return { target: t, samples, families };
}

/** The sum of the samples named `name` whose labels include `match`. */
export function total(s: Scrape | undefined, name: string, match: Readonly<Record<string, string>> = {}): number {
  if (s === undefined) return 0;
  let v = 0;
  for (const x of s.samples) {
    if (x.name !== name) continue;
    if (Object.entries(match).every(([k, want]) => x.labels.get(k) === want)) v += x.value;
  }
  return v;
}
