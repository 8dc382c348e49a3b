/**
 * Public surface of `src/dashboards`: panel and dashboard definitions as data (PromQL with
 * variables), the variable helpers the UI and tests fill queries with, and the Grafana export.
 * Browser-safe: imports only `semconv` (and may import `query` and `model`), no Node builtins.
 */
import { COST } from './cost.js';
import { DRIFT_ANNOTATION, INSIGHTS } from './insights.js';
import { QUALITY } from './quality.js';
import type { Dashboard, Panel, PanelQuery } from './types.js';

export type {
  Annotation,
  Band,
  Dashboard,
  HealthColumn,
  HealthRuleSpec,
  HexGridOptions,
  LifecycleQueries,
  Panel,
  PanelQuery,
  PanelTab,
  Row,
  Threshold,
  Unit,
  Variable,
  Visualization,
} from './types.js';
export {
  ALL,
  builtinIntervals,
  defaultValues,
  formatRegexValue,
  interpolate,
  parseBand,
  promDuration,
  promqlStringEscape,
  regexEscape,
  resolveBand,
  variableSelector,
  type InterpolateOptions,
  type VariableValue,
  type VariableValues,
} from './variables.js';
export { LAYOUT_LABELS, SCOPE_FILTERS, familyName, heatmapBuckets, layoutLabels, quantile, scopeOf, type Scope } from './queries.js';
export { componentsInSelection, ofSelectedComponents } from './selection.js';
export { GRAFANA_SCHEMA_VERSION, grafanaJson, toGrafana, type GrafanaOptions } from './grafana.js';
export { GRAFANA_UNITS } from './grafana-panels.js';
export { COST, DRIFT_ANNOTATION, INSIGHTS, QUALITY };

/** Every built-in dashboard, in menu order. */
export const DASHBOARDS: readonly Dashboard[] = [INSIGHTS, COST, QUALITY];

/** The dashboard with this id, or undefined. */
export function dashboardById(id: string): Dashboard | undefined {
  return DASHBOARDS.find((d) => d.id === id);
}

/** Every panel of a dashboard, row by row. */
export function dashboardPanels(d: Dashboard): Panel[] {
  return d.rows.flatMap((r) => r.panels);
}

/** Every query of a panel: its own and those of each tab. */
export function panelQueries(p: Panel): PanelQuery[] {
  return [...p.queries, ...(p.tabs ?? []).flatMap((t) => t.queries)];
}
