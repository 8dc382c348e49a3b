/**
 * The honeycomb itself: one SVG, one polygon per cell, positions from the memoized layout. Health
 * (health.ts) is drawn three ways (colour, fill pattern, border; plus a glyph when cells are large
 * enough), so it never depends on hue alone. A cell with active alerts (cell-alerts.ts) carries a
 * marker at its upper right, a solid disc with "!" when one fires and a dashed ring when they only
 * pend, and says so in its accessible name. Events are delegated to the SVG (one handler for
 * 1,000 cells); the focused cell holds the only tabindex=0 (roving tabindex).
 */
import { memo, useMemo, type ReactNode } from 'react';
import { HEALTH_GLYPH, HEALTH_NAME, type HealthState } from './health.js';
import { cellAlertsText, type CellAlerts } from './cell-alerts.js';
import type { HexCellData } from './hex-cells.js';
import { hexPoints, type HexLayout } from './hex-layout.js';

/**
 * Pattern fills per health state (`HexLegend` and the table use the same ids): each state has its
 * own colour (theme.css, from the Okabe–Ito palette: palette.ts) and its own pattern, so two
 * states never differ by hue alone. Solid: healthy; stripes: warning; cross-hatch: critical; a
 * dark band with a cross: down; dots on a light tint: starting; a hollow ring: idle; a faint dot:
 * no data.
 */
export function HexPatternDefs(): ReactNode {
  return (
    <defs>
      <pattern id="hex-fill-healthy" patternUnits="userSpaceOnUse" width="6" height="6">
        <rect width="6" height="6" fill="var(--healthy)" />
      </pattern>
      <pattern id="hex-fill-warning" patternUnits="userSpaceOnUse" width="6" height="6" patternTransform="rotate(45)">
        <rect width="6" height="6" fill="var(--warning)" />
        <rect width="2.2" height="6" fill="rgba(0,0,0,0.32)" />
      </pattern>
      <pattern id="hex-fill-critical" patternUnits="userSpaceOnUse" width="5" height="5" patternTransform="rotate(45)">
        <rect width="5" height="5" fill="var(--critical)" />
        <rect width="1.6" height="5" fill="rgba(0,0,0,0.38)" />
        <rect width="5" height="1.6" fill="rgba(0,0,0,0.38)" />
      </pattern>
      <pattern id="hex-fill-down" patternUnits="userSpaceOnUse" width="8" height="8">
        <rect width="8" height="8" fill="var(--down)" />
        <path d="M0 0L8 8M8 0L0 8" stroke="rgba(0,0,0,0.55)" strokeWidth="1.6" />
      </pattern>
      <pattern id="hex-fill-starting" patternUnits="userSpaceOnUse" width="6" height="6">
        <rect width="6" height="6" fill="var(--starting)" opacity="0.55" />
        <circle cx="3" cy="3" r="1.5" fill="var(--starting)" />
      </pattern>
      <pattern id="hex-fill-idle" patternUnits="userSpaceOnUse" width="8" height="8">
        <rect width="8" height="8" fill="var(--idle)" opacity="0.25" />
        <circle cx="4" cy="4" r="2.4" fill="none" stroke="var(--idle)" strokeWidth="1.2" />
      </pattern>
      <pattern id="hex-fill-nodata" patternUnits="userSpaceOnUse" width="5" height="5">
        <rect width="5" height="5" fill="var(--nodata)" opacity="0.45" />
        <circle cx="2.5" cy="2.5" r="0.9" fill="var(--nodata)" />
      </pattern>
    </defs>
  );
}

/** Props of `HexGrid`. */
export interface HexGridProps {
  readonly layout: HexLayout;
  /** Cell data in layout order. */
  readonly cells: readonly HexCellData[];
  readonly selected: ReadonlySet<string>;
  readonly focusIndex: number;
  readonly ariaLabel: string;
  /** Cell id → its active alerts. */
  readonly alerts: ReadonlyMap<string, CellAlerts>;
}

