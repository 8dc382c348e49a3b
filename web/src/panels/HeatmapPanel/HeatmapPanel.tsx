/**
 * A classic histogram over time as a heatmap on one canvas: time on x, buckets on y (empty
 * buckets at both ends trimmed), the count per bucket and step coloured on viridis with a log
 * scale (a colour-blind-safe, perceptually uniform ramp), annotation markers across it, and a
 * tooltip with the bucket's bounds and count.
 */
import { memo, useEffect, useMemo, useRef, useState, type PointerEvent, type ReactNode } from 'react';
import type { Panel, Unit } from '../../../../src/dashboards/types.js';
import { compact, formatDateTime, formatValue } from '../../format/units.js';
import { rampColor, VIRIDIS, withAlpha } from '../../theme/palette.js';
import { cssVar, useTheme } from '../../theme/theme-store.js';
import { annotationGroupGapMs, groupAnnotations, type AnnotationEvent } from '../model/annotations.js';
import { bucketsToHeatmap, type HeatmapData } from '../model/heatmap.js';
import { buildPanelQueries, panelFollowsSelection } from '../model/panel-queries.js';
import { PanelBadges } from '../PanelBadges/PanelBadges.js';
import { PanelFrame } from '../PanelFrame/PanelFrame.js';
import { frameState } from '../PanelFrame/frame-state.js';
import type { PanelEnv } from '../panel-env.js';
import { usePanelData } from '../use-panel-data.js';
import './HeatmapPanel.css';

const M = { left: 52, right: 8, top: 6, bottom: 22 };

/** The bucket rows worth drawing: from the first to the last bucket with a count. */
export function trimBuckets(h: HeatmapData): { from: number; to: number } {
  const nb = h.uppers.length;
  let from = nb;
  let to = -1;
  for (let t = 0; t < h.xs.length; t++) {
    for (let b = 0; b < nb; b++) {
      if (h.counts[t * nb + b] > 0) {
        if (b < from) from = b;
        if (b > to) to = b;
      }
    }
  }
  return to < 0 ? { from: 0, to: nb - 1 } : { from, to };
}

function bucketLabel(h: HeatmapData, b: number, unit: Unit): string {
  const up = h.uppers[b];
  const lo = b === 0 ? 0 : h.uppers[b - 1];
  const fmt = (v: number): string => (Number.isFinite(v) ? (unit === 'tokens' || unit === 'count' ? compact(v) : formatValue(v, unit)) : '+Inf');
  return `${fmt(lo)} – ${fmt(up)}`;
}

/** The panel. */
export const HeatmapPanel = memo(function HeatmapPanel({ panel, env, heightPx }: { panel: Panel; env: PanelEnv; heightPx: number }): ReactNode {
  const queries = useMemo(() => buildPanelQueries(panel, env.ctx), [panel, env.ctx]);
  const data = usePanelData(queries, env.ctx.window);
  const heat = useMemo(
    () => (data.answers === undefined || data.window === undefined ? undefined : bucketsToHeatmap(data.answers.flatMap((a) => a.range ?? []), data.window)),
    [data.answers, data.window],
  );
  const empty = heat !== undefined && heat.max === 0;
  return (
    <PanelFrame
      panel={panel}
      {...frameState(data, queries)}
      status={data.status === 'ready' && empty ? 'empty' : data.status}
      hasData={heat !== undefined}
      style={{ height: heightPx }}
      badges={<PanelBadges fleetWide={env.ctx.selection.length > 0 && !panelFollowsSelection(panel, env.ctx.dashboard)} />}
    >
      {heat !== undefined && (
        <HeatmapCanvas
          heat={heat}
          unit={panel.unit}
          height={Math.max(100, heightPx - 62)}
          annotations={env.annotations}
          title={panel.title}
          countLabel={queries.some((q) => q.expr.includes('rate(')) ? 'requests/s' : 'requests'}
        />
      )}
    </PanelFrame>
  );
});

