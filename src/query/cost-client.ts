/**
 * The read contract of Infersight's cost routes, beside `DiagnosisClient`: `GET /api/v1/cost/summary`
 * (what each model costs, idle GPUs, bound verdicts and right-sizing findings at one time) and
 * `GET /api/v1/cost/catalog` (the prices and benchmarks in force). The wire types are the JSON the
 * server writes: src/cost's `CostSummary` with times in Unix seconds (as every Prometheus API
 * time) and no NaN (null). The UI reads them through `HttpCostClient`. docs/api.md describes them.
 */
import type { UnixMs } from '../model/index.js';
import type { QueryResponse, RequestOptions } from './client.js';
import { ApiTransport, isObject, isRecordOfStrings, type Params, type TransportOptions } from './http-transport.js';
import { formatTimeParam } from './format.js';

/** One component's cost, as `CostSummary.components` (null: no tokens, or no benchmark). */
export interface CostComponentWire {
  readonly endpoint: string;
  readonly component: string;
  readonly model: string;
  readonly dollarsPerHour: number;
  readonly gpus: number;
  readonly dollarsPerMillionInputTokens: number | null;
  readonly dollarsPerMillionOutputTokens: number | null;
  readonly benchmarkEfficiency: number | null;
}

/** A replica's compute- vs memory-bound verdict (`bound`: `compute`, `memory`, `idle`, `unknown`) with its inputs (ratios; null: not exposed). */
export interface BoundVerdictWire {
  readonly replica: string;
  readonly instance: string;
  readonly component: string;
  readonly model: string;
  readonly bound: string;
  readonly inputs: {
    readonly smActive: number | null;
    readonly tensorActive: number | null;
    readonly dramActive: number | null;
    readonly memCopyUtil: number | null;
    readonly mfu: number | null;
    readonly mbu: number | null;
  };
  readonly reason: string;
}

/** A right-sizing finding (`kind`: `idle-gpus`, `over-provisioned`, `below-benchmark`); `since` in Unix seconds. */
export interface CostFindingWire {
  readonly kind: string;
  readonly scope: Readonly<Record<string, string>>;
  readonly text: string;
  readonly dollarsPerDay: number;
  readonly since: number;
  readonly query: string;
}

/** The `data` of `GET /api/v1/cost/summary`. */
export interface CostSummaryData {
  /** The time summarized, Unix seconds. */
  readonly time: number;
  readonly catalog: { readonly takenOn: string; readonly region: string; readonly instanceTypes: number };
  readonly components: readonly CostComponentWire[];
  readonly idle: { readonly gpus: number; readonly dollarsPerHour: number };
  readonly verdicts: readonly BoundVerdictWire[];
  readonly findings: readonly CostFindingWire[];
}

/** One instance type of the price catalog in force. */
export interface InstancePriceWire {
  readonly instanceType: string;
  readonly provider: string;
  readonly onDemandPerHourUsd: number;
  readonly effectivePerHourUsd: number;
  readonly discount: number;
  readonly pricing: string;
  readonly gpuCount: number;
  readonly gpuModel: string;
  readonly gpuMemoryGiB: number;
}

/** One benchmark of the catalog in force, with its source. */
export interface BenchmarkWire {
  readonly model: string;
  readonly instanceType: string;
  readonly engine: string;
  readonly gpusPerReplica: number;
  readonly points: readonly {
    readonly concurrency: number;
    readonly outputTpsPerSequence: number;
    readonly outputTpsAggregate: number;
    readonly ttftS?: number;
    readonly promptTokens?: number;
  }[];
  readonly source: string;
}

/** The `data` of `GET /api/v1/cost/catalog`: the catalogs in force and the files they came from (null: the shipped defaults). */
export interface CostCatalogData {
  readonly prices: { readonly takenOn: string; readonly region: string; readonly file: string | null; readonly instances: readonly InstancePriceWire[] };
  readonly benchmarks: { readonly file: string | null; readonly entries: readonly BenchmarkWire[] };
}

/** What `summary` asks: the time (the server's now when absent). */
export interface CostSummaryOptions extends RequestOptions {
  readonly timeMs?: UnixMs;
}

/**
 * The cost routes of a server; reads without side effects. Failures reject with
 * `QueryClientError`: `bad_data` for a refused parameter, `not_found` when the server has no cost
 * API, `unavailable` when cost is off or the store not open, `bad_response` for an answer of
 * another shape, `canceled` when `signal` aborted the call.
 */
export interface CostClient {
  /** `GET /api/v1/cost/summary`. */
  summary(opts?: CostSummaryOptions): Promise<QueryResponse<CostSummaryData>>;
  /** `GET /api/v1/cost/catalog`. */
  catalog(opts?: RequestOptions): Promise<QueryResponse<CostCatalogData>>;
}

/** A `CostClient` over HTTP (`fetch`; runs in browsers and Node). Stateless; share one per server. */
export class HttpCostClient implements CostClient {
  private readonly transport: ApiTransport;

  constructor(options: TransportOptions) {
    this.transport = new ApiTransport(options);
  }

  summary(opts: CostSummaryOptions = {}): Promise<QueryResponse<CostSummaryData>> {
    const p: Params = [];
    if (opts.timeMs !== undefined) p.push(['time', formatTimeParam(opts.timeMs)]);
    return this.transport.call('/api/v1/cost/summary', p, 'GET', opts, isCostSummary);
  }

  catalog(opts: RequestOptions = {}): Promise<QueryResponse<CostCatalogData>> {
    return this.transport.call('/api/v1/cost/catalog', [], 'GET', opts, (d) => isObject(d) && isObject(d.prices) && Array.isArray(d.prices.instances) && isObject(d.benchmarks) && Array.isArray(d.benchmarks.entries));
  }
}

/** Checks the parts the UI relies on; unknown extra fields are kept. */
function isCostSummary(d: unknown): boolean {
  return (
    isObject(d) &&
    typeof d.time === 'number' &&
    isObject(d.idle) &&
    Array.isArray(d.components) &&
    d.components.every((c) => isObject(c) && typeof c.component === 'string' && typeof c.dollarsPerHour === 'number') &&
    Array.isArray(d.verdicts) &&
    d.verdicts.every((v) => isObject(v) && typeof v.replica === 'string' && typeof v.bound === 'string' && typeof v.reason === 'string' && isObject(v.inputs)) &&
    Array.isArray(d.findings) &&
    d.findings.every((f) => isObject(f) && typeof f.text === 'string' && typeof f.kind === 'string' && isRecordOfStrings(f.scope))
  );
}
