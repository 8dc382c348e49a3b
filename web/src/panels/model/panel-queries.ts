/**
 * The panel model: which PromQL a panel runs for the page's state. Pure functions from a
 * dashboard definition, the variable values, the hex-grid selection, the quantile, the panel's
 * tab and the query window to interpolated queries; the panels only fetch and draw them.
 * Interpolation itself is src/dashboards' `interpolate`, the same code the dashboards' own tests
 * and the Grafana export rely on.
 *
 * The hex-grid selection is a list of values of the current view's label (instances, replicas or
 * endpoints). It narrows the other panels through the grid's `filterVariable` (`instance`): the
 * instances the selected cells cover (src/dashboards/types.ts, HexGridOptions).
 */
import type { Band, Dashboard, Panel, PanelQuery, Threshold, Unit } from '../../../../src/dashboards/types.js';
import { builtinIntervals, interpolate, resolveBand as resolveBandDef } from '../../../../src/dashboards/index.js';
import type { QueryWindow } from './step.js';

/** Selected values per variable (an empty list or a missing entry of a label variable is "all"). */
export type VariableValues = Readonly<Record<string, readonly string[]>>;

/** A value no label has: an empty intersection of filters must match nothing, not everything. */
export const NO_MATCH = '__infersight_no_match__';

/** Everything besides the panel that decides its queries. */
export interface PanelContext {
  readonly dashboard: Dashboard;
  /** Selected values per variable, from the URL (missing: the variable's default). */
  readonly values: VariableValues;
  /** Hex-grid selection: values of the label of `hexView`. */
  readonly selection: readonly string[];
  /** The hex-grid view (a key of `HexGridOptions.views`). */
  readonly hexView: string;
  /**
   * The instances the selection covers (`selectionInstances`); undefined while unknown (a replica
   * or endpoint selection before the grid's cells have loaded), which leaves the panels unfiltered.
   */
  readonly selectionFilter?: readonly string[];
  /** The latency quantile (`0.99`), written into the quantile variable. */
  readonly quantile: string;
  /** Panel id → tab id. */
  readonly tabs: Readonly<Record<string, string>>;
  readonly window: QueryWindow;
  /** Length of the whole time range (for `$__range`); default end − start of `window`. */
  readonly rangeMs?: number;
  readonly scrapeIntervalMs?: number;
}

/** One query, ready to send. */
export interface BuiltQuery {
  readonly refId: string;
  /** Interpolated PromQL. */
  readonly expr: string;
  readonly legend: string;
  readonly title: string;
  /** The query's unit (its own, else the panel's). */
  readonly unit: Unit;
  /** The query's colour steps (its own, else the panel's). */
  readonly thresholds?: readonly Threshold[];
  readonly reference: boolean;
  /** Evaluated at the end of the window rather than over it. */
  readonly instant: boolean;
}

/** The name of the variable the quantile toggle sets: `quantile`, or a custom variable whose options are all in (0, 1). */
export function quantileVariable(d: Dashboard): string {
  const named = d.variables.find((v) => v.name === 'quantile');
  if (named !== undefined) return named.name;
  const custom = d.variables.find(
    (v) => v.kind === 'custom' && v.options !== undefined && v.options.length > 0 && v.options.every((o) => Number(o.value) > 0 && Number(o.value) < 1),
  );
  return custom?.name ?? 'quantile';
}

/** The dashboard's hex-grid panel, if it has one. */
export function hexGridPanel(d: Dashboard): Panel | undefined {
  for (const row of d.rows) for (const p of row.panels) if (p.viz === 'hexgrid' && p.hexgrid !== undefined) return p;
  return undefined;
}

/** The label a hex-grid view names cells by (`views[view]`), defaulting to the first view. */
export function viewLabel(d: Dashboard, view: string): string {
  const views = hexGridPanel(d)?.hexgrid?.views ?? { instance: 'instance' };
  return views[view] ?? Object.values(views)[0] ?? 'instance';
}

/** The label the grid's fields and its filter variable use (`HexGridOptions.joinOn`, default `instance`). */
export function instanceLabel(d: Dashboard): string {
  return hexGridPanel(d)?.hexgrid?.joinOn ?? 'instance';
}

/** The variable a hex-grid selection sets (the grid's `filterVariable`). */
export function selectionVariable(d: Dashboard): string | undefined {
  return hexGridPanel(d)?.hexgrid?.filterVariable;
}

/**
 * The instances a selection covers: the selection itself in a view named by the instance label,
 * else the instances of the selected cells (`cellInstances`: view value → instances), or
 * undefined when those are not known yet.
 */
export function selectionInstances(
  d: Dashboard,
  view: string,
  selection: readonly string[],
  cellInstances: ReadonlyMap<string, readonly string[]> | undefined,
): readonly string[] | undefined {
  if (selection.length === 0) return [];
  if (viewLabel(d, view) === instanceLabel(d)) return selection;
  if (cellInstances === undefined) return undefined;
  const out = new Set<string>();
  for (const v of selection) for (const i of cellInstances.get(v) ?? []) out.add(i);
  return out.size === 0 ? [NO_MATCH] : [...out].sort();
}

