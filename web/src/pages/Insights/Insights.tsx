/**
 * Insights, the home page: the Insights dashboard rendered from its definition. The page holds
 * the query context (variables, selection, quantile, tabs, window) and the callbacks that change
 * it through the URL; every panel fetches its own queries in parallel and renders as soon as
 * they arrive, so a slow panel never holds up the others.
 */
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { Dashboard, Panel as PanelDef } from '../../../../src/dashboards/types.js';
import type { ActiveAlert } from '../../../../src/query/index.js';
import { api } from '../../api/api-client.js';
import { useApiResource } from '../../api/use-api-resource.js';
import { useLabelValues } from '../../api/use-label-values.js';
import { SegmentedControl } from '../../components/SegmentedControl/SegmentedControl.js';
import { VariableBar } from '../../components/VariableBar/VariableBar.js';
import { InsightBanner } from '../Diagnosis/InsightBanner.js';
import { dashboardById } from '../../../../src/dashboards/index.js';
import { formatDurationMs, parseDurationMs } from '../../format/units.js';
import { annotationEvents, type AnnotationEvent } from '../../panels/model/annotations.js';
import { buildPanelQueries, hexGridPanel, quantileVariable, selectionInstances, type PanelContext } from '../../panels/model/panel-queries.js';
import { DEFAULT_SCRAPE_INTERVAL_MS, MAX_POINTS, queryWindow } from '../../panels/model/step.js';
import { quantileLabel } from '../../panels/PanelBadges/PanelBadges.js';
import { Panel } from '../../panels/Panel/Panel.js';
import { toggled } from '../../panels/TimeSeriesPanel/TimeSeriesPanel.js';
import type { PanelEnv, SelectMode } from '../../panels/panel-env.js';
import { usePanelData } from '../../panels/use-panel-data.js';
import { useNow } from '../../state/refresh.js';
import { rangeDurationMs, resolveRange } from '../../state/time-range.js';
import { currentUrlState, updateUrlState } from '../../state/url-store.js';
import type { UrlState } from '../../state/url-state.js';
import './Insights.css';

const DASHBOARD_ID = 'insights';
const NO_EVENTS: readonly AnnotationEvent[] = [];
const NO_VALUES: readonly string[] = [];
const NO_ALERTS: readonly ActiveAlert[] = [];

/** The active alerts for the hex grid; none when the server has no rules API or the call fails (the grid still works). */
function useActiveAlerts(): readonly ActiveAlert[] {
  const res = useApiResource('alerts', async (signal) => (await api().rules.alerts({ signal })).data.alerts);
  return res?.value ?? NO_ALERTS;
}

/**
 * Points per series for the page's range queries, like Grafana's maxDataPoints (the panel's width
 * in pixels): most panels are half the page wide, so half the viewport, within [300, MAX_POINTS].
 * Fewer points are less work for the server on a big fleet and look the same.
 */
export function pagePointBudget(viewportWidth = typeof window === 'undefined' ? 1440 : window.innerWidth): number {
  return Math.min(MAX_POINTS, Math.max(300, Math.round(viewportWidth / 2)));
}

/** `record` with `key` set to `value`, or without `key` when `value` is undefined. */
export function withEntry<T>(record: Readonly<Record<string, T>>, key: string, value: T | undefined): Record<string, T> {
  const out = Object.fromEntries(Object.entries(record).filter(([k]) => k !== key));
  if (value !== undefined) out[key] = value;
  return out;
}

/** Selection change rules: replace (a second click on the only selected cell clears), toggle, clear. */
export function nextSelection(current: readonly string[], value: string | undefined, mode: SelectMode): string[] {
  if (mode === 'clear' || value === undefined) return [];
  if (mode === 'toggle') return current.includes(value) ? current.filter((v) => v !== value) : [...current, value];
  return current.length === 1 && current[0] === value ? [] : [value];
}

/** The page. */
export function InsightsPage({ state }: { state: UrlState }): ReactNode {
  const dashboard = dashboardById(DASHBOARD_ID);
  if (dashboard === undefined) {
    return (
      <div className="page-error" role="alert">
        No dashboard <span className="mono">{DASHBOARD_ID}</span> in src/dashboards.
      </div>
    );
  }
  return <DashboardView dashboard={dashboard} state={state} />;
}

function sameInstances(a: ReadonlyMap<string, readonly string[]> | undefined, b: ReadonlyMap<string, readonly string[]>): boolean {
  if (a === undefined || a.size !== b.size) return false;
  for (const [k, v] of b) {
    const w = a.get(k);
    if (w === undefined || w.length !== v.length || w.some((x, i) => x !== v[i])) return false;
  }
  return true;
}

/**
 * A dashboard rendered from its definition with the page's machinery (variables bar, annotation
 * toggles, quantile, selection, rows of panels); `banner` goes above the toolbar (Insights' open
 * insights by default), `header` above the rows (the Cost page's summary) and `children` below
 * them (the Quality page's sample browser).
 */
