/**
 * The Quality dashboard (id `quality`, the Quality page and its Grafana export): per inference
 * component, "quality" beside "quantity" on one time axis, so that a model whose answers get worse
 * is told apart from a busy GPU, and a slow evaluation from a slow model. Row one: the scores by
 * dimension next to TTFT P99, GPU memory and cost per hour. Row two: what evaluating costs
 * (evaluation latency beside model latency, judge tokens, failed evaluations) and the drift
 * score. Drift events (and Insights' cold starts and scaling events) are marked across every time series. The variables are
 * Insights' own, so a selection carries over between the two pages.
 */
import { INSIGHTS_ANNOTATIONS, INSIGHTS_VARIABLES } from './insights.js';
import { quantile, rate, sel, sumBy } from './queries.js';
import { ofSelectedComponents } from './selection.js';
import type { Dashboard, Panel, Row } from './types.js';

const SCORE_HINT = 'Needs quality scores: the gateway sampling into the quality pipeline, POST /api/v1/quality/scores, or an exporter of llm_quality_score.';

/** A time-series panel of the first row or the second (half the width each, or a third). */
function series(id: string, title: string, description: string, unit: Panel['unit'], queries: Panel['queries'], width: number, emptyHint?: string): Panel {
  return { id, title, description, viz: 'timeseries', unit, queries, width, height: 8, ...(emptyHint === undefined ? {} : { emptyHint }) };
}

const QUANTITY_ROW: Row = {
  id: 'quality-and-quantity',
  title: 'Quality and quantity',
  panels: [
    series(
      'quality-scores',
      'Quality scores',
      'Mean evaluation score (0–1, higher is better) per component and dimension. A slide in one dimension while latency, memory and cost hold is the model answering worse, not the fleet being busy.',
      'ratio',
      [{ refId: 'score', legend: '{{component}} {{dimension}}', expr: ofSelectedComponents(`avg by (component, dimension) (${sel('llm_quality_score')})`) }],
      12,
      SCORE_HINT,
    ),
    series(
      'quality-ttft',
      'TTFT P99',
      'Time to first token at the 99th percentile per component, from the engines (an upper bound where engines of different bucket layouts serve one component).',
      'seconds',
      [{ refId: 'ttft', legend: '{{component}}', expr: quantile('0.99', 'llm_time_to_first_token_seconds', ['component']) }],
      12,
    ),
    series(
      'quality-gpu-memory',
      'GPU memory',
      'Framebuffer in use per instance. Memory at the total with scores steady is a capacity problem; scores falling with memory steady is not.',
      'bytes',
      [{ refId: 'memory', legend: '{{instance}}', expr: sumBy(['instance'], sel('gpu_memory_used_bytes')) }],
      12,
    ),
    series(
      'quality-cost',
      'Cost per hour',
      'What each component costs per hour now (the GPUs it holds, at the price catalog). Needs the cost module; no data until it runs.',
      'dollars/h',
      [{ refId: 'cost', legend: '{{component}}', expr: ofSelectedComponents(sumBy(['component'], sel('llm_cost_dollars_per_hour'))) }],
      12,
      'Needs the cost module (llm_cost_dollars_per_hour).',
    ),
  ],
};

const EVALUATION_ROW: Row = {
  id: 'evaluation',
  title: 'Evaluation',
  panels: [
    series(
      'quality-eval-latency',
      'Evaluation latency and model latency',
      'P99 time to evaluate one sampled response (stage 1 and the judge) beside the P99 end-to-end latency of the model itself: a slow judge is not a slow model.',
      'seconds',
      [
        { refId: 'evaluation', legend: '{{component}} evaluation', expr: ofSelectedComponents(quantile('0.99', 'llm_quality_evaluation_duration_seconds', ['component'])) },
        { refId: 'model', legend: '{{component}} model', expr: quantile('0.99', 'llm_e2e_request_latency_seconds', ['component']) },
      ],
      12,
      SCORE_HINT,
    ),
    series(
      'quality-judge-tokens',
      'Judge tokens',
      'Tokens per second the stage-2 judge consumes, input and output. The token budget per hour caps it; past the budget pairs get stage 1 only.',
      'tokens/s',
      [{ refId: 'tokens', legend: '{{component}} {{token_type}}', expr: ofSelectedComponents(sumBy(['component', 'token_type'], rate('llm_quality_judge_tokens_total'))) }],
      12,
      'Needs a judge (quality.judge in --config.file).',
    ),
    series(
      'quality-eval-errors',
      'Failed evaluations',
      'Evaluations per second that failed (judge timeouts, HTTP errors, unreadable answers), by dimension. Failures give no score, so scores over a failing judge stand on fewer pairs.',
      'req/s',
      [{ refId: 'errors', legend: '{{component}} {{dimension}}', expr: ofSelectedComponents(sumBy(['component', 'dimension'], rate('llm_quality_evaluation_errors_total'))) }],
      12,
    ),
    series(
      'quality-drift',
      'Drift score',
      'Distance of the recent scores (or inputs) from their baseline per component (0: no drift). A drift event opens when a test passes its threshold; its onset is marked across the panels.',
      'none',
      [{ refId: 'drift', legend: '{{component}} {{dimension}}{{feature}}', expr: ofSelectedComponents(`max by (component, dimension, feature) (${sel('llm_quality_drift_score')})`) }],
      12,
    ),
  ],
};

/** The Quality dashboard. */
export const QUALITY: Dashboard = {
  id: 'quality',
  title: 'Quality',
  description:
    'Answer quality beside the infrastructure, per component: scores by dimension next to TTFT P99, GPU memory and cost per hour on one time axis; evaluation latency beside model latency, judge tokens, failed evaluations and drift. Drift events are marked across every chart.',
  variables: INSIGHTS_VARIABLES,
  rows: [QUANTITY_ROW, EVALUATION_ROW],
  annotations: INSIGHTS_ANNOTATIONS,
};
