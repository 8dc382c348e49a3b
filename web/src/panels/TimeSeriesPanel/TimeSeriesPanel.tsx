/**
 * A time-series panel: the panel's range queries drawn with uPlot, a legend that hides series on
 * click, the dashboard's annotations, the panel's threshold band, dashed reference lines, a second
 * axis for a query in another unit (an efficiency ratio next to tokens/s), and the panel's tabs.
 */
import { memo, useCallback, useMemo, useState, type ReactNode } from 'react';
import type { Panel } from '../../../../src/dashboards/types.js';
import { formatValue } from '../../format/units.js';
import { SegmentedControl } from '../../components/SegmentedControl/SegmentedControl.js';
import { seriesColor } from '../../theme/palette.js';
import { useTheme } from '../../theme/theme-store.js';
import { buildPanelQueries, panelFollowsSelection, panelUsesQuantile, resolveBand } from '../model/panel-queries.js';
import { alignRangeResults, seriesStats, type AlignedSeries, type SeriesData } from '../model/series.js';
import { PanelBadges } from '../PanelBadges/PanelBadges.js';
import { PanelFrame } from '../PanelFrame/PanelFrame.js';
import { frameState } from '../PanelFrame/frame-state.js';
import type { PanelEnv } from '../panel-env.js';
import { usePanelData } from '../use-panel-data.js';
import { UPlotChart } from './UPlotChart.js';
import './TimeSeriesPanel.css';

/** Series drawn at most; the rest are counted in the legend (1,000 per-instance lines help nobody). */
export const MAX_DRAWN_SERIES = 60;

/** Props of `TimeSeriesPanel`. */
export interface TimeSeriesPanelProps {
  readonly panel: Panel;
  readonly env: PanelEnv;
  readonly heightPx: number;
}

/** The panel. */
export const TimeSeriesPanel = memo(function TimeSeriesPanel({ panel, env, heightPx }: TimeSeriesPanelProps): ReactNode {
  const theme = useTheme();
  const queries = useMemo(() => buildPanelQueries(panel, env.ctx), [panel, env.ctx]);
  const data = usePanelData(queries, env.ctx.window);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const toggleSeries = useCallback((key: string) => setHidden((prev) => toggled(prev, key)), []);

  const { aligned, dropped } = useMemo(() => {
    if (data.answers === undefined || data.window === undefined) return { aligned: undefined, dropped: 0 };
    const all = alignRangeResults(
      data.answers.map((a) => ({ query: a.query, series: a.range ?? [] })),
      data.window,
    );
    return capSeries(all, MAX_DRAWN_SERIES);
  }, [data.answers, data.window]);

  const colors = useMemo(() => (aligned === undefined ? [] : assignColors(aligned.series, theme)), [aligned, theme]);
  const band = useMemo(() => resolveBand(panel, env.ctx.values), [panel, env.ctx.values]);
  const bandLabel = band === undefined ? undefined : `${band.label} ${formatValue(band.from, panel.unit, { bare: true })}–${formatValue(band.to, panel.unit)}`;
  const activeTab = env.ctx.tabs[panel.id] ?? panel.tabs?.[0]?.id;
  const legendHeight = 44;
  const chartHeight = Math.max(110, heightPx - 44 - legendHeight - 18);

  return (
    <PanelFrame
      panel={panel}
      {...frameState(data, queries)}
      hasData={aligned !== undefined}
      warnings={data.warnings}
      style={{ height: heightPx }}
      badges={
        <PanelBadges
          quantile={panelUsesQuantile(panel, env.ctx.dashboard) ? env.ctx.quantile : undefined}
          fleetWide={env.ctx.selection.length > 0 && !panelFollowsSelection(panel, env.ctx.dashboard)}
        />
      }
      actions={
        panel.tabs !== undefined && panel.tabs.length > 1 && activeTab !== undefined ? (
          <SegmentedControl
            tabs
            ariaLabel={`${panel.title} view`}
            options={panel.tabs.map((t) => ({ value: t.id, label: t.title }))}
            value={activeTab}
            onChange={(v) => env.setTab(panel.id, v)}
            testId={`tabs-${panel.id}`}
          />
        ) : undefined
      }
    >
      {aligned !== undefined && (
        <>
          <UPlotChart
            data={aligned}
            unit={panel.unit}
            height={chartHeight}
            colors={colors}
            hidden={hidden}
            band={band}
            bandLabel={bandLabel}
            thresholds={panel.thresholds}
            annotations={env.annotations}
            onZoom={env.zoom}
            ariaLabel={`${panel.title}: ${aligned.series.map((s) => s.label).join(', ')}`}
          />
          <ChartLegend
            series={aligned.series}
            colors={colors}
            hidden={hidden}
            dropped={dropped}
            unit={panel.unit}
            onToggle={toggleSeries}
          />
        </>
      )}
    </PanelFrame>
  );
});