export function DashboardView({ dashboard, state, banner = <InsightBanner />, header, children }: { dashboard: Dashboard; state: UrlState; banner?: ReactNode; header?: ReactNode; children?: ReactNode }): ReactNode {
  const rangeKey = JSON.stringify(state.range);
  const nowMs = useNow(rangeKey);
  const resolved = resolveRange(state.range, nowMs);
  const window = useMemo(() => queryWindow(resolved.startMs, resolved.endMs, { maxPoints: pagePointBudget(), minStepMs: DEFAULT_SCRAPE_INTERVAL_MS }), [resolved.startMs, resolved.endMs]);
  const grid = hexGridPanel(dashboard);
  const [cellInstances, setCellInstances] = useState<ReadonlyMap<string, readonly string[]> | undefined>(undefined);
  const reportCells = useCallback((m: ReadonlyMap<string, readonly string[]>) => setCellInstances((prev) => (sameInstances(prev, m) ? prev : m)), []);
  const selectionFilter = useMemo(
    () => selectionInstances(dashboard, state.hexView, state.selection, cellInstances),
    [dashboard, state.hexView, state.selection, cellInstances],
  );

  const ctx: PanelContext = useMemo(
    () => ({
      dashboard,
      values: state.vars,
      selection: state.selection,
      hexView: state.hexView,
      ...(selectionFilter === undefined ? {} : { selectionFilter }),
      quantile: state.quantile,
      tabs: state.tabs,
      window,
      rangeMs: rangeDurationMs(state.range),
    }),
    [dashboard, state.vars, state.selection, state.hexView, selectionFilter, state.quantile, state.tabs, window, state.range],
  );

  // Annotations: one range query per annotation, through the same machinery as a panel.
  const annotationPanel = useMemo<PanelDef>(
    () => ({
      id: '__annotations',
      title: 'Annotations',
      description: '',
      viz: 'timeseries',
      unit: 'none',
      queries: dashboard.annotations.map((a) => ({ refId: a.id, expr: a.expr })),
      width: 24,
      height: 1,
    }),
    [dashboard],
  );
  // Annotations run at their own largest step (default 1m) when the panels' step is coarser.
  const annotationWindow = useMemo(() => {
    const steps = dashboard.annotations.map((a) => parseDurationMs(a.step ?? '1m') ?? 60_000);
    const stepMs = Math.min(window.stepMs, ...steps);
    return stepMs >= window.stepMs ? window : queryWindow(resolved.startMs, resolved.endMs, { minStepMs: stepMs, maxPoints: Math.ceil((resolved.endMs - resolved.startMs) / stepMs) + 1 });
  }, [dashboard, window, resolved.startMs, resolved.endMs]);
  const annotationCtx = useMemo(() => ({ ...ctx, window: annotationWindow }), [ctx, annotationWindow]);
  const annotationQueries = useMemo(() => buildPanelQueries(annotationPanel, annotationCtx), [annotationPanel, annotationCtx]);
  const annotationData = usePanelData(annotationQueries, annotationWindow, dashboard.annotations.length > 0);
  const [hiddenAnnotations, setHiddenAnnotations] = useState<ReadonlySet<string>>(new Set());
  const allAnnotations = useMemo(() => {
    if (annotationData.answers === undefined || annotationData.window === undefined) return NO_EVENTS;
    const step = annotationData.window.stepMs;
    return annotationData.answers.flatMap((a) => {
      const def = dashboard.annotations.find((x) => x.id === a.query.refId);
      return def === undefined ? [] : annotationEvents(def, a.range ?? [], step);
    });
  }, [annotationData.answers, annotationData.window, dashboard]);
  const annotations = useMemo(
    () => (hiddenAnnotations.size === 0 ? allAnnotations : allAnnotations.filter((e) => !hiddenAnnotations.has(e.annotationId))),
    [allAnnotations, hiddenAnnotations],
  );

  const alerts = useActiveAlerts();
  const azVar = dashboard.variables.find((v) => v.name === 'az');
  const azValues = useLabelValues(azVar?.metric, azVar?.labelName ?? 'az', window.startMs, window.endMs).values ?? NO_VALUES;

  const select = useCallback((value: string | undefined, mode: SelectMode, view?: string) => {
    const s = currentUrlState().state;
    if (view !== undefined && view !== s.hexView) {
      updateUrlState({ hexView: view, selection: value === undefined ? [] : [value] }, { push: true });
      return;
    }
    updateUrlState({ selection: nextSelection(s.selection, value, mode) }, { push: true });
  }, []);
  const setVariable = useCallback((name: string, values: readonly string[]) => {
    updateUrlState((s) => ({ vars: withEntry(s.vars, name, values.length === 0 ? undefined : [...values]) }));
  }, []);
  const setHexView = useCallback((hexView: string) => updateUrlState({ hexView, selection: [] }), []);
  const setTab = useCallback((panelId: string, tabId: string) => updateUrlState((s) => ({ tabs: { ...s.tabs, [panelId]: tabId } })), []);
  const setThresholds = useCallback(
    (refId: string, limits: readonly number[] | undefined) =>
      updateUrlState((s) => ({ thresholds: withEntry(s.thresholds, refId, limits) })),
    [],
  );
  const zoom = useCallback((fromMs: number, toMs: number) => updateUrlState({ range: { kind: 'absolute', fromMs, toMs } }, { push: true }), []);

  const env: PanelEnv = useMemo(
    () => ({ ctx, annotations, alerts, knownAzs: azValues, thresholds: state.thresholds, select, setVariable, setHexView, setTab, setThresholds, zoom, reportCells }),
    [ctx, annotations, alerts, azValues, state.thresholds, select, setVariable, setHexView, setTab, setThresholds, zoom, reportCells],
  );

  // Escape clears the selection from anywhere on the page (the grid handles it when focused).
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      const t = e.target as HTMLElement | null;
      if (e.key !== 'Escape' || e.defaultPrevented || t?.closest('input, textarea, select, .popover, .cm-editor') != null) return;
      if (currentUrlState().state.selection.length > 0) select(undefined, 'clear');
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [select]);

  const qVar = dashboard.variables.find((v) => v.name === quantileVariable(dashboard));
  const quantileOptions = qVar?.options ?? [
    { value: '0.5', text: 'P50' },
    { value: '0.9', text: 'P90' },
    { value: '0.99', text: 'P99' },
  ];

  return (
    <main className="insights" aria-label={dashboard.title}>
      {banner}
      <div className="insights-toolbar">
        <VariableBar dashboard={dashboard} values={state.vars} startMs={window.startMs} endMs={window.endMs} onChange={setVariable} />
        <div className="toolbar-spacer" />
        {dashboard.annotations.length > 0 && (
          <div className="toolbar-group annotation-toggles" role="group" aria-label="Annotations" data-testid="annotation-toggles">
            {dashboard.annotations.map((a) => {
              const n = allAnnotations.filter((e) => e.annotationId === a.id).length;
              const on = !hiddenAnnotations.has(a.id);
              return (
                <button
                  key={a.id}
                  type="button"
                  className="btn small ghost annotation-toggle"
                  aria-pressed={on}
                  title={`${on ? 'Hide' : 'Show'} ${a.title.toLowerCase()} on the time series`}
                  onClick={() => setHiddenAnnotations((prev) => toggled(prev, a.id))}
                >
                  <span className="event-flag" style={{ borderTopColor: on ? a.color : 'var(--fg-faint)' }} aria-hidden="true" />
                  {a.title}
                  <span className="num muted">{n}</span>
                </button>
              );
            })}
          </div>
        )}
        <div className="toolbar-group">
          <span className="toolbar-label" id="quantile-label">
            Latency quantile
          </span>
          <SegmentedControl
            ariaLabel="Latency quantile"
            testId="quantile-toggle"
            options={quantileOptions.map((o) => ({ value: o.value, label: o.text || quantileLabel(o.value) }))}
            value={state.quantile}
            onChange={(quantile) => updateUrlState({ quantile })}
          />
        </div>
      </div>
      {state.selection.length > 0 && grid !== undefined && (
        <div className="selection-banner" role="status">
          Filtered to {state.selection.length === 1 ? '' : `${state.selection.length} `}
          {state.hexView}
          {state.selection.length === 1 ? '' : 's'}{' '}
          {state.selection.map((s) => (
            <button key={s} type="button" className="chip removable" onClick={() => select(s, 'toggle')} aria-label={`Remove ${s} from the filter`}>
              {s} <span aria-hidden="true">×</span>
            </button>
          ))}
          <button type="button" className="btn small ghost" onClick={() => select(undefined, 'clear')}>
            Clear filter
          </button>
        </div>
      )}
      {header}
      {dashboard.rows.map((row) => (
        <section key={row.id} className="dash-row" aria-labelledby={`row-${row.id}`}>
          <h2 id={`row-${row.id}`} className={`row-title${row.id === 'summary' ? ' visually-hidden' : ''}`}>
            {row.title}
          </h2>
          <div className="dash-grid">
            {row.panels.map((p) => (
              <div key={p.id} className={`dash-cell ${p.width >= 16 ? 'w-l' : p.width > 6 ? 'w-m' : 'w-s'}${p.viz === 'timeseries' || p.viz === 'heatmap' ? ' offscreen-lazy' : ''}`} style={{ gridColumn: `span ${Math.min(24, Math.max(1, p.width))}` }}>
                <Panel panel={p} env={env} />
              </div>
            ))}
          </div>
        </section>
      ))}
      {children}
      <footer className="insights-footer muted">
        {dashboard.title} · step {formatDurationMs(window.stepMs)} · drag across a chart to zoom
      </footer>
    </main>
  );
}
