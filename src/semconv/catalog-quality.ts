import type { MetricSpec } from './types.js';

/**
 * The bucket bounds of `llm_quality_evaluation_duration_seconds`, in seconds, as src/quality writes
 * them. The simulator's layout (0.25 s to 60 s, an LLM judge's range) with finer bounds below it,
 * since stage-1 checks take micro- to milliseconds: a slow judge and a fast heuristic land in
 * different buckets, and every bound of the simulator's exporter is one of these.
 */
export const QUALITY_EVALUATION_DURATION_BUCKETS: readonly number[] = [0.001, 0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 20, 30, 60];

/**
 * Labels that describe the infrastructure an answer ran on, never the answer: a series named
 * `llm_quality_*` carrying one is refused on every ingest path (docs/design/quality-namespace.md
 * has the reasons). Quality is judged per model and deployment (`model`, `component`,
 * `endpoint`); a score split by replica, GPU or zone would be a quantity in disguise and would mix
 * the two namespaces the UI keeps apart. `instance` and `job` are not in the list: they are the
 * target labels every scraped series carries (an external evaluator's exporter has them too).
 * Each name is here with its origin: the catalog's identity labels that belong to the machine
 * (`replica`, `instance_type`, `az`, `engine`, `gpu`), DCGM's labels as exposed and as the
 * normalizer renames them, engines' parallelism ranks, and Kubernetes' placement labels.
 */
export const QUALITY_INFRASTRUCTURE_LABELS: readonly string[] = [
  // Identity labels (IDENTITY_LABELS) that name the machine, not the model or deployment.
  'replica',
  'instance_type',
  'az',
  'engine',
  'gpu',
  // DCGM exporter (raw, then as src/normalize renames them).
  'UUID',
  'gpu_uuid',
  'pci_bus_id',
  'device',
  'modelName',
  'gpu_model',
  'Hostname',
  'hostname',
  'GPU_I_PROFILE',
  'gpu_instance_profile',
  'GPU_I_ID',
  'gpu_instance_id',
  'DCGM_FI_DRIVER_VERSION',
  'driver_version',
  // Engines' data-parallel rank (vLLM, SGLang).
  'dp_rank',
  // Kubernetes placement (kube-state-metrics, the Prometheus operator's target labels).
  'pod',
  'node',
  'container',
];

/** Answer quality, kept in its own `llm_quality_*` namespace (written by src/quality). */
export const QUALITY_METRICS = [
  {
    name: 'llm_quality_score',
    type: 'gauge',
    unit: '',
    help: 'Mean evaluation score over the recent window, 0–1, by dimension (safety, relevance, tone, composite, ...).',
    labels: ['dimension'],
    stability: 'stable',
    sources: [],
    producer: 'quality',
  },
  {
    name: 'llm_quality_evaluation_duration_seconds',
    type: 'histogram',
    unit: 'seconds',
    help: 'Time to evaluate one sampled response (inference plus judge), one observation per evaluation, by dimension and evaluator (stage1:<check>, judge:<rubric>).',
    labels: ['dimension', 'evaluator'],
    stability: 'stable',
    sources: [],
    producer: 'quality',
  },
  {
    name: 'llm_quality_sampled_responses_total',
    type: 'counter',
    unit: '',
    help: 'Responses sampled for evaluation.',
    labels: [],
    stability: 'stable',
    sources: [],
    producer: 'quality',
  },
  {
    name: 'llm_quality_evaluations_total',
    type: 'counter',
    unit: '',
    help: 'Evaluations completed, by dimension.',
    labels: ['dimension'],
    stability: 'stable',
    sources: [],
    producer: 'quality',
  },
  {
    name: 'llm_quality_evaluation_errors_total',
    type: 'counter',
    unit: '',
    help: 'Evaluations that failed (judge error, timeout), by dimension and evaluator.',
    labels: ['dimension', 'evaluator'],
    stability: 'stable',
    sources: [],
    producer: 'quality',
  },
  {
    name: 'llm_quality_drift_score',
    type: 'gauge',
    unit: '',
    help: 'How far a model\'s scores (by dimension) or inputs (by feature) have drifted from their baseline, as the detecting test\'s statistic over the threshold that opens a drift event: 0 = no drift, 1 = an event opens.',
    labels: ['dimension', 'feature'],
    stability: 'experimental',
    sources: [],
    producer: 'quality',
  },
  {
    name: 'llm_quality_judge_tokens_total',
    type: 'counter',
    unit: 'tokens',
    help: 'Tokens the evaluation judge consumed, by token type (input, output).',
    labels: ['token_type'],
    stability: 'experimental',
    sources: [],
    producer: 'quality',
  },
  {
    name: 'llm_quality_recent_scores',
    type: 'gauge',
    unit: '',
    help: 'How many scores stand behind llm_quality_score: the sum of their exponentially decayed weights (1 for a score just in, half after one half-life), by dimension.',
    labels: ['dimension'],
    stability: 'experimental',
    sources: [],
    producer: 'quality',
  },
  {
    name: 'llm_quality_flags_total',
    type: 'counter',
    unit: '',
    help: 'Stage-1 flags raised on sampled responses (refusal, empty, truncated, invalid_json, pii, blocklist, language_mismatch, length_anomaly), by flag.',
    labels: ['flag'],
    stability: 'experimental',
    sources: [],
    producer: 'quality',
  },
  {
    name: 'llm_quality_drift_event',
    type: 'gauge',
    unit: '',
    help: 'A drift detected on a model\'s scores or inputs: 1 while open (a stale marker when it resolves), by subject (dimension or input feature) and test (page-hinkley, psi, ks).',
    labels: ['subject', 'test'],
    stability: 'experimental',
    sources: [],
    producer: 'quality',
  },
] as const satisfies readonly MetricSpec[];
