/**
 * Explore: a PromQL editor with autocompletion from this server, the result as a graph (uPlot)
 * or a table (instant query at the end of the range), and the catalog's documentation of the
 * metrics in the query beside it. Query, range and tab live in the URL, so a link reproduces the
 * view.
 */
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { layoutLabels } from '../../../../src/dashboards/index.js';
import { AREA_TITLES, CATALOG, type MetricDef } from '../../../../src/semconv/index.js';
import { formatDurationMs, formatValue } from '../../format/units.js';
import { SegmentedControl } from '../../components/SegmentedControl/SegmentedControl.js';
import type { BuiltQuery } from '../../panels/model/panel-queries.js';
import { alignRangeResults, formatLegend } from '../../panels/model/series.js';
import { queryWindow } from '../../panels/model/step.js';
import { assignColors, capSeries, ChartLegend, toggled } from '../../panels/TimeSeriesPanel/TimeSeriesPanel.js';
import { UPlotChart } from '../../panels/TimeSeriesPanel/UPlotChart.js';
import { usePanelData } from '../../panels/use-panel-data.js';
import { refreshNow, useNow } from '../../state/refresh.js';
import { resolveRange } from '../../state/time-range.js';
import { updateUrlState } from '../../state/url-store.js';
import type { ExploreTab, UrlState } from '../../state/url-state.js';
import { useTheme } from '../../theme/theme-store.js';
import { guessUnit, metricAt, metricsInQuery, catalogEntryFor } from './metric-docs.js';
import { PromqlEditor } from './PromqlEditor.js';
import './Explore.css';

const MAX_SERIES = 200;
const MAX_ROWS = 1000;

/** The page. */
export function ExplorePage({ state }: { state: UrlState }): ReactNode {
  const [text, setText] = useState(state.expr);
  const [cursor, setCursor] = useState(0);
  useEffect(() => setText(state.expr), [state.expr]);
  const nowMs = useNow(JSON.stringify(state.range));
  const r = resolveRange(state.range, nowMs);
  const window = useMemo(() => queryWindow(r.startMs, r.endMs), [r.startMs, r.endMs]);
  const unit = useMemo(() => guessUnit(state.expr), [state.expr]);
  const queries = useMemo<BuiltQuery[]>(
    () => (state.expr === '' ? [] : [{ refId: 'A', expr: state.expr, legend: '', title: 'A', unit, reference: false, instant: state.exploreTab === 'table' }]),
    [state.expr, state.exploreTab, unit],
  );
  const data = usePanelData(queries, window, state.expr !== '');
  const run = (t: string): void => {
    const expr = t.trim();
    if (expr === state.expr) refreshNow();
    else updateUrlState({ expr }, { push: true });
  };
  const docs = useMemo(() => metricsInQuery(text), [text]);
  const underCursor = metricAt(text, cursor);
  const status = state.expr === '' ? 'empty' : data.status;

  return (
    <main className="explore" aria-label="Explore">
      <div className="explore-main">
        <section className="explore-query" aria-label="Query">
          <PromqlEditor value={text} onChange={setText} onRun={run} onCursor={setCursor} url={typeof location === 'undefined' ? '' : location.origin} />
          <button type="button" className="btn primary explore-run" onClick={() => run(text)} data-testid="explore-run" aria-label="Run query">
            ▶ Run
          </button>
        </section>
        <div className="explore-bar">
          <SegmentedControl
            tabs
            ariaLabel="Result view"
            testId="explore-tabs"
            options={[
              { value: 'graph', label: 'Graph' },
              { value: 'table', label: 'Table' },
            ]}
            value={state.exploreTab}
            onChange={(t) => updateUrlState({ exploreTab: t as ExploreTab })}
          />
          <span className="muted explore-meta">
            {state.exploreTab === 'graph'
              ? `range query · step ${formatDurationMs(window.stepMs)} · ${Math.floor((window.endMs - window.startMs) / window.stepMs) + 1} points per series`
              : 'instant query at the end of the range'}
          </span>
          <span className="muted explore-hint">
            <kbd>Enter</kbd> run · <kbd>Shift</kbd>+<kbd>Enter</kbd> new line · <kbd>Ctrl</kbd>+<kbd>Space</kbd> complete
          </span>
        </div>
        <section className="explore-result panel" data-testid="explore-result" data-state={status} aria-busy={data.loading && state.expr !== ''} aria-label="Result">
          {data.loading && state.expr !== '' && <div className="progress-line" role="progressbar" aria-label="Running query" />}
          {state.expr === '' ? (
            <div className="panel-state">
              <span className="state-icon" aria-hidden="true">
                ⌕
              </span>
              <div>
                <div className="state-title">Write a query and press Enter</div>
                <div className="state-text">Metric names, labels and values complete from this server. Pick a metric from the catalog on the right to start.</div>
              </div>
            </div>
          ) : data.status === 'error' ? (
            <div className="panel-state error" role="alert">
              <span className="state-icon" aria-hidden="true">
                ✖
              </span>
              <div>
                <div className="state-title">Query failed</div>
                <div className="state-text mono">{data.error}</div>
              </div>
            </div>
          ) : data.status === 'empty' ? (
            <div className="panel-state">
              <span className="state-icon" aria-hidden="true">
                ∅
              </span>
              <div>
                <div className="state-title">Empty result</div>
                <div className="state-text">No series match in this time range. Check the label matchers, or widen the range.</div>
              </div>
            </div>
          ) : data.answers === undefined ? (
            <div className="skeleton" style={{ height: 320 }} />
          ) : state.exploreTab === 'graph' ? (
            <ExploreGraph data={data} unit={unit} />
          ) : (
            <ExploreTable data={data} unit={unit} />
          )}
          {data.warnings.length > 0 && <div className="panel-warning">⚠ {data.warnings.join(' · ')}</div>}
        </section>
      </div>
      <MetricDocs docs={docs} underCursor={underCursor} onPick={(name) => setText(name)} />
    </main>
  );
}

