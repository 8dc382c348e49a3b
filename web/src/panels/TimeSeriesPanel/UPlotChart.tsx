/**
 * A uPlot chart that lives as long as the component: new data goes in with `setData`, a changed
 * set of series with `delSeries`/`addSeries`, a theme, band or annotation change is a redraw.
 * Only a change of the y units (a second axis appearing) builds a new instance. The hover
 * tooltip is React, updated at most once per animation frame.
 */
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Band, Threshold, Unit } from '../../../../src/dashboards/types.js';
import { formatDateTime, formatValue } from '../../format/units.js';
import { ANNOTATION_HOVER_MAX, type AnnotationEvent } from '../model/annotations.js';
import type { AlignedSeries } from '../model/series.js';
import { useTheme } from '../../theme/theme-store.js';
import { chartOptions, chartUnits, eventsNear, refreshThemeColors, seriesOptions, type ChartLive } from './uplot-options.js';
import './UPlotChart.css';

/** Props of `UPlotChart`. */
export interface UPlotChartProps {
  readonly data: AlignedSeries;
  readonly unit: Unit;
  readonly height: number;
  /** One colour per series of `data`. */
  readonly colors: readonly string[];
  readonly hidden?: ReadonlySet<string>;
  readonly band?: Band;
  readonly bandLabel?: string;
  readonly thresholds?: readonly Threshold[];
  readonly annotations?: readonly AnnotationEvent[];
  /** Drag-select on the chart: the range to zoom to (Unix ms). */
  readonly onZoom?: (fromMs: number, toMs: number) => void;
  readonly ariaLabel: string;
}

interface Hover {
  readonly idx: number;
  readonly left: number;
  readonly top: number;
  readonly events: readonly AnnotationEvent[];
}

const NO_EVENTS: readonly AnnotationEvent[] = [];

/** The chart. */
export function UPlotChart(p: UPlotChartProps): ReactNode {
  const el = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const keys = useRef<string[]>([]);
  const structure = useRef('');
  const live = useRef<ChartLive>({ annotations: NO_EVENTS, colors: [], fg: '', muted: '', grid: '', bandFill: '', bandEdge: '', warning: '', critical: '' });
  const zoom = useRef(p.onZoom);
  zoom.current = p.onZoom;
  const frame = useRef(0);
  const [hover, setHover] = useState<Hover | null>(null);
  const theme = useTheme();

  live.current.band = p.band;
  live.current.bandLabel = p.bandLabel;
  live.current.thresholds = p.thresholds;
  live.current.annotations = p.annotations ?? NO_EVENTS;
  live.current.colors = [...p.colors];

  // Data and series: create once, then update in place.
  useLayoutEffect(() => {
    const target = el.current;
    if (target === null) return;
    const units = chartUnits(p.unit, p.data.series);
    const struct = JSON.stringify(units);
    const aligned: uPlot.AlignedData = [p.data.xs, ...p.data.series.map((s) => s.values)];
    const newKeys = p.data.series.map((s) => s.key);
    let u = plot.current;
    if (u === null || struct !== structure.current) {
      u?.destroy();
      refreshThemeColors(live.current);
      u = new uPlot(
        chartOptions({
          width: Math.max(100, target.clientWidth),
          height: p.height,
          units,
          series: p.data.series,
          live: live.current,
          onZoom: (from, to) => zoom.current?.(from, to),
          onCursor: (chart) => {
            cancelAnimationFrame(frame.current);
            frame.current = requestAnimationFrame(() => {
              const idx = chart.cursor.idx;
              const left = chart.cursor.left ?? -1;
              if (idx === null || idx === undefined || left < 0) setHover(null);
              else setHover({ idx, left, top: chart.cursor.top ?? 0, events: eventsNear(chart, live.current.annotations, left) });
            });
          },
        }),
        aligned,
        target,
      );
      plot.current = u;
      structure.current = struct;
      keys.current = newKeys;
    } else {
      if (newKeys.length !== keys.current.length || newKeys.some((k, i) => k !== keys.current[i])) {
        for (let i = u.series.length - 1; i >= 1; i--) u.delSeries(i);
        p.data.series.forEach((s, i) => u!.addSeries(seriesOptions(s, i, units, live.current), i + 1));
        keys.current = newKeys;
      }
      u.setData(aligned);
    }
  }, [p.data, p.unit, p.height]);

  // Visibility from the legend.
  useLayoutEffect(() => {
    const u = plot.current;
    if (u === null) return;
    p.data.series.forEach((s, i) => {
      const show = !(p.hidden?.has(s.key) ?? false);
      if (u.series[i + 1] !== undefined && u.series[i + 1].show !== show) u.setSeries(i + 1, { show });
    });
  }, [p.hidden, p.data]);

  // Theme, band, annotations, colours: a redraw.
  useEffect(() => {
    const u = plot.current;
    if (u === null) return;
    refreshThemeColors(live.current);
    u.redraw(false);
  }, [theme, p.band, p.bandLabel, p.thresholds, p.annotations, p.colors]);

  // Size follows the container.
  useEffect(() => {
    const target = el.current;
    if (target === null) return undefined;
    const ro = new ResizeObserver(() => {
      const u = plot.current;
      const w = Math.max(100, target.clientWidth);
      if (u !== null && (u.width !== w || u.height !== p.height)) u.setSize({ width: w, height: p.height });
    });
    ro.observe(target);
    return () => ro.disconnect();
  }, [p.height]);

  useEffect(
    () => () => {
      cancelAnimationFrame(frame.current);
      plot.current?.destroy();
      plot.current = null;
    },
    [],
  );

  return (
    <div className="uplot-wrap" role="img" aria-label={p.ariaLabel} onMouseLeave={() => setHover(null)}>
      <div ref={el} className="uplot-host" style={{ height: p.height }} />
      {hover !== null && plot.current !== null && <ChartTooltip u={plot.current} hover={hover} {...p} />}
    </div>
  );
}

