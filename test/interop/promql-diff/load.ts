/**
 * Puts the same samples into both stores of the differential test: an OpenMetrics file for
 * `promtool tsdb create-blocks-from openmetrics` (Prometheus 2.42) and our `Db`.
 */
import type { Db } from '../../../src/tsdb/index.js';
import { OpenMetricsFile } from '../../../bench/promql/prometheus-peer.js';
import type { DiffDataset, DiffSeries } from './dataset.js';

/**
 * Writes `ds` as OpenMetrics: untyped families in order of first appearance, each family's series
 * together, samples in time order, timestamps in seconds (promtool reads back exact ms).
 */
export function writeOpenMetrics(ds: DiffDataset, file: string): void {
  const families = new Map<string, DiffSeries[]>();
  for (const s of ds.series) {
    const name = s.labels.metricName;
    const list = families.get(name);
    if (list === undefined) families.set(name, [s]);
    else list.push(s);
  }
  const out = new OpenMetricsFile(file);
  try {
    for (const list of families.values()) {
      for (const s of list) {
        const head = OpenMetricsFile.head(s.labels);
        for (let k = 0; k < s.t.length; k++) out.sample(head, s.v[k], s.t[k]);
      }
    }
  } finally {
    out.close();
  }
}

/**
 * Appends `ds` to `db` in global time order (a store refuses samples far behind its newest one),
 * committing every few thousand samples.
 */
export async function writeDb(ds: DiffDataset, db: Db): Promise<void> {
  const order: [number, number][] = [];
  ds.series.forEach((s, i) => s.t.forEach((_, k) => order.push([i, k])));
  order.sort((a, b) => ds.series[a[0]].t[a[1]] - ds.series[b[0]].t[b[1]] || a[0] - b[0]);
  const refs = new Array<number>(ds.series.length).fill(0);
  let app = db.appender();
  let staged = 0;
  for (const [i, k] of order) {
    const s = ds.series[i];
    refs[i] = app.append(refs[i], s.labels, s.t[k], s.v[k]);
    if (++staged === 5000) {
      await app.commit();
      app = db.appender();
      staged = 0;
    }
  }
  await app.commit();
}