function ExploreGraph({ data, unit }: { data: ReturnType<typeof usePanelData>; unit: BuiltQuery['unit'] }): ReactNode {
  const theme = useTheme();
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const toggleSeries = useCallback((key: string) => setHidden((prev) => toggled(prev, key)), []);
  const { aligned, dropped } = useMemo(() => {
    const all = alignRangeResults(
      (data.answers ?? []).map((a) => ({ query: a.query, series: a.range ?? [] })),
      data.window!,
    );
    return capSeries(all, MAX_SERIES);
  }, [data.answers, data.window]);
  const colors = useMemo(() => assignColors(aligned.series, theme), [aligned, theme]);
  return (
    <div className="explore-graph">
      <UPlotChart data={aligned} unit={unit} height={340} colors={colors} hidden={hidden} ariaLabel={`Query result: ${aligned.series.length} series`} onZoom={(fromMs, toMs) => updateUrlState({ range: { kind: 'absolute', fromMs, toMs } }, { push: true })} />
      <ChartLegend
        series={aligned.series}
        colors={colors}
        hidden={hidden}
        dropped={dropped}
        unit={unit}
        onToggle={toggleSeries}
      />
    </div>
  );
}

function ExploreTable({ data, unit }: { data: ReturnType<typeof usePanelData>; unit: BuiltQuery['unit'] }): ReactNode {
  const samples = data.answers?.[0]?.instant ?? [];
  const rows = samples.slice(0, MAX_ROWS);
  return (
    <div className="table-scroll explore-table-wrap">
      <table className="data-table explore-table">
        <thead>
          <tr>
            <th scope="col">
              <span className="th-static">Series</span>
            </th>
            <th scope="col" className="numeric">
              <span className="th-static">Value</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((s, i) => (
            <tr key={i}>
              <td className="series-td">
                <div className="series-cell">
                {s.metric.__name__ !== undefined && <span className="series-name mono">{s.metric.__name__}</span>}
                {Object.keys(s.metric)
                  .filter((k) => k !== '__name__')
                  .sort()
                  .map((k) => (
                    <span key={k} className="chip" title={`${k}="${s.metric[k]}"`}>
                      {k}=<b>{s.metric[k]}</b>
                    </span>
                  ))}
                {Object.keys(s.metric).length === 0 && <span className="mono muted">{formatLegend('', s.metric)}</span>}
                </div>
              </td>
              <td className="numeric num" title={s.value[1]}>
                {unit === 'none' ? s.value[1] : formatValue(Number(s.value[1]), unit)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {samples.length > MAX_ROWS && <div className="muted explore-more">Showing {MAX_ROWS} of {samples.length} series.</div>}
    </div>
  );
}

function MetricDocs({ docs, underCursor, onPick }: { docs: { name: string; def: MetricDef }[]; underCursor?: string; onPick: (name: string) => void }): ReactNode {
  const [filter, setFilter] = useState('');
  const focused = underCursor === undefined ? undefined : catalogEntryFor(underCursor);
  const shown = focused === undefined ? docs.map((d) => d.def) : [focused, ...docs.map((d) => d.def).filter((d) => d.name !== focused.name)];
  const browse = useMemo(() => {
    const f = filter.trim().toLowerCase();
    return CATALOG.filter((m) => f === '' || m.name.includes(f) || m.help.toLowerCase().includes(f));
  }, [filter]);
  return (
    <aside className="explore-docs" aria-label="Metric documentation" data-testid="metric-docs">
      {shown.length > 0 ? (
        <>
          <h2 className="docs-title">In this query</h2>
          {shown.map((m) => (
            <MetricDoc key={m.name} m={m} active={m.name === focused?.name} />
          ))}
        </>
      ) : (
        <>
          <h2 className="docs-title">Metric catalog</h2>
          <input className="input docs-filter" placeholder={`Search ${CATALOG.length} metrics…`} value={filter} onChange={(e) => setFilter(e.target.value)} aria-label="Search the metric catalog" />
          <ul className="docs-list">
            {browse.slice(0, 80).map((m) => (
              <li key={m.name}>
                <button type="button" className="docs-pick" onClick={() => onPick(m.name)} title={m.help}>
                  <span className="mono">{m.name}</span>
                  <span className={`badge type-${m.type}`}>{m.type}</span>
                </button>
              </li>
            ))}
          </ul>
          {browse.length > 80 && <div className="muted docs-more">{browse.length - 80} more: refine the search</div>}
        </>
      )}
    </aside>
  );
}

function MetricDoc({ m, active }: { m: MetricDef; active: boolean }): ReactNode {
  return (
    <article className={`metric-doc${active ? ' active' : ''}`} data-testid="metric-doc" data-metric={m.name}>
      <h3 className="mono">{m.name}</h3>
      <div className="metric-doc-badges">
        <span className={`badge type-${m.type}`}>{m.type}</span>
        {m.unit !== '' && <span className="badge">{m.unit}</span>}
        <span className="badge">{AREA_TITLES[m.area]}</span>
        {m.stability === 'experimental' && <span className="badge warning">experimental</span>}
      </div>
      <p>{m.help}</p>
      {m.labels.length > 0 && (
        <div className="metric-doc-labels">
          <span className="muted">Labels:</span> {m.labels.map((l) => <span key={l} className="chip">{l}</span>)}
        </div>
      )}
      {m.type === 'histogram' && (
        <p className="muted small-print">
          Series: <span className="mono">{m.name}_bucket</span>, <span className="mono">_sum</span>, <span className="mono">_count</span>. Quantile:{' '}
          <span className="mono">histogram_quantile(0.99, sum by (le, {layoutLabels(m.name)[0]}) (rate({m.name}_bucket[5m])))</span> (per layout source: engines and front doors bucket differently)
        </p>
      )}
    </article>
  );
}
