import { matcher } from '../../model/index.js';
import type { Db } from '../../tsdb/index.js';
import { RawJson } from './json.js';
import type { TsdbStat, TsdbStatus } from './status.js';

const INT64_MAX = new RawJson('9223372036854775807');
const INT64_MIN = new RawJson('-9223372036854775808');

function top(counts: Map<string, number>, n: number): TsdbStat[] {
  return [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, n)
    .map(([name, value]) => ({ name, value }));
}

/**
 * Prometheus' `/api/v1/status/tsdb` numbers for the head block: series count and time range from
 * `Db.stats()`, cardinality lists (top `limit` each) from one labels-only pass over the head's
 * series. `chunkCount` is the number of head chunks created since the process started (the TSDB
 * does not track the live count). An empty head reports Go's int64 extremes, as Prometheus does.
 */
export function tsdbStatus(db: Db, limit = 10): TsdbStatus {
  const s = db.stats().head;
  const empty = !Number.isFinite(s.minTimeMs) || !Number.isFinite(s.maxTimeMs);
  const byName = new Map<string, number>();
  const valuesByLabel = new Map<string, Set<string>>();
  const byPair = new Map<string, number>();
  if (!empty) {
    const q = db.querier(s.minTimeMs, s.maxTimeMs);
    try {
      const set = q.select([matcher('=~', '__name__', '.+')], { labelsOnly: true, startMs: s.minTimeMs, endMs: s.maxTimeMs });
      while (set.next()) {
        set.at().labels.forEach((name, value) => {
          if (name === '__name__') byName.set(value, (byName.get(value) ?? 0) + 1);
          let vs = valuesByLabel.get(name);
          if (vs === undefined) valuesByLabel.set(name, (vs = new Set()));
          vs.add(value);
          const pair = `${name}=${value}`;
          byPair.set(pair, (byPair.get(pair) ?? 0) + 1);
        });
      }
    } finally {
      q.close();
    }
  }
  const valueCounts = new Map([...valuesByLabel].map(([k, v]) => [k, v.size]));
  const memory = new Map([...valuesByLabel].map(([k, v]) => [k, [...v].reduce((n, x) => n + Buffer.byteLength(x), 0)]));
  return {
    headStats: {
      numSeries: s.series,
      numLabelPairs: byPair.size,
      chunkCount: s.chunksCreated,
      minTime: empty ? INT64_MAX : s.minTimeMs,
      maxTime: empty ? INT64_MIN : s.maxTimeMs,
    },
    seriesCountByMetricName: top(byName, limit),
    labelValueCountByLabelName: top(valueCounts, limit),
    memoryInBytesByLabelName: top(memory, limit),
    seriesCountByLabelValuePair: top(byPair, limit),
  };
}
