/**
 * What the Cost page derives from `/api/v1/cost/summary`: the summary's time for the page's range
 * (its end), the findings most expensive first, and the verdict rows in a stable order. Pure; the
 * page and its tests share it.
 */
import type { BoundVerdictWire, CostFindingWire, CostSummaryData } from '../../../../src/query/index.js';

/** The findings, the costliest first (ties by their text, so the order is stable across refreshes). */
export function sortedFindings(s: CostSummaryData): readonly CostFindingWire[] {
  return [...s.findings].sort((a, b) => b.dollarsPerDay - a.dollarsPerDay || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
}

/** The verdicts by component, then replica. */
export function sortedVerdicts(s: CostSummaryData): readonly BoundVerdictWire[] {
  const key = (v: BoundVerdictWire): string => `${v.component}\u0000${v.replica}`;
  return [...s.verdicts].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** The components, the most expensive first. */
export function sortedComponents(s: CostSummaryData): CostSummaryData['components'] {
  return [...s.components].sort((a, b) => b.dollarsPerHour - a.dollarsPerHour || (a.component < b.component ? -1 : 1));
}

/** The summary's fleet total per hour: what the components cost. */
export function totalPerHour(s: CostSummaryData): number {
  return s.components.reduce((n, c) => n + c.dollarsPerHour, 0);
}
