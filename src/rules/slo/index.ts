/** SLOs as data: objectives, their YAML file form, and the recording and burn-rate alerting rules they become. */
export { parseSloFile } from './file.js';
export { BURN_RATES, DEFAULT_RUNBOOK_BASE, SLO_WINDOWS, errorBudget, objectiveLabels, sloRuleGroups, type SloRuleOptions } from './generate.js';
export { leMatcher, sliRates, thresholdUnmatchedExpr } from './sli.js';
export {
  AVAILABILITY_COUNTER,
  DEFAULT_HISTOGRAMS,
  DEFAULT_PERIOD_MS,
  SLO_KINDS,
  isSliHistogram,
  layoutSourceLabel,
  sloHistogram,
  sloSpecProblems,
  type SloKind,
  type SloSpec,
} from './spec.js';
