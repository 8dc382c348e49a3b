/**
 * The simulator's input, all plain data: a fleet (endpoints → inference components → replicas on
 * instances across availability zones), the load each component receives, and a timeline of
 * faults. Scenarios (scenarios.ts) are values of these types; so is anything a user writes in JSON.
 */
import type { DurationMs } from '../model/index.js';

/** The engines the simulator imitates, each with its native metric names. */
export type EngineKind = 'vllm' | 'sglang' | 'djl';

/** A token-length distribution (prompt or output), clipped to [min, max]. */
export type LengthDistribution =
  | { readonly kind: 'lognormal'; readonly median: number; readonly sigma: number; readonly min: number; readonly max: number }
  | { readonly kind: 'uniform'; readonly min: number; readonly max: number }
  | { readonly kind: 'fixed'; readonly value: number };

/** The request stream of one component. */
export interface LoadSpec {
  /** Mean arrival rate at the diurnal midline, requests per second (Poisson). */
  readonly ratePerSec: number;
  /** Relative swing of the diurnal curve, 0 (flat) to <1. */
  readonly diurnalAmplitude: number;
  /** Length of one diurnal cycle (24 h; shorter for demos). */
  readonly diurnalPeriodMs: DurationMs;
  /** Random bursts: mean gap between starts, duration, rate multiplier. Omit for none. */
  readonly bursts?: { readonly meanGapMs: DurationMs; readonly durationMs: DurationMs; readonly multiplier: number };
  readonly prompt: LengthDistribution;
  readonly output: LengthDistribution;
  /** Share of requests that start with a shared prefix (system prompt) of `prefixTokens`. */
  readonly prefixShare?: number;
  readonly prefixTokens?: number;
  /** Share of requests that stream (the rest are unary). */
  readonly streamShare?: number;
}

/** Target tracking on concurrent requests per copy (SageMaker's ConcurrentRequestsPerCopy). */
export interface AutoscalingSpec {
  readonly targetConcurrencyPerCopy: number;
  readonly evaluationPeriodMs: DurationMs;
  readonly scaleOutCooldownMs: DurationMs;
  readonly scaleInCooldownMs: DurationMs;
}

/** One inference component: one model deployment with its copies. */
export interface ComponentSpec {
  readonly name: string;
  /** A key of MODELS (data/models.ts). */
  readonly model: string;
  readonly engine: EngineKind;
  readonly gpusPerCopy: number;
  readonly copies: { readonly initial: number; readonly min: number; readonly max: number };
  /** The engine's max_model_len: longer prompts get 400. */
  readonly maxModelLen: number;
  readonly load: LoadSpec;
  readonly autoscaling?: AutoscalingSpec;
  /** Front-door limits: more requests per second or in flight get 429. */
  readonly router?: { readonly rateLimitPerSec?: number; readonly maxConcurrency?: number };
}

/** An endpoint: instances of one type spread over AZs, shared by its components. */
export interface EndpointSpec {
  readonly name: string;
  /** A key of INSTANCE_TYPES (data/instance-types.ts). */
  readonly instanceType: string;
  readonly instances: { readonly initial: number; readonly max: number };
  readonly azs: readonly string[];
  readonly components: readonly ComponentSpec[];
}

/** The whole fleet plus platform timings. */
export interface FleetSpec {
  readonly endpoints: readonly EndpointSpec[];
  /** Object-store download speed of model weights, MB/s (default 400). */
  readonly downloadMBps?: number;
  /** Time to launch a new instance (default 4 min). */
  readonly instanceLaunchMs?: DurationMs;
  /** Container start to engine process start (default 20 s). */
  readonly containerStartMs?: DurationMs;
}

/** The fault kinds a scenario can schedule or a user can inject. */
export const FAULT_KINDS = [
  'kv-cache-pressure',
  'az-traffic-skew',
  'cold-start-storm',
  'gpu-memory-saturation',
  'prompt-length-shift',
  'slow-instance',
  'rate-limit-burst',
  'engine-errors',
  'throughput-below-benchmark',
  'quality-drift',
] as const;

/** One of `FAULT_KINDS`. */
export type FaultKind = (typeof FAULT_KINDS)[number];

/** What a fault affects; every field given must match. */
export interface FaultScope {
  readonly endpoint?: string;
  readonly component?: string;
  readonly instance?: string;
  readonly az?: string;
  readonly instanceType?: string;
  readonly replica?: string;
}

/** A fault on the timeline, times relative to the start of the run. */
export interface FaultSpec {
  readonly kind: FaultKind;
  readonly startMs: DurationMs;
  readonly endMs: DurationMs;
  readonly scope: FaultScope;
  /** Kind-specific strength (see faults.ts for each kind's parameters and defaults). */
  readonly params?: Readonly<Record<string, number | string>>;
}

/** A named scenario: fleet, load (inside the fleet) and faults. */
export interface ScenarioSpec {
  readonly name: string;
  readonly description: string;
  readonly fleet: FleetSpec;
  readonly faults: readonly FaultSpec[];
  /** How long the scenario is meant to run (the faults fit inside). */
  readonly durationMs: DurationMs;
}