/** `set` with `key` added or removed. */
export function toggled(set: ReadonlySet<string>, key: string): Set<string> {
  const next = new Set(set);
  if (next.has(key)) next.delete(key);
  else next.add(key);
  return next;
}

/** Keeps the `max` series with the largest peaks (in their original order). */
export function capSeries(all: AlignedSeries, max: number): { aligned: AlignedSeries; dropped: number } {
  if (all.series.length <= max) return { aligned: all, dropped: 0 };
  const ranked = all.series
    .map((s, i) => ({ i, peak: s.reference ? Number.POSITIVE_INFINITY : seriesStats(s.values).max }))
    .sort((a, b) => (Number.isNaN(b.peak) ? -1 : b.peak) - (Number.isNaN(a.peak) ? -1 : a.peak))
    .slice(0, max)
    .map((x) => x.i)
    .sort((a, b) => a - b);
  return { aligned: { xs: all.xs, series: ranked.map((i) => all.series[i]) }, dropped: all.series.length - max };
}

/**
 * Colours by position, engines by their own colour; a reference series takes the colour of the
 * data series with the same labels (the benchmark line of a component matches its throughput).
 */
export function assignColors(series: readonly SeriesData[], theme: 'dark' | 'light'): string[] {
  const byLabels = new Map<string, string>();
  let next = 0;
  return series.map((s) => {
    const lk = JSON.stringify(s.labels);
    if (s.reference && byLabels.has(lk)) return byLabels.get(lk)!;
    const c = seriesColor(theme, next++, s.labels);
    if (!byLabels.has(lk)) byLabels.set(lk, c);
    return c;
  });
}

const LEGEND_LIMIT = 10;

/** The legend under a chart: click an entry to hide or show its series. */
export const ChartLegend = memo(function ChartLegend(p: {
  series: readonly SeriesData[];
  colors: readonly string[];
  hidden: ReadonlySet<string>;
  dropped: number;
  unit: Panel['unit'];
  onToggle: (key: string) => void;
}): ReactNode {
  const [expanded, setExpanded] = useState(false);
  const shown = expanded ? p.series : p.series.slice(0, LEGEND_LIMIT);
  const lasts = useMemo(() => shown.map((s) => seriesStats(s.values).last), [shown]);
  const more = p.series.length - shown.length;
  return (
    <div className="chart-legend" role="list" aria-label="Series">
      {shown.map((s, i) => {
        const last = lasts[i];
        const off = p.hidden.has(s.key);
        return (
          <button
            key={s.key}
            type="button"
            role="listitem"
            className={`legend-item${off ? ' off' : ''}`}
            aria-pressed={!off}
            title={`${s.label}${s.reference ? ' (reference)' : ''}: click to ${off ? 'show' : 'hide'}`}
            onClick={() => p.onToggle(s.key)}
          >
            <span className={`swatch${s.reference ? ' dashed' : ''}`} style={{ borderColor: p.colors[i] }} aria-hidden="true" />
            <span className="legend-label">{s.label}</span>
            <span className="legend-value num">{formatValue(last, s.unit)}</span>
          </button>
        );
      })}
      {more > 0 && (
        <button type="button" className="legend-more" onClick={() => setExpanded(true)}>
          +{more} more
        </button>
      )}
      {p.dropped > 0 && <span className="legend-more muted">{p.dropped} smaller series not drawn</span>}
    </div>
  );
});
