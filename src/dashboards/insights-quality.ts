/**
 * Insights, quality: the answer-quality scores (`llm_quality_score`, 0–1 by dimension: safety,
 * relevance, tone, composite, ...) per inference component, beside the infrastructure panels, so a
 * model that gets worse while latency looks fine shows on the same page. Scores are per component
 * (`component` scope), so the strip keeps the components that have a replica in the selection.
 */
import { rate, sel, sumBy } from './queries.js';
import { ofSelectedComponents } from './selection.js';
import type { Panel, Row, Threshold } from './types.js';

/** Scores carry no colour steps: steps colour from a value upward, and a low score is the bad one. */
const SCORE = ofSelectedComponents(`avg by (component, dimension) (${sel('llm_quality_score')})`);

/** Share of evaluations that failed: 5 % warns, 20 % is critical. */
const EVAL_ERROR_STEPS: readonly Threshold[] = [
  { value: 0.05, state: 'warning' },
  { value: 0.2, state: 'critical' },
];

const HINT = 'Needs quality scores: the Infersight quality evaluators, or an exporter of llm_quality_score (the demo fleet has one per component).';

const SCORES_NOW: Panel = {
  id: 'quality-scores',
  title: 'Quality scores now',
  description: 'The latest mean evaluation score (0–1, higher is better) of each inference component, one row per component and dimension, so a drop in relevance or tone sits next to the latency it did not move.',
  viz: 'table',
  unit: 'ratio',
  queries: [
    { refId: 'score', title: 'Score', unit: 'ratio', expr: SCORE, instant: true },
    {
      refId: 'evaluations',
      title: 'Evaluations/s',
      unit: 'req/s',
      expr: ofSelectedComponents(sumBy(['component', 'dimension'], rate('llm_quality_evaluations_total'))),
      instant: true,
    },
    {
      refId: 'eval_errors',
      title: 'Failed evaluations',
      unit: 'ratio',
      expr: ofSelectedComponents(`${sumBy(['component', 'dimension'], rate('llm_quality_evaluation_errors_total'))} / ${sumBy(['component', 'dimension'], rate('llm_quality_evaluations_total'))}`),
      instant: true,
      thresholds: EVAL_ERROR_STEPS,
    },
  ],
  joinOn: ['component', 'dimension'],
  width: 10,
  height: 8,
  emptyHint: HINT,
};

const SCORES_OVER_TIME: Panel = {
  id: 'quality-trend',
  title: 'Quality over time',
  description: 'Mean evaluation score per inference component and dimension over the range (0–1, higher is better). A slide in one dimension while the others hold is drift in what the model answers, not an outage.',
  viz: 'timeseries',
  unit: 'ratio',
  queries: [{ refId: 'A', legend: '{{component}} {{dimension}}', expr: SCORE }],
  width: 14,
  height: 8,
  emptyHint: HINT,
};

/** The quality strip. */
export const QUALITY_ROW: Row = { id: 'quality', title: 'Quality', panels: [SCORES_NOW, SCORES_OVER_TIME] };
