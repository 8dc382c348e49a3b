/**
 * uPlot options and drawing hooks for time-series panels: themed axes with unit formatting, a
 * second y axis for queries in another unit, a threshold band drawn under the series, annotation
 * markers (vertical dashed lines with a tag at the top, a shaded span for events that last), and
 * drag-to-zoom. Everything that can change without new data (theme, band, annotations) is read
 * through a mutable `ChartLive` object, so a change is a redraw, never a new uPlot instance.
 */
import type uPlot from 'uplot';
import type { Band, Threshold, Unit } from '../../../../src/dashboards/types.js';
import { formatValue } from '../../format/units.js';
import { annotationGroupGapMs, groupAnnotations, groupEventsAt, type AnnotationEvent, type AnnotationGroup } from '../model/annotations.js';
import type { SeriesData } from '../model/series.js';
import { cssVar } from '../../theme/theme-store.js';
import { withAlpha } from '../../theme/palette.js';

/** State the hooks read on every draw. */
export interface ChartLive {
  band?: Band;
  /** Warning/critical steps drawn as dashed horizontal lines. */
  thresholds?: readonly Threshold[];
  bandLabel?: string;
  annotations: readonly AnnotationEvent[];
  colors: string[];
  /** Resolved theme colours (refreshed on theme change). */
  fg: string;
  muted: string;
  grid: string;
  bandFill: string;
  bandEdge: string;
  warning: string;
  critical: string;
}

/** Reads the theme's colours into `live`. */
export function refreshThemeColors(live: ChartLive): void {
  live.fg = cssVar('--fg') || '#e7e9ee';
  live.muted = cssVar('--fg-muted') || '#a0a8b8';
  live.grid = cssVar('--grid') || 'rgba(255,255,255,0.07)';
  live.bandFill = cssVar('--band') || 'rgba(230,159,0,0.13)';
  live.bandEdge = cssVar('--band-edge') || 'rgba(230,159,0,0.55)';
  live.warning = cssVar('--warning') || '#e69f00';
  live.critical = cssVar('--critical') || '#d55e00';
}

const FONT = '11px Inter, "Segoe UI", system-ui, sans-serif';

/** Tick increments for durations in seconds: 1-2-5 below a second, then whole seconds, minutes and hours. */
const SECONDS_INCRS = [
  1e-6, 2e-6, 5e-6, 1e-5, 2e-5, 5e-5, 1e-4, 2e-4, 5e-4, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600,
  900, 1800, 3600, 7200, 14_400, 28_800, 86_400,
];

/** Tick increments for ratios shown as percentages: 0.1 %, 0.25 % … 10 %, 20 %, 25 %. */
const RATIO_INCRS = [0.0001, 0.0002, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.02, 0.025, 0.05, 0.1, 0.2, 0.25, 0.5, 1];

function incrsFor(unit: Unit): number[] | undefined {
  if (unit === 'seconds') return SECONDS_INCRS;
  if (unit === 'ratio') return RATIO_INCRS;
  return undefined;
}

/**
 * Time tick labels: seconds when ticks are under a minute apart, the date where the range spans
 * more than a day, else hours and minutes (local time, 24-hour clock).
 */
export function timeTicks(splitsS: readonly number[], incrS: number, spanS: number): string[] {
  const p = (n: number): string => String(n).padStart(2, '0');
  return splitsS.map((t) => {
    const d = new Date(t * 1000);
    const hm = `${p(d.getHours())}:${p(d.getMinutes())}`;
    if (incrS < 60) return `${hm}:${p(d.getSeconds())}`;
    if (spanS > 86_400) return incrS >= 86_400 ? `${p(d.getMonth() + 1)}-${p(d.getDate())}` : `${p(d.getMonth() + 1)}-${p(d.getDate())} ${hm}`;
    return hm;
  });
}

let measureCtx: CanvasRenderingContext2D | null | undefined;

/** Width of the widest tick label, so the axis is never clipped ("0.75 req/s", "100k tok/s"). */
function axisSize(u: uPlot, values: string[] | null, axisIdx: number): number {
  const axis = u.axes[axisIdx];
  if (values === null || values.length === 0 || axis.show === false) return 40;
  measureCtx ??= document.createElement('canvas').getContext('2d');
  if (measureCtx === null) return 60;
  measureCtx.font = FONT;
  let w = 0;
  for (const v of values) w = Math.max(w, measureCtx.measureText(v).width);
  return Math.ceil(w) + 14;
}

/** The scales and units of a panel: `y` in the panel's unit, `y2` in the first other unit, if any. */
export function chartUnits(panelUnit: Unit, series: readonly SeriesData[]): { y: Unit; y2?: Unit } {
  const other = series.find((s) => s.unit !== panelUnit)?.unit;
  return other === undefined ? { y: panelUnit } : { y: panelUnit, y2: other };
}

