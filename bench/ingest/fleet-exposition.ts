/**
 * The fleet data set (bench/tsdb/fleet-dataset.ts) as the scrape bodies its exporters would
 * serve: per instance one vLLM body and one DCGM body, each a text exposition 0.0.4 with HELP and
 * TYPE lines, histograms as one family (`_bucket`, `_sum`, `_count`), counters typed `counter`,
 * the rest `gauge`. The target labels (`job`, `instance`, `az`, `instance_type`) are not in the
 * body: service discovery attaches them, so they come back as the scrape's target labels.
 */
import { Labels } from '../../src/model/index.js';
import { formatTextExposition, type MetricFamily, type MetricType } from '../../src/wire/index.js';
import type { DatasetInstance } from '../tsdb/fleet-dataset.js';

/** Labels that a scrape target carries rather than the exporter. */
const TARGET_LABELS = ['job', 'instance', 'az', 'instance_type'];

/** One scrape target of an instance: its labels and how its body is laid out. */
export interface ExpositionTarget {
  readonly targetLabels: Labels;
  /** The data set's series of this target, by index into `DatasetInstance.series`. */
  readonly series: readonly number[];
  /** Family of each of `series`, as an index into `families`, with its name suffix and exposed labels. */
  readonly layout: readonly { family: number; suffix: string; labels: Labels }[];
  readonly families: readonly { name: string; type: MetricType }[];
}

function familyOf(name: string, histograms: ReadonlySet<string>): { base: string; suffix: string; type: MetricType } {
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (name.endsWith(suffix) && histograms.has(name.slice(0, -suffix.length))) return { base: name.slice(0, -suffix.length), suffix, type: 'histogram' };
  }
  return { base: name, suffix: '', type: name.endsWith('_total') ? 'counter' : 'gauge' };
}

/** Splits an instance's series into its targets (one per `job`) and lays out their families. */
export function expositionTargets(inst: DatasetInstance): ExpositionTarget[] {
  const histograms = new Set(inst.series.filter((s) => s.labels.has('le')).map((s) => s.labels.metricName.replace(/_bucket$/, '')));
  const byJob = new Map<string, number[]>();
  inst.series.forEach((s, i) => {
    const job = s.labels.get('job');
    const list = byJob.get(job);
    if (list === undefined) byJob.set(job, [i]);
    else list.push(i);
  });
  return [...byJob.values()].map((series) => {
    const first = inst.series[series[0]].labels;
    const targetLabels = Labels.from(Object.fromEntries(TARGET_LABELS.map((n) => [n, first.get(n)])));
    const families: { name: string; type: MetricType }[] = [];
    const index = new Map<string, number>();
    const layout = series.map((i) => {
      const labels = inst.series[i].labels;
      const f = familyOf(labels.metricName, histograms);
      let family = index.get(f.base);
      if (family === undefined) {
        family = families.push({ name: f.base, type: f.type }) - 1;
        index.set(f.base, family);
      }
      return { family, suffix: f.suffix, labels: labels.without('__name__', ...TARGET_LABELS) };
    });
    return { targetLabels, series, layout, families };
  });
}

/** The body of `target` with the given values (one per series of the instance, by index). */
export function formatTarget(target: ExpositionTarget, values: Float64Array): string {
  const families: MetricFamily[] = target.families.map((f) => ({ name: f.name, help: `${f.name} from the fleet data set.`, type: f.type, samples: [] }));
  target.series.forEach((i, k) => {
    const l = target.layout[k];
    families[l.family].samples.push({ suffix: l.suffix, labels: l.labels, value: values[i] });
  });
  return formatTextExposition(families);
}
