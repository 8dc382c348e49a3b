/**
 * Insights, service level objectives: attainment, error budget remaining and burn rates per SLO
 * (`slo` = ttft, itl, e2e, availability), endpoint and component, read from the series the SLO
 * recording rules write (the contract in docs/design/slo-series.md: `slo:sli_error:ratio_rate<w>`,
 * `slo:objective:ratio`, `slo:error_budget_remaining:ratio`). Those series are per component
 * (no instance), so each query keeps the components with a replica in the selection and a hex
 * click narrows them too. Without the SLO rules the panels say "No SLO data" and how to get it.
 */
import { ofSelectedComponents } from './selection.js';
import type { Panel, Row, Threshold } from './types.js';

/** A recorded SLO series with the dashboard's endpoint and component filters. */
export function sloSeries(name: string): string {
  return `${name}{endpoint=~"$endpoint", component=~"$component"}`;
}

/**
 * The burn rate over a window: the share of bad events over it divided by the error budget
 * (1 − objective); 1 spends the budget exactly over the SLO period. Both sides carry the same
 * labels (`slo`, `endpoint`, `component`, `objective`, `threshold_seconds`), so they match one to one.
 */
export function burnRate(window: string): string {
  return `${sloSeries(`slo:sli_error:ratio_rate${window}`)} / (1 - ${sloSeries('slo:objective:ratio')})`;
}

/** The page alert's burn rates (Google SRE workbook, ch. 5): 6× over 6 h warns, 14.4× over 1 h pages. */
const BURN_STEPS: readonly Threshold[] = [
  { value: 6, state: 'warning' },
  { value: 14.4, state: 'critical' },
];

/** One row per objective: an SLO can hold several (two thresholds of one latency). */
const SLO_KEYS = ['slo', 'endpoint', 'component', 'objective', 'threshold_seconds'] as const;

const HINT =
  'No SLO data: these panels read the series the SLO recording rules write (slo:sli_error:ratio_rate*, slo:objective:ratio, slo:error_budget_remaining:ratio). Load the default rule pack or your own SLO objectives through rule_files.';

const SLO_TABLE: Panel = {
  id: 'slo-status',
  title: 'SLOs and error budget',
  description:
    'Per SLO, endpoint and component: the objective, the share of good events over the SLO period (attainment), the error budget left (1 − bad share ÷ (1 − objective); below 0 the objective is missed) and the burn rate over the last hour and 6 hours (1 = the budget lasts exactly the period; 14.4 over 1 h pages).',
  viz: 'table',
  unit: 'ratio',
  queries: [
    { refId: 'objective', title: 'Objective', unit: 'ratio', expr: ofSelectedComponents(sloSeries('slo:objective:ratio')), instant: true },
    { refId: 'attainment', title: 'Attainment (period)', unit: 'ratio', expr: ofSelectedComponents(`1 - ${sloSeries('slo:sli_error:ratio_rate30d')}`), instant: true },
    { refId: 'budget', title: 'Budget left', unit: 'ratio', expr: ofSelectedComponents(sloSeries('slo:error_budget_remaining:ratio')), instant: true },
    { refId: 'burn_1h', title: 'Burn 1h', unit: 'none', expr: ofSelectedComponents(burnRate('1h')), instant: true, thresholds: BURN_STEPS },
    { refId: 'burn_6h', title: 'Burn 6h', unit: 'none', expr: ofSelectedComponents(burnRate('6h')), instant: true, thresholds: BURN_STEPS },
  ],
  joinOn: SLO_KEYS,
  width: 10,
  height: 8,
  emptyTitle: 'No SLO data',
  emptyHint: HINT,
};

const BUDGET_TREND: Panel = {
  id: 'slo-budget',
  title: 'Error budget remaining',
  description: 'The share of the error budget left over the SLO period, per SLO and component, over the range: a steady slide is a slow burn (a ticket), a cliff a fast one (a page). Below 0 % the objective is missed for the period.',
  viz: 'timeseries',
  unit: 'ratio',
  queries: [{ refId: 'A', legend: '{{slo}} {{component}}', expr: ofSelectedComponents(sloSeries('slo:error_budget_remaining:ratio')) }],
  width: 7,
  height: 8,
  emptyTitle: 'No SLO data',
  emptyHint: HINT,
};

const BURN_TREND: Panel = {
  id: 'slo-burn',
  title: 'Burn rate',
  description: 'How fast each SLO spends its error budget over the last 5 minutes and the last hour (1 = exactly over the SLO period). Both past 14.4 page; 6 over 6 h and 30 min pages too (Google SRE workbook, multi-window, multi-burn-rate alerts).',
  viz: 'timeseries',
  unit: 'none',
  queries: [
    { refId: 'short', legend: '{{slo}} {{component}} 5m', expr: ofSelectedComponents(burnRate('5m')) },
    { refId: 'long', legend: '{{slo}} {{component}} 1h', expr: ofSelectedComponents(burnRate('1h')) },
  ],
  thresholds: BURN_STEPS,
  width: 7,
  height: 8,
  emptyTitle: 'No SLO data',
  emptyHint: HINT,
};

/** The SLO row. */
export const SLO_ROW: Row = { id: 'slo', title: 'Service level objectives', panels: [SLO_TABLE, BUDGET_TREND, BURN_TREND] };
