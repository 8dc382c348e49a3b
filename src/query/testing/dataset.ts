import type { UnixMs } from '../../model/index.js';
import type { Metric } from '../wire.js';

/** One series of the suite's data set: its labels (with `__name__`) and its samples. */
export interface SuiteSeries {
  readonly metric: Metric;
  /** The OpenMetrics family the series belongs to, and its type. */
  readonly family: { readonly name: string; readonly type: 'counter' | 'gauge' };
  readonly samples: readonly (readonly [tMs: UnixMs, value: number])[];
}

/**
 * The fixed data set of `runQueryClientSuite`, in the forms a backend can load: structured, as
 * OpenMetrics 1.0 text (timestamps in seconds, ends with `# EOF`: what
 * `promtool tsdb create-blocks-from openmetrics` reads) and as Prometheus text 0.0.4 with
 * millisecond timestamps (what VictoriaMetrics' `/api/v1/import/prometheus` reads).
 */
export interface QueryClientSuiteData {
  readonly series: readonly SuiteSeries[];
  readonly openMetrics: string;
  readonly prometheusText: string;
  /** The first and last sample time of the whole set. */
  readonly startMs: UnixMs;
  readonly endMs: UnixMs;
}

/** 2023-11-15T00:00:00Z: the first sample. A multiple of every step the suite uses. */
export const SUITE_T0_MS: UnixMs = 1_700_006_400_000;
/** The sample interval. */
export const SUITE_INTERVAL_MS = 15_000;
/** A label value that needs escaping in every text format and in JSON (Go escapes `<`, `>`, `&` too). */
export const SUITE_ODD_VALUE = 'q"uote\\ back\nline ü <b>&';

function series(family: SuiteSeries['family'], metric: Metric, n: number, value: (i: number) => number): SuiteSeries {
  return { family, metric, samples: Array.from({ length: n }, (_, i) => [SUITE_T0_MS + i * SUITE_INTERVAL_MS, value(i)] as const) };
}

function escapeLabelValue(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function sampleLine(s: SuiteSeries, tText: string, v: number): string {
  const { __name__: name, ...rest } = s.metric;
  const labels = Object.keys(rest)
    .sort()
    .map((k) => `${k}="${escapeLabelValue(rest[k])}"`)
    .join(',');
  return `${name}{${labels}} ${String(v)} ${tText}`;
}

/**
 * Builds the data set: ten minutes of 15 s samples (41 per series) for two counters and two
 * gauges, plus a gauge that stops after 105 s and carries a label value full of characters that
 * need escaping. Values are exact in every backend's storage (VictoriaMetrics rounds to 12
 * significant digits).
 */
export function queryClientSuiteData(): QueryClientSuiteData {
  const requests = { name: 'suite_requests', type: 'counter' } as const;
  const gpu = { name: 'suite_gpu_utilization', type: 'gauge' } as const;
  const short = { name: 'suite_short', type: 'gauge' } as const;
  const all: SuiteSeries[] = [
    series(requests, { __name__: 'suite_requests_total', job: 'api', instance: 'a:9000', az: 'us-east-1a' }, 41, (i) => 10 * i),
    series(requests, { __name__: 'suite_requests_total', job: 'api', instance: 'b:9000', az: 'us-east-1b' }, 41, (i) => 5 * i),
    series(gpu, { __name__: 'suite_gpu_utilization', instance: 'a:9000', gpu: '0' }, 41, (i) => 0.25 * ((i % 4) + 1)),
    series(gpu, { __name__: 'suite_gpu_utilization', instance: 'a:9000', gpu: '1' }, 41, (i) => (i % 2 === 0 ? 0.5 : 0.125)),
    series(short, { __name__: 'suite_short', instance: 'c', note: SUITE_ODD_VALUE }, 8, (i) => i),
  ];
  const om: string[] = [];
  const prom: string[] = [];
  let family = '';
  for (const s of all) {
    if (s.family.name !== family) {
      family = s.family.name;
      om.push(`# TYPE ${family} ${s.family.type}`, `# HELP ${family} Suite data.`);
      prom.push(`# TYPE ${s.metric.__name__} ${s.family.type}`);
    }
    for (const [t, v] of s.samples) {
      om.push(sampleLine(s, String(t / 1000), v));
      prom.push(sampleLine(s, String(t), v));
    }
  }
  om.push('# EOF');
  const times = all.flatMap((s) => s.samples.map(([t]) => t));
  return {
    series: all,
    openMetrics: om.join('\n') + '\n',
    prometheusText: prom.join('\n') + '\n',
    startMs: Math.min(...times),
    endMs: Math.max(...times),
  };
}
