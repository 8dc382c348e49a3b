/**
 * The contract of src/cost: what the server, the API, the CLI and the UI read. The cost module
 * reads the fleet only through a `QueryClient` (PromQL over catalog names) and writes its series
 * only through a `SeriesSink` (src/model), which src/server binds to the store. Everything here is
 * plain data, so the same answers travel as JSON (`/api/v1/cost/*`).
 */
import type { DurationMs, UnixMs } from '../model/index.js';

/** Where a price was taken from. */
export type PriceProvider = 'aws' | 'gcp' | 'azure' | 'custom';

/** One instance type of the price catalog. */
export interface InstancePrice {
  /** The `instance_type` label value it prices (`ml.g6.4xlarge`, `a2-highgpu-1g`, `Standard_NC24ads_A100_v4`). */
  readonly instanceType: string;
  readonly provider: PriceProvider;
  /** On-demand list price, USD per hour, before any discount. */
  readonly onDemandPerHourUsd: number;
  /** The price in force after this deployment's discount (reserved, savings plan, spot), USD per hour. */
  readonly effectivePerHourUsd: number;
  /** The discount applied, 0 ≤ d < 1 (0 when none), and its kind. */
  readonly discount: number;
  readonly pricing: 'on-demand' | 'reserved' | 'spot';
  readonly gpuCount: number;
  /** The GPU model as DCGM names it (`NVIDIA L4`). */
  readonly gpuModel: string;
  readonly gpuMemoryGiB: number;
  /** The region this price is for, where it differs from the catalog's (`us-central1` for GCP's defaults). */
  readonly region?: string;
}

/** The price catalog in force: defaults merged with the deployment's overrides. */
export interface PriceCatalog {
  /** The date the default prices were taken (YYYY-MM-DD), shown beside every cost. */
  readonly takenOn: string;
  /** The region the default prices are for (`us-east-1` …). */
  readonly region: string;
  readonly instances: ReadonlyMap<string, InstancePrice>;
}

/** One measured point of a benchmark: a concurrency and what one replica did at it. */
export interface BenchmarkPoint {
  /** Concurrent sequences (requests in flight on one replica). */
  readonly concurrency: number;
  /** Output tokens per second of one sequence at that concurrency. */
  readonly outputTpsPerSequence: number;
  /** Output tokens per second of the whole replica at that concurrency. */
  readonly outputTpsAggregate: number;
  /** Time to first token at `promptTokens`, seconds (absent when not measured). */
  readonly ttftS?: number;
  readonly promptTokens?: number;
}

/** One benchmark: a model on an instance type with an engine and a GPU count per replica. */
export interface BenchmarkEntry {
  readonly model: string;
  readonly instanceType: string;
  /** The catalog's engine value (`vllm`, `sglang`, `djl`, `tgi`, `trtllm`). */
  readonly engine: string;
  readonly gpusPerReplica: number;
  /** Sorted by concurrency, at least one point. */
  readonly points: readonly BenchmarkPoint[];
  /** Where the numbers come from (a URL, a tool and its version, or "simulator perf model"). */
  readonly source: string;
}

/** What a replica is bound by. `idle` when it serves nothing; `unknown` when the inputs are missing. */
export type BoundKind = 'compute' | 'memory' | 'idle' | 'unknown';

/** The compute- vs memory-bound verdict of one replica, with its inputs and a one-line reason. */
export interface BoundVerdict {
  readonly replica: string;
  readonly instance: string;
  readonly component: string;
  readonly model: string;
  readonly bound: BoundKind;
  /** The readings the verdict was made from (ratios 0–1; null where the fleet does not expose them). */
  readonly inputs: {
    readonly smActive: number | null;
    readonly tensorActive: number | null;
    readonly dramActive: number | null;
    readonly memCopyUtil: number | null;
    /** Model FLOPs and bandwidth utilization from the engine's counters, where it exposes them. */
    readonly mfu: number | null;
    readonly mbu: number | null;
  };
  /** One line an operator reads ("DRAM 78% busy against tensor 12%: decode-heavy, memory-bound"). */
  readonly reason: string;
}

/** The kinds of right-sizing finding. */
export type FindingKind = 'idle-gpus' | 'over-provisioned' | 'below-benchmark';

/** A right-sizing finding, in words and numbers. */
export interface CostFinding {
  readonly kind: FindingKind;
  /** The scope it is about: endpoint and component, instance where it is one machine's. */
  readonly scope: Readonly<Record<string, string>>;
  /** One sentence ("llama-prod: 3 of 9 GPUs idle for 6 h, $142 a day"). */
  readonly text: string;
  /** What it costs, USD per day at current prices (0 for a finding that costs nothing extra). */
  readonly dollarsPerDay: number;
  /** Since when it holds (the start of the window it was seen over). */
  readonly sinceMs: UnixMs;
  /** PromQL that shows it, for Explore. */
  readonly query: string;
}

/** A snapshot of the cost view at one instant: what `/api/v1/cost/summary` answers. */
export interface CostSummary {
  readonly timeMs: UnixMs;
  readonly catalog: { readonly takenOn: string; readonly region: string; readonly instanceTypes: number };
  /** Per component: cost per hour, GPUs held, $ per 1M input and output tokens (null without tokens). */
  readonly components: readonly {
    readonly endpoint: string;
    readonly component: string;
    readonly model: string;
    readonly dollarsPerHour: number;
    readonly gpus: number;
    readonly dollarsPerMillionInputTokens: number | null;
    readonly dollarsPerMillionOutputTokens: number | null;
    /** Observed output TPS per replica against the benchmark at the observed concurrency (null without a benchmark). */
    readonly benchmarkEfficiency: number | null;
  }[];
  /** GPUs paid for that serve nothing, and what they cost per hour. */
  readonly idle: { readonly gpus: number; readonly dollarsPerHour: number };
  readonly verdicts: readonly BoundVerdict[];
  readonly findings: readonly CostFinding[];
}

/** The cost evaluator: computes the cost series at ticks and answers the summary. */
export interface CostEvaluator {
  /** Evaluates one tick at `tMs` and writes its series; resolves when they are written. */
  evaluate(tMs: UnixMs, signal?: AbortSignal): Promise<void>;
  /**
   * Computes the series over `[fromMs, toMs]` as if the evaluator had run live at every tick (the
   * demo's history), with range queries in chunks, not one query per tick. Resolves with the ticks written.
   */
  replay(fromMs: UnixMs, toMs: UnixMs, signal?: AbortSignal): Promise<number>;
  /** The snapshot at `tMs`, read from the fleet and the cost series. */
  summary(tMs: UnixMs, signal?: AbortSignal): Promise<CostSummary>;
  /** The tick (default 15 s). */
  readonly intervalMs: DurationMs;
}