/** A uPlot series for `s` at palette position `i`. */
export function seriesOptions(s: SeriesData, i: number, units: { y: Unit; y2?: Unit }, live: ChartLive): uPlot.Series {
  return {
    label: s.label,
    scale: s.unit === units.y || units.y2 === undefined ? 'y' : 'y2',
    stroke: () => live.colors[i] ?? '#888',
    width: s.reference ? 1.5 : 1.75,
    dash: s.reference ? [6, 5] : undefined,
    spanGaps: false,
    points: { show: false },
  };
}

const NON_NEGATIVE: ReadonlySet<Unit> = new Set<Unit>(['seconds', 'ratio', 'percent', 'bytes', 'tokens', 'tokens/s', 'req/s', 'count', 'dollars', 'dollars/h', 'hertz']);

function yRange(unit: Unit, live: ChartLive, withBand: boolean): uPlot.Scale.Range {
  return (_u, min, max) => {
    let lo = min;
    let hi = max;
    if (lo === null || hi === null || !Number.isFinite(lo) || !Number.isFinite(hi)) {
      lo = 0;
      hi = unit === 'ratio' ? 1 : 1;
    }
    if (NON_NEGATIVE.has(unit) && lo >= 0) lo = 0;
    if (withBand && live.band !== undefined) hi = Math.max(hi, live.band.to * 1.12);
    // A threshold just above the data is worth seeing; one far above is not worth the squashed lines.
    if (withBand) for (const t of live.thresholds ?? []) if (t.state !== 'ok' && t.value > hi && t.value <= hi * 1.5) hi = t.value * 1.08;
    if (hi === lo) hi = lo === 0 ? 1 : lo * 1.5;
    else hi += (hi - lo) * 0.08;
    if (unit === 'ratio' && max !== null && max <= 1 && hi > 1) hi = 1;
    return [lo, hi];
  };
}

/** Options of a chart. */
export function chartOptions(args: {
  width: number;
  height: number;
  units: { y: Unit; y2?: Unit };
  series: readonly SeriesData[];
  live: ChartLive;
  onZoom?: (fromMs: number, toMs: number) => void;
  onCursor?: (u: uPlot) => void;
}): uPlot.Options {
  const { live, units } = args;
  const axisStroke = (): string => live.muted;
  const gridStroke = (): string => live.grid;
  const axes: uPlot.Axis[] = [
    {
      stroke: axisStroke,
      grid: { stroke: gridStroke, width: 1 },
      ticks: { show: false },
      font: FONT,
      space: 70,
      size: 24,
      values: (u, splits, _axisIdx, _space, incr) => timeTicks(splits, incr, (u.scales.x.max ?? 0) - (u.scales.x.min ?? 0)),
    },
    {
      scale: 'y',
      stroke: axisStroke,
      grid: { stroke: gridStroke, width: 1 },
      ticks: { show: false },
      font: FONT,
      size: axisSize,
      space: 28,
      incrs: incrsFor(units.y),
      values: (_u, splits) => splits.map((v) => formatValue(v, units.y, { digits: 3 })),
    },
  ];
  const scales: uPlot.Scales = { x: { time: true }, y: { range: yRange(units.y, live, true) } };
  if (units.y2 !== undefined) {
    const u2 = units.y2;
    scales.y2 = { range: yRange(u2, live, false) };
    axes.push({
      scale: 'y2',
      // uPlot.Axis.Side.Right; the enum is an ambient const enum, which isolatedModules cannot read.
      // eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment
      side: 1,
      stroke: axisStroke,
      grid: { show: false },
      ticks: { show: false },
      font: FONT,
      size: axisSize,
      space: 28,
      incrs: incrsFor(u2),
      values: (_u, splits) => splits.map((v) => formatValue(v, u2, { digits: 3 })),
    });
  }
  return {
    width: args.width,
    height: args.height,
    legend: { show: false },
    padding: [10, units.y2 === undefined ? 12 : 4, 0, 0],
    cursor: {
      drag: { x: true, y: false, setScale: false },
      points: { size: 6, width: 1.5 },
      focus: { prox: 24 },
    },
    focus: { alpha: 0.35 },
    select: { show: true, left: 0, top: 0, width: 0, height: 0 },
    scales,
    axes,
    series: [{}, ...args.series.map((s, i) => seriesOptions(s, i, units, live))],
    hooks: {
      drawAxes: [(u) => drawBand(u, live), (u) => drawThresholds(u, live)],
      draw: [(u) => drawAnnotations(u, live)],
      setCursor: args.onCursor === undefined ? [] : [args.onCursor],
      setSelect: [
        (u) => {
          const sel = u.select;
          if (sel.width < 4 || args.onZoom === undefined) return;
          const from = u.posToVal(sel.left, 'x') * 1000;
          const to = u.posToVal(sel.left + sel.width, 'x') * 1000;
          u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
          args.onZoom(Math.round(from), Math.round(to));
        },
      ],
    },
  };
}