/**
 * The values a panel's queries see: the URL's selections, defaults for custom and text
 * variables, the quantile, and the selection's instances in the filter variable (intersected with
 * any value the URL gives that variable). The hex grid itself ignores the selection, so that the
 * unselected cells stay visible.
 */
export function effectiveValues(panel: Panel, ctx: PanelContext): VariableValues {
  const out: Record<string, readonly string[]> = {};
  for (const v of ctx.dashboard.variables) {
    const chosen = ctx.values[v.name];
    if (chosen !== undefined && chosen.length > 0) out[v.name] = chosen;
    else if (v.kind !== 'labelValues' && v.default !== undefined) out[v.name] = [v.default];
    else out[v.name] = [];
  }
  out[quantileVariable(ctx.dashboard)] = [ctx.quantile];
  const filterVar = selectionVariable(ctx.dashboard);
  if (filterVar === undefined) return out;
  if (panel.viz === 'hexgrid') {
    if (ctx.dashboard.variables.find((v) => v.name === filterVar)?.hidden === true) out[filterVar] = [];
    return out;
  }
  const instances = ctx.selectionFilter ?? (ctx.selection.length > 0 ? selectionInstances(ctx.dashboard, ctx.hexView, ctx.selection, undefined) : []);
  if (instances !== undefined && instances.length > 0) {
    const prior = out[filterVar] ?? [];
    const narrowed = prior.length === 0 ? instances : instances.filter((s) => prior.includes(s));
    out[filterVar] = narrowed.length === 0 ? [NO_MATCH] : narrowed;
  }
  return out;
}

/** The queries of the panel's selected tab (the first tab when none is selected), or its `queries`. */
export function panelQuerySource(panel: Panel, tabId: string | undefined): readonly PanelQuery[] {
  if (panel.tabs === undefined || panel.tabs.length === 0) return panel.queries;
  return (panel.tabs.find((t) => t.id === tabId) ?? panel.tabs[0]).queries;
}

/** Builds the interpolated queries of `panel` for `ctx`. */
export function buildPanelQueries(panel: Panel, ctx: PanelContext): BuiltQuery[] {
  const values = effectiveValues(panel, ctx);
  const opts = {
    variables: ctx.dashboard.variables,
    ...builtinIntervals({
      rangeMs: ctx.rangeMs ?? Math.max(1000, ctx.window.endMs - ctx.window.startMs),
      stepMs: ctx.window.stepMs,
      scrapeIntervalMs: ctx.scrapeIntervalMs,
    }),
  };
  const stat = panel.viz === 'stat' || panel.viz === 'table' || panel.viz === 'hexgrid';
  return panelQuerySource(panel, ctx.tabs[panel.id]).map((q) => {
    const thresholds = q.thresholds ?? panel.thresholds;
    return {
      refId: q.refId,
      expr: interpolate(q.expr, values, opts),
      legend: q.legend ?? '',
      title: q.title ?? q.legend ?? q.refId,
      unit: q.unit ?? panel.unit,
      ...(thresholds === undefined ? {} : { thresholds }),
      reference: q.reference === true,
      instant: q.instant ?? stat,
    };
  });
}

/** The names of the variables `expr` refers to (Grafana's `$__` built-ins left out). */
export function referencedVariables(expr: string): Set<string> {
  const out = new Set<string>();
  for (const m of expr.matchAll(/\$\{(\w+)\}|\$(\w+)/g)) {
    const name = m[1] ?? m[2];
    if (!name.startsWith('__')) out.add(name);
  }
  return out;
}

function allQueries(panel: Panel): readonly PanelQuery[] {
  return [...panel.queries, ...(panel.tabs ?? []).flatMap((t) => t.queries)];
}

/** Whether the hex-grid selection narrows this panel (its queries use the filter variable). */
export function panelFollowsSelection(panel: Panel, d: Dashboard): boolean {
  if (panel.viz === 'hexgrid') return true;
  const v = selectionVariable(d);
  return v !== undefined && allQueries(panel).some((q) => referencedVariables(q.expr).has(v));
}

/** Whether any query of the panel uses the quantile variable (such panels show the quantile badge). */
export function panelUsesQuantile(panel: Panel, d: Dashboard): boolean {
  const v = quantileVariable(d);
  return allQueries(panel).some((q) => referencedVariables(q.expr).has(v));
}

/**
 * The panel's band with its variable's value from the URL applied (src/dashboards' `resolveBand`:
 * `40-50` is percent on a ratio panel); the band's own from/to when unset or unparsable.
 */
export function resolveBand(panel: Panel, values: VariableValues): Band | undefined {
  const name = panel.band?.variable;
  const text = name === undefined ? undefined : values[name]?.[0];
  return resolveBandDef(panel, name === undefined || text === undefined ? {} : { [name]: text });
}
