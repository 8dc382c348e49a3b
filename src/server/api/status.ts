import type { Handler } from '../http.js';
import { apiHandler, type ApiDeps } from './common.js';
import { ApiError } from './params.js';

/** `/api/v1/status/buildinfo`'s data (Prometheus' `PrometheusVersion`). */
export interface BuildInfo {
  readonly version: string;
  readonly revision: string;
  readonly branch: string;
  readonly buildUser: string;
  readonly buildDate: string;
  readonly goVersion: string;
}

/** `/api/v1/status/runtimeinfo`'s data (Prometheus' `RuntimeInfo`, with Node's numbers where Go's do not exist). */
export interface RuntimeInfo {
  readonly startTime: string;
  readonly CWD: string;
  readonly reloadConfigSuccess: boolean;
  readonly lastConfigTime: string;
  readonly corruptionCount: number;
  readonly goroutineCount: number;
  readonly GOMAXPROCS: number;
  readonly GOGC: string;
  readonly GODEBUG: string;
  readonly storageRetention: string;
}

/** One entry of the cardinality lists of `/api/v1/status/tsdb`. */
export interface TsdbStat {
  readonly name: string;
  readonly value: number;
}

/** `/api/v1/status/tsdb`'s data (Prometheus' `TSDBStatus`); `minTime`/`maxTime` may be pre-encoded int64 text. */
export interface TsdbStatus {
  readonly headStats: { numSeries: number; numLabelPairs: number; chunkCount: number; minTime: unknown; maxTime: unknown };
  readonly seriesCountByMetricName: TsdbStat[];
  readonly labelValueCountByLabelName: TsdbStat[];
  readonly memoryInBytesByLabelName: TsdbStat[];
  readonly seriesCountByLabelValuePair: TsdbStat[];
}

/** Where the status endpoints get their answers; bound in `startServer`. */
export interface StatusSources {
  readonly buildInfo: BuildInfo;
  runtimeInfo(): RuntimeInfo;
  readonly flags: Readonly<Record<string, string>>;
  /** Null while the store is not open (answered 503 `unavailable`). */
  tsdb(): TsdbStatus | null;
}

/** The four `/api/v1/status/*` routes, keyed by the last path segment. */
export function statusHandlers(deps: ApiDeps): Record<'buildinfo' | 'runtimeinfo' | 'flags' | 'tsdb', Handler> {
  return {
    buildinfo: apiHandler(deps, async () => ({ data: deps.status.buildInfo })),
    runtimeinfo: apiHandler(deps, async () => ({ data: deps.status.runtimeInfo() })),
    flags: apiHandler(deps, async () => ({ data: sortedRecord(deps.status.flags) })),
    tsdb: apiHandler(deps, async () => {
      const s = deps.status.tsdb();
      if (s === null) throw new ApiError('unavailable', 'the store is not ready yet: replaying the write-ahead log');
      return { data: s };
    }),
  };
}

function sortedRecord(r: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(r).sort()) out[k] = r[k];
  return out;
}
