import { formatGoFloatG, type Labels } from '../model/index.js';

/** The metric types of the Prometheus text exposition format. */
export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

/** One metric family to format: its metadata and samples. */
export interface MetricFamily {
  name: string;
  help: string;
  type: MetricType;
  /** Samples: labels without `__name__` (the family name, or a suffixed name via `suffix`), and a value. */
  samples: { suffix?: string; labels?: Labels; value: number; tMs?: number }[];
}

/** The content type of Prometheus text exposition format 0.0.4. */
export const TEXT_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

function escapeLabelValue(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function escapeHelp(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

/** Formats metric families as Prometheus text exposition format 0.0.4. */
export function formatTextExposition(families: readonly MetricFamily[]): string {
  const out: string[] = [];
  for (const f of families) {
    out.push(`# HELP ${f.name} ${escapeHelp(f.help)}`, `# TYPE ${f.name} ${f.type}`);
    for (const s of f.samples) {
      let line = f.name + (s.suffix ?? '');
      if (s.labels !== undefined && s.labels.size > 0) {
        const parts: string[] = [];
        s.labels.forEach((n, v) => parts.push(`${n}="${escapeLabelValue(v)}"`));
        line += `{${parts.join(',')}}`;
      }
      line += ' ' + formatGoFloatG(s.value);
      if (s.tMs !== undefined) line += ' ' + String(s.tMs);
      out.push(line);
    }
  }
  return out.join('\n') + '\n';
}