function ChartTooltip({ u, hover, data, colors, hidden, unit }: UPlotChartProps & { u: uPlot; hover: Hover }): ReactNode {
  const t = data.xs[hover.idx];
  if (t === undefined) return null;
  const rows = data.series
    .map((s, i) => ({ s, i, v: s.values[hover.idx] }))
    .filter((r) => r.v !== null && r.v !== undefined && !(hidden?.has(r.s.key) ?? false))
    .sort((a, b) => (b.v ?? 0) - (a.v ?? 0));
  const shown = rows.slice(0, 10);
  const plotLeft = u.bbox.left / devicePixelRatio;
  const plotTop = u.bbox.top / devicePixelRatio;
  const flip = hover.left > u.bbox.width / devicePixelRatio / 2;
  const style = flip
    ? { right: u.width - (plotLeft + hover.left) + 14, top: plotTop + 4 }
    : { left: plotLeft + hover.left + 14, top: plotTop + 4 };
  return (
    <div className="chart-tooltip" style={style} role="tooltip">
      <div className="chart-tooltip-time num">{formatDateTime(t * 1000)}</div>
      {hover.events.slice(0, ANNOTATION_HOVER_MAX).map((ev) => (
        <div key={`${ev.annotationId}-${ev.startMs}-${ev.text}`} className="chart-tooltip-event">
          <span className="event-flag" style={{ borderTopColor: ev.color }} aria-hidden="true" />
          <span className="num">{formatDateTime(ev.startMs).slice(11)}</span> {ev.text}
        </div>
      ))}
      {hover.events.length > ANNOTATION_HOVER_MAX && <div className="muted">+{hover.events.length - ANNOTATION_HOVER_MAX} more events</div>}
      {shown.map(({ s, i, v }) => (
        <div key={s.key} className="chart-tooltip-row">
          <span className={`swatch${s.reference ? ' dashed' : ''}`} style={{ borderColor: colors[i] }} aria-hidden="true" />
          <span className="chart-tooltip-label">{s.label}</span>
          <span className="chart-tooltip-value num">{formatValue(v, s.unit === unit ? unit : s.unit)}</span>
        </div>
      ))}
      {rows.length > shown.length && <div className="muted">+{rows.length - shown.length} more</div>}
    </div>
  );
}
