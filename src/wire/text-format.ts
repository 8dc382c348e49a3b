import type { Labels } from '../model/index.js';

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

/**
 * Formats a float as Prometheus' Go code does (`strconv.FormatFloat(v, 'g', -1, 64)`): the
 * shortest digits that round-trip, in exponent form (`1e+06`, `1.5e-05`) when the decimal
 * exponent is below -4 or at least 6, else in plain form; `+Inf`, `-Inf`, `NaN`, and `-0`.
 */
export function formatFloat(v: number): string {
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  if (Number.isNaN(v)) return 'NaN';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const [mantissa, expText] = v.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(v); // plain notation for exponents in [-4, 6), as JavaScript already prints them
}

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
      line += ' ' + formatFloat(s.value);
      if (s.tMs !== undefined) line += ' ' + String(s.tMs);
      out.push(line);
    }
  }
  return out.join('\n') + '\n';
}
