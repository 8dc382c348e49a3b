/**
 * OpenMetrics 1.0 text for families built for text format 0.0.4 (src/wire formats only 0.0.4):
 * a counter's family drops its `_total` (its sample keeps it), and the exposition ends in `# EOF`.
 */
import { formatGoFloatG } from '../model/index.js';
import type { MetricFamily } from '../wire/index.js';

/** The content type of OpenMetrics 1.0.0 text. */
export const OPENMETRICS_CONTENT_TYPE = 'application/openmetrics-text; version=1.0.0; charset=utf-8';

const escapeValue = (v: string): string => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const escapeHelp = (v: string): string => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');

/** Formats families as OpenMetrics 1.0 text. Counter names must end in `_total`. */
export function formatOpenMetrics(families: readonly MetricFamily[]): string {
  const out: string[] = [];
  for (const f of families) {
    const isCounter = f.type === 'counter';
    const family = isCounter && f.name.endsWith('_total') ? f.name.slice(0, -'_total'.length) : f.name;
    out.push(`# TYPE ${family} ${f.type === 'untyped' ? 'unknown' : f.type}`, `# HELP ${family} ${escapeHelp(f.help)}`);
    for (const s of f.samples) {
      let line = f.name + (s.suffix ?? '');
      if (s.labels !== undefined && s.labels.size > 0) {
        const parts: string[] = [];
        s.labels.forEach((n, v) => parts.push(`${n}="${escapeValue(v)}"`));
        line += `{${parts.join(',')}}`;
      }
      out.push(`${line} ${formatGoFloatG(s.value)}`);
    }
  }
  out.push('# EOF');
  return out.join('\n') + '\n';
}