function HeatmapCanvas(props: {
  heat: HeatmapData;
  unit: Unit;
  height: number;
  annotations: readonly AnnotationEvent[];
  title: string;
  countLabel: string;
}): ReactNode {
  const { heat, unit, height, annotations, title, countLabel } = props;
  const canvas = useRef<HTMLCanvasElement>(null);
  const host = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [hover, setHover] = useState<{ t: number; b: number; x: number; y: number } | null>(null);
  const theme = useTheme();
  const rows = useMemo(() => trimBuckets(heat), [heat]);

  useEffect(() => {
    const el = host.current;
    if (el === null) return undefined;
    setWidth(el.clientWidth);
    const ro = new ResizeObserver(() => setWidth(el.clientWidth));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  useEffect(() => {
    const c = canvas.current;
    if (c === null || width === 0) return;
    const dpr = window.devicePixelRatio || 1;
    c.width = Math.round(width * dpr);
    c.height = Math.round(height * dpr);
    const ctx = c.getContext('2d');
    if (ctx === null) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);
    const muted = cssVar('--fg-muted');
    const pw = width - M.left - M.right;
    const ph = height - M.top - M.bottom;
    const nb = heat.uppers.length;
    const nRows = rows.to - rows.from + 1;
    const nt = heat.xs.length;
    const cw = pw / nt;
    const rh = ph / nRows;
    const logMax = Math.log1p(heat.max);
    ctx.fillStyle = cssVar('--surface-2');
    ctx.fillRect(M.left, M.top, pw, ph);
    for (let t = 0; t < nt; t++) {
      for (let b = rows.from; b <= rows.to; b++) {
        const v = heat.counts[t * nb + b];
        if (v <= 0) continue;
        ctx.fillStyle = rampColor(VIRIDIS, Math.log1p(v) / logMax);
        const y = M.top + ph - (b - rows.from + 1) * rh;
        ctx.fillRect(M.left + t * cw, y, Math.ceil(cw + 0.5), Math.ceil(rh + 0.5));
      }
    }
    // Y labels: upper bounds, as many as fit.
    ctx.fillStyle = muted;
    ctx.font = '11px Inter, system-ui, sans-serif';
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    const every = Math.max(1, Math.ceil(14 / rh));
    for (let b = rows.from; b <= rows.to; b += every) {
      const up = heat.uppers[b];
      const text = Number.isFinite(up) ? (unit === 'tokens' || unit === 'count' ? compact(up) : formatValue(up, unit)) : '+Inf';
      ctx.fillText(`≤${text}`, M.left - 6, M.top + ph - (b - rows.from + 0.5) * rh);
    }
    // X labels.
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    const ticks = Math.max(2, Math.floor(pw / 110));
    for (let k = 0; k <= ticks; k++) {
      const t = Math.min(nt - 1, Math.round((k / ticks) * (nt - 1)));
      const x = M.left + (t + 0.5) * cw;
      ctx.fillText(formatDateTime(heat.xs[t] * 1000, true).slice(11), Math.min(Math.max(x, M.left + 16), width - 20), M.top + ph + 6);
    }
    // Annotations: markers closer than the grouping distance merge into one with a count.
    const t0 = heat.xs[0] * 1000;
    const span = (heat.xs[nt - 1] - heat.xs[0]) * 1000 || 1;
    for (const g of groupAnnotations(annotations, annotationGroupGapMs(span, pw - cw))) {
      if (g.startMs < t0 || g.startMs > t0 + span) continue;
      const x = M.left + ((g.startMs - t0) / span) * (pw - cw) + cw / 2;
      const color = g.color ?? muted;
      ctx.strokeStyle = withAlpha(color, 0.9);
      ctx.setLineDash([3, 3]);
      ctx.beginPath();
      ctx.moveTo(Math.round(x) + 0.5, M.top);
      ctx.lineTo(Math.round(x) + 0.5, M.top + ph);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.fillStyle = color;
      ctx.beginPath();
      ctx.moveTo(x - 4, M.top);
      ctx.lineTo(x + 4, M.top);
      ctx.lineTo(x, M.top + 6);
      ctx.fill();
      if (g.events.length > 1) {
        ctx.font = '600 9px Inter, system-ui, sans-serif';
        ctx.textAlign = 'left';
        ctx.textBaseline = 'top';
        ctx.fillText(String(g.events.length), x + 5, M.top);
      }
    }
  }, [heat, rows, width, height, theme, unit, annotations]);

  const onMove = (e: PointerEvent<HTMLCanvasElement>): void => {
    const r = e.currentTarget.getBoundingClientRect();
    const x = e.clientX - r.left;
    const y = e.clientY - r.top;
    const pw = width - M.left - M.right;
    const ph = height - M.top - M.bottom;
    if (x < M.left || x > M.left + pw || y < M.top || y > M.top + ph) {
      setHover(null);
      return;
    }
    const t = Math.min(heat.xs.length - 1, Math.floor(((x - M.left) / pw) * heat.xs.length));
    const nRows = rows.to - rows.from + 1;
    const b = rows.from + Math.min(nRows - 1, Math.floor(((M.top + ph - y) / ph) * nRows));
    setHover({ t, b, x, y });
  };

  const count = hover === null ? 0 : heat.counts[hover.t * heat.uppers.length + hover.b];
  return (
    <div ref={host} className="heatmap-host" style={{ height }}>
      <canvas
        ref={canvas}
        style={{ width, height }}
        role="img"
        aria-label={`${title}: heatmap of ${heat.uppers.length} buckets over ${heat.xs.length} steps`}
        onPointerMove={onMove}
        onPointerLeave={() => setHover(null)}
      />
      <div className="heatmap-scale" aria-hidden="true">
        <span>0</span>
        <span className="heatmap-ramp" />
        <span>{compact(heat.max)}</span>
        <span>{countLabel}</span>
      </div>
      {hover !== null && (
        <div className="chart-tooltip" role="tooltip" style={hover.x > width / 2 ? { right: width - hover.x + 12, top: 4 } : { left: hover.x + 12, top: 4 }}>
          <div className="chart-tooltip-time num">{formatDateTime(heat.xs[hover.t] * 1000)}</div>
          <div className="chart-tooltip-row">
            <span className="chart-tooltip-label">{bucketLabel(heat, hover.b, unit)}</span>
          </div>
          <div className="chart-tooltip-row">
            <span className="chart-tooltip-label">{countLabel}</span>
            <span className="chart-tooltip-value num">{compact(count)}</span>
          </div>
        </div>
      )}
    </div>
  );
}
