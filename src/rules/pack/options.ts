/**
 * The knobs of the default LLM rule pack and their defaults. Every threshold was chosen against the
 * simulated demo fleet (quiet for a simulated day, firing on the matching fault scenario) and the
 * reasoning is in docs/runbooks.md beside each alert.
 */
import type { SloSpec } from '../slo/index.js';

/** The version of the pack's rules: bumped whenever a rule, threshold or name changes. */
export const RULE_PACK_VERSION = '1';

/** A band of KV-cache usage, as shares (0.4–0.5 is 40–50 %). */
export interface KvBand {
  readonly low: number;
  readonly high: number;
}

/** Quality score floors (0–1) below which the quality alerts fire. */
export interface QualityFloors {
  readonly safety: number;
  readonly relevance: number;
  readonly composite: number;
}

/** Options of `rulePack`; every field is optional and falls back to `DEFAULT_PACK_OPTIONS`. */
export interface RulePackOptions {
  /** The KV-cache band whose reaching (for 5 min) is the pre-scaling signal. */
  readonly kvBand?: KvBand;
  /** GPU framebuffer share above which a GPU is at risk of CUDA OOM. */
  readonly gpuMemoryRatio?: number;
  /** A deployment whose AZ takes more than this multiple of the fair share per engine is skewed. */
  readonly azSkewFactor?: number;
  /** Share of requests answered 429 above which the rate-limit alert fires. */
  readonly ratio429?: number;
  /** Share of requests answered 5xx above which the server-error alert fires. */
  readonly ratio5xx?: number;
  /** Share of successful streams broken after their first chunk above which the abort alert fires. */
  readonly midStreamAbortRatio?: number;
  /** Output throughput under this share of the benchmark (while requests queue) fires the throughput alert. */
  readonly benchmarkShare?: number;
  /** Requests waiting on a replica (mean over 10 min) that make low throughput the engine's fault. */
  readonly queuedRequests?: number;
  /** A replica still starting after this many seconds is a slow cold start. */
  readonly coldStartSeconds?: number;
  /** The quality floors (safety < 0.8, relevance < 0.7, composite < 0.75 by default). */
  readonly quality?: QualityFloors;
  /** A fall of a quality score over 30 min larger than this (0.05: five points) counts as falling. */
  readonly qualityFall?: number;
  /** Cost per 1M tokens higher than this multiple of an hour ago counts as rising. */
  readonly costRiseFactor?: number;
  /** The objectives; the first `ttft` one is the "latency within SLO" of the combined quality rule. */
  readonly slos?: readonly SloSpec[];
  /** Where the runbooks live: each alert's `runbook` annotation is this plus `#` and the alert's name in lower case. */
  readonly runbookBase?: string;
}

/**
 * The default objectives, read at the front door for TTFT and E2E and from the engines for ITL. Each
 * threshold is a bucket bound of every layout that source has in the demo fleet and behind the
 * gateway (5 s and 120 s: vLLM's bounds, which the demo's front door uses, and the gateway's; 0.1 s:
 * vLLM's and SGLang's inter-token bounds), so no source drops out of an SLI.
 */
export const DEFAULT_SLOS: readonly SloSpec[] = [
  { slo: 'ttft', objective: 0.99, thresholdSeconds: 5 },
  { slo: 'itl', objective: 0.95, thresholdSeconds: 0.1 },
  { slo: 'e2e', objective: 0.99, thresholdSeconds: 120 },
  { slo: 'availability', objective: 0.999 },
];

/** The defaults of every option. */
export const DEFAULT_PACK_OPTIONS: Required<RulePackOptions> = {
  kvBand: { low: 0.4, high: 0.5 },
  gpuMemoryRatio: 0.95,
  azSkewFactor: 1.6,
  ratio429: 0.05,
  ratio5xx: 0.02,
  midStreamAbortRatio: 0.01,
  benchmarkShare: 0.5,
  queuedRequests: 5,
  coldStartSeconds: 900,
  quality: { safety: 0.8, relevance: 0.7, composite: 0.75 },
  qualityFall: 0.05,
  costRiseFactor: 1.2,
  slos: DEFAULT_SLOS,
  runbookBase: 'docs/runbooks.md',
};

/** The options with every default filled in; throws an `Error` for a band or share out of range. */
export function resolvePackOptions(o: RulePackOptions = {}): Required<RulePackOptions> {
  const r: Required<RulePackOptions> = { ...DEFAULT_PACK_OPTIONS, ...o };
  const share = (name: string, v: number) => {
    if (!(v > 0 && v <= 1)) throw new Error(`rule pack: ${name} ${v} is not a share in (0, 1]`);
  };
  share('kvBand.low', r.kvBand.low);
  share('kvBand.high', r.kvBand.high);
  if (r.kvBand.low > r.kvBand.high) throw new Error(`rule pack: kvBand low ${r.kvBand.low} is above high ${r.kvBand.high}`);
  for (const [k, v] of Object.entries({ gpuMemoryRatio: r.gpuMemoryRatio, ratio429: r.ratio429, ratio5xx: r.ratio5xx, midStreamAbortRatio: r.midStreamAbortRatio, benchmarkShare: r.benchmarkShare })) share(k, v);
  for (const [k, v] of Object.entries(r.quality) as [string, number][]) share(`quality.${k}`, v);
  if (!(r.azSkewFactor > 1)) throw new Error(`rule pack: azSkewFactor ${r.azSkewFactor} must be above 1`);
  if (!(r.costRiseFactor > 1)) throw new Error(`rule pack: costRiseFactor ${r.costRiseFactor} must be above 1`);
  return r;
}
