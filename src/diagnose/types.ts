import type { UnixMs } from '../model/index.js';

/**
 * The contract of `src/diagnose`: what a diagnosis answers. The HTTP API
 * (`GET /api/v1/diagnosis`, `GET /api/v1/insights`), the CLI table and the UI read these shapes;
 * the JSON answer uses the same field names with times in Unix seconds.
 */

/** The stable ids of the causes a diagnosis can name (issue 17). */
export const CAUSE_IDS = [
  'kv-cache-pressure',
  'gpu-memory-saturation',
  'az-traffic-skew',
  'cold-start-storm',
  'prompt-length-shift',
  'slow-instance',
  'rate-limit-burst',
  'engine-errors',
  'throughput-below-benchmark',
  'quality-drift',
  'platform-overhead',
  'load',
  'none',
] as const;

/** One cause id. */
export type CauseId = (typeof CAUSE_IDS)[number];

/** The symptom a diagnosis explains: TTFT, inter-token latency, end-to-end latency, token throughput or errors. */
export type Symptom = 'ttft' | 'itl' | 'e2e' | 'tps' | 'errors';

/** Every symptom, in the order the API documents them. */
export const SYMPTOMS: readonly Symptom[] = ['ttft', 'itl', 'e2e', 'tps', 'errors'];

/**
 * Where a cause localises: catalog label names (`endpoint`, `component`, `replica`, `instance`,
 * `az`) to values; empty when the cause is fleet-wide.
 */
export type Scope = Readonly<Record<string, string>>;

/** One piece of evidence: a query, its value over the baseline window and over the incident window. */
export interface Evidence {
  readonly query: string;
  /** The value over the baseline window; null when the baseline has no data. */
  readonly baseline: number | null;
  /** The value over the incident window; null when it has no data. */
  readonly incident: number | null;
}

/** One ranked cause. */
export interface Cause {
  readonly cause: CauseId;
  /** In [0, 1]. */
  readonly confidence: number;
  readonly scope: Scope;
  /** When the cause's own signal started; null when unknown. */
  readonly onsetMs: UnixMs | null;
  /** One sentence an operator can act on. */
  readonly summary: string;
  readonly evidence: readonly Evidence[];
}

/** What `diagnose` answers: causes sorted by confidence, highest first (`none` first when nothing is wrong). */
export interface Diagnosis {
  readonly timeMs: UnixMs;
  readonly causes: readonly Cause[];
  /** Causes considered and ruled out, each with one line saying why not (the UI's "why not" lines). */
  readonly ruledOut: readonly { readonly cause: CauseId; readonly reason: string }[];
}

/** What a diagnosis is asked. */
export interface DiagnoseRequest {
  readonly timeMs: UnixMs;
  /** Series selectors that narrow the fleet (PromQL selector text, as `match[]`). */
  readonly match?: readonly string[];
  /** The symptom to explain; when absent, the one that regressed most. */
  readonly symptom?: Symptom;
  readonly signal?: AbortSignal;
}

/** The function the API, the CLI and the online runner call; `src/diagnose` builds it over a `QueryClient`. */
export type Diagnoser = (req: DiagnoseRequest) => Promise<Diagnosis>;

/** An insight: a symptom that crossed its threshold (or an SLO that burned), with its diagnosis. */
export interface Insight {
  /** Stable for the life of the insight (deterministic from symptom, scope and onset). */
  readonly id: string;
  readonly symptom: Symptom;
  readonly scope: Scope;
  readonly onsetMs: UnixMs;
  readonly detectedMs: UnixMs;
  /** Null while open. */
  readonly resolvedMs: UnixMs | null;
  readonly causes: readonly Cause[];
}