function drawBand(u: uPlot, live: ChartLive): void {
  const b = live.band;
  if (b === undefined || u.scales.y.min === undefined) return;
  const { ctx } = u;
  const { left, top, width, height } = u.bbox;
  const y1 = Math.max(top, u.valToPos(b.to, 'y', true));
  const y0 = Math.min(top + height, u.valToPos(b.from, 'y', true));
  if (y0 <= top || y1 >= top + height) return;
  ctx.save();
  ctx.fillStyle = live.bandFill;
  ctx.fillRect(left, y1, width, y0 - y1);
  ctx.strokeStyle = live.bandEdge;
  ctx.lineWidth = 1 * devicePixelRatio;
  ctx.setLineDash([4 * devicePixelRatio, 4 * devicePixelRatio]);
  for (const y of [y0, y1]) {
    ctx.beginPath();
    ctx.moveTo(left, Math.round(y) + 0.5);
    ctx.lineTo(left + width, Math.round(y) + 0.5);
    ctx.stroke();
  }
  ctx.setLineDash([]);
  ctx.fillStyle = live.bandEdge;
  ctx.font = `${10 * devicePixelRatio}px Inter, system-ui, sans-serif`;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'bottom';
  ctx.fillText(live.bandLabel ?? b.label, left + width - 4 * devicePixelRatio, y1 - 2 * devicePixelRatio);
  ctx.restore();
}

function drawAnnotations(u: uPlot, live: ChartLive): void {
  if (live.annotations.length === 0) return;
  const { ctx } = u;
  const { left, top, width, height } = u.bbox;
  const dpr = devicePixelRatio;
  ctx.save();
  // Events closer than a few pixels share one marker with their count: a dense burst reads as one
  // mark, not a fence; the hover lists the events.
  for (const g of chartAnnotationGroups(u, live.annotations)) {
    const x0 = Math.round(u.valToPos(g.startMs / 1000, 'x', true));
    if (x0 < left || x0 > left + width) continue;
    const color = g.color ?? live.muted;
    ctx.strokeStyle = withAlpha(color, 0.7);
    ctx.lineWidth = 1 * dpr;
    ctx.setLineDash([2 * dpr, 3 * dpr]);
    ctx.beginPath();
    ctx.moveTo(x0 + 0.5, top + 6 * dpr);
    ctx.lineTo(x0 + 0.5, top + height);
    ctx.stroke();
    ctx.setLineDash([]);
    // A small flag at the top: a triangle, so the marker reads without its colour.
    ctx.fillStyle = color;
    ctx.beginPath();
    ctx.moveTo(x0 - 4 * dpr, top);
    ctx.lineTo(x0 + 4 * dpr, top);
    ctx.lineTo(x0, top + 6 * dpr);
    ctx.closePath();
    ctx.fill();
    if (g.events.length > 1) {
      ctx.font = `600 ${9 * dpr}px Inter, system-ui, sans-serif`;
      ctx.textAlign = 'left';
      ctx.textBaseline = 'top';
      ctx.fillText(String(g.events.length), x0 + 5 * dpr, top);
    }
  }
  ctx.restore();
}

/**
 * The chart's annotation groups at its current zoom: events whose markers would stand closer than
 * `annotationGroupGapMs` share one (`groupAnnotations`). Drawing and hover both use it.
 */
export function chartAnnotationGroups(u: uPlot, events: readonly AnnotationEvent[]): AnnotationGroup[] {
  if (events.length === 0) return [];
  const widthCss = u.bbox.width / devicePixelRatio;
  return groupAnnotations(events, annotationGroupGapMs(msPerCssPixel(u) * widthCss, widthCss));
}

/** Milliseconds of the x scale per CSS pixel of the plot. */
function msPerCssPixel(u: uPlot): number {
  const { min, max } = u.scales.x;
  if (min === undefined || max === undefined) return 0;
  return ((max - min) * 1000) / Math.max(1, u.bbox.width / devicePixelRatio);
}

function drawThresholds(u: uPlot, live: ChartLive): void {
  const steps = live.thresholds?.filter((t) => t.state !== 'ok') ?? [];
  if (steps.length === 0 || u.scales.y.max === undefined) return;
  const { ctx } = u;
  const { left, top, width, height } = u.bbox;
  const dpr = devicePixelRatio;
  ctx.save();
  for (const t of steps) {
    const y = Math.round(u.valToPos(t.value, 'y', true)) + 0.5;
    if (y < top || y > top + height) continue;
    ctx.strokeStyle = t.state === 'critical' ? live.critical : live.warning;
    ctx.lineWidth = 1 * dpr;
    ctx.setLineDash([6 * dpr, 4 * dpr]);
    ctx.beginPath();
    ctx.moveTo(left, y);
    ctx.lineTo(left + width, y);
    ctx.stroke();
  }
  ctx.restore();
}

/** The annotation events of the marker groups within `px` CSS pixels of the cursor: a group's hover lists all its events. */
export function eventsNear(u: uPlot, events: readonly AnnotationEvent[], leftCss: number, px = 6): AnnotationEvent[] {
  if (events.length === 0) return [];
  return groupEventsAt(chartAnnotationGroups(u, events), u.posToVal(leftCss, 'x') * 1000, px * msPerCssPixel(u));
}