/** The alert marker of a cell (and of the legend): a disc with "!" for firing, a dashed ring for pending. */
export function AlertMarker({ state, x, y, r }: { state: CellAlerts['state']; x: number; y: number; r: number }): ReactNode {
  return (
    <g className={`hex-alert ${state}`} aria-hidden="true">
      <circle cx={x} cy={y} r={r} />
      {state === 'firing' && r >= 4 && (
        <text x={x} y={y} fontSize={r * 1.6}>
          !
        </text>
      )}
    </g>
  );
}

/** One cell; memoized so that a selection change re-renders only the cells it concerns. */
const HexCellView = memo(function HexCellView(p: {
  index: number;
  points: string;
  cell: HexCellData;
  x: number;
  y: number;
  glyphSize: number;
  selected: boolean;
  focused: boolean;
  size: number;
  alert: CellAlerts | undefined;
}): ReactNode {
  const c = p.cell;
  const a = p.alert;
  return (
    <g className={p.selected ? 'sel' : undefined}>
      <polygon
        points={p.points}
        className={`hex ${c.health}${p.selected ? ' selected' : ''}`}
        fill={`url(#hex-fill-${c.health})`}
        data-testid="hex-cell"
        data-index={p.index}
        data-instance={c.value}
        data-az={c.group}
        data-health={c.health}
        data-alert={a?.state}
        role="option"
        aria-selected={p.selected}
        aria-label={`${c.value}, ${c.group}: ${HEALTH_NAME[c.health]}${a === undefined ? '' : `, ${cellAlertsText(a)}`}`}
        tabIndex={p.focused ? 0 : -1}
      />
      {p.glyphSize > 0 && c.health !== 'healthy' && (
        <text x={p.x} y={p.y} className="hex-glyph" fontSize={p.glyphSize} aria-hidden="true">
          {HEALTH_GLYPH[c.health]}
        </text>
      )}
      {a !== undefined && <AlertMarker state={a.state} x={p.x + p.size * 0.62} y={p.y - p.size * 0.6} r={Math.max(3, p.size * 0.3)} />}
    </g>
  );
});

/**
 * The SVG. Handlers are attached by the parent through the wrapper element (event delegation).
 * Dimming the unselected cells is one class on the root (`has-selection`), so selecting a cell
 * re-renders that cell, not the thousand others.
 */
export const HexGrid = memo(function HexGrid({ layout, cells, selected, focusIndex, ariaLabel, alerts }: HexGridProps): ReactNode {
  const points = useMemo(() => layout.cells.map((c) => hexPoints(c.x, c.y, layout.size - 0.5)), [layout]);
  const glyphSize = layout.size >= 10 ? layout.size * 0.75 : 0;
  return (
    <svg
      className={`hex-svg${selected.size > 0 ? ' has-selection' : ''}`}
      width={layout.width}
      height={layout.height}
      viewBox={`0 0 ${layout.width} ${layout.height}`}
      role="listbox"
      aria-multiselectable="true"
      aria-label={ariaLabel}
    >
      <HexPatternDefs />
      {layout.groups.map((g) => (
        <text key={g.name} x={g.x + 2} y={g.y + 14} className="hex-group-label">
          {g.name === '' ? '(no AZ)' : g.name}
          <tspan className="hex-group-count" dx="8">
            {g.count}
          </tspan>
        </text>
      ))}
      {layout.cells.map((lc, i) => (
        <HexCellView
          key={lc.id}
          index={i}
          points={points[i]}
          cell={cells[i]}
          x={lc.x}
          y={lc.y}
          glyphSize={glyphSize}
          selected={selected.has(cells[i].value)}
          focused={i === focusIndex}
          size={layout.size}
          alert={alerts.get(cells[i].id)}
        />
      ))}
    </svg>
  );
});

/** One legend swatch: a small hexagon with the state's fill and border. */
export function HexSwatch({ state }: { state: HealthState }): ReactNode {
  return (
    <svg width="16" height="18" viewBox="0 0 16 18" aria-hidden="true">
      <polygon points={hexPoints(8, 9, 7.5)} className={`hex ${state}`} fill={`url(#hex-fill-${state})`} />
    </svg>
  );
}
