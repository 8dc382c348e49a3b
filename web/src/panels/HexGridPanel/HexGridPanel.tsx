/**
 * The fleet hex grid panel: cells from the grid's instant queries (hex-cells.ts), laid out by AZ
 * (hex-layout.ts, memoized on the cell ids and the width, so a health or selection change never
 * re-lays out), a view switch (instance / replica / endpoint), a legend with counts, a tooltip
 * on hover or keyboard focus, a thresholds editor, the cells' active alerts (cell-alerts.ts: a
 * marker on the cell, the list in the tooltip, counts in the legend), and selection: click selects one cell,
 * shift/ctrl/⌘-click toggles, Enter/Space do the same from the keyboard, Escape clears.
 */
import { memo, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent, type PointerEvent, type ReactNode } from 'react';
import type { LifecycleQueries, Panel } from '../../../../src/dashboards/types.js';
import { SegmentedControl } from '../../components/SegmentedControl/SegmentedControl.js';
import { buildPanelQueries } from '../model/panel-queries.js';
import { PanelFrame } from '../PanelFrame/PanelFrame.js';
import { frameState } from '../PanelFrame/frame-state.js';
import type { PanelEnv } from '../panel-env.js';
import { usePanelData } from '../use-panel-data.js';
import { applyThresholdOverrides, HEALTH_GLYPH, HEALTH_MEANING, HEALTH_NAME, HEALTH_STATES } from './health.js';
import { matchCellAlerts } from './cell-alerts.js';
import { buildHexCells, cellInstanceMap, healthCounts, type HexCellData } from './hex-cells.js';
import { AlertMarker, HexGrid, HexSwatch } from './HexGrid.js';
import { hexNeighbor, layoutHexGrid, type HexNavKey } from './hex-layout.js';
import { HexTooltip } from './HexTooltip.js';
import { ThresholdsEditor } from './ThresholdsEditor.js';
import './HexGridPanel.css';

const NAV_KEYS: ReadonlySet<string> = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End']);

const NO_LIFECYCLE: LifecycleQueries = {};

const VIEW_TITLES: Readonly<Record<string, string>> = { instance: 'Instances', replica: 'Component copies', endpoint: 'Endpoints' };

/** The panel. */
export const HexGridPanel = memo(function HexGridPanel({ panel, env, heightPx }: { panel: Panel; env: PanelEnv; heightPx: number }): ReactNode {
  const opts = panel.hexgrid!;
  const queries = useMemo(() => buildPanelQueries(panel, env.ctx), [panel, env.ctx]);
  const data = usePanelData(queries, env.ctx.window);
  const views = Object.keys(opts.views);
  const view = opts.views[env.ctx.hexView] !== undefined ? env.ctx.hexView : views[0];
  const rules = useMemo(() => applyThresholdOverrides(opts.health, env.thresholds), [opts.health, env.thresholds]);

  const cells = useMemo(
    () =>
      data.answers === undefined
        ? []
        : buildHexCells(
            data.answers.map((a) => ({ refId: a.query.refId, unit: a.query.unit, samples: a.instant ?? [] })),
            opts,
            view,
            rules,
          ),
    [data.answers, opts, view, rules],
  );

  const cellAlerts = useMemo(() => matchCellAlerts(cells, env.alerts), [cells, env.alerts]);
  const alertCounts = useMemo(() => {
    let firing = 0;
    for (const a of cellAlerts.values()) if (a.state === 'firing') firing++;
    return { firing, pending: cellAlerts.size - firing };
  }, [cellAlerts]);

  const report = env.reportCells;
  useEffect(() => {
    if (data.answers !== undefined) report(cellInstanceMap(cells));
  }, [cells, data.answers, report]);

  const body = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = body.current;
    if (el === null) return undefined;
    setWidth(el.clientWidth);
    const ro = new ResizeObserver(() => setWidth(el.clientWidth));
    ro.observe(el);
    return () => ro.disconnect();
  }, [data.answers === undefined]);

  // Layout depends only on which cells exist and the width: health and selection changes reuse it.
  const idsKey = cells.map((c) => `${c.id}\u0002${c.group}`).join('\u0003');
  const layout = useMemo(
    () => layoutHexGrid(cells.map((c) => ({ id: c.id, group: c.group })), { width: Math.max(200, width), maxHeight: Math.max(160, heightPx - 120), maxSize: 26 }),
    // `cells` is read through `idsKey` on purpose: the layout changes only when the set of cells does.
    [idsKey, width, heightPx],
  );
  const ordered = useMemo(() => {
    const byId = new Map(cells.map((c) => [c.id, c]));
    return layout.cells.map((lc) => byId.get(lc.id)!).filter((c): c is HexCellData => c !== undefined);
  }, [cells, layout]);

  const selected = useMemo(() => new Set(env.ctx.selection), [env.ctx.selection]);
  const [focusIndex, setFocusIndex] = useState(0);
  const [hover, setHover] = useState<number | undefined>(undefined);
  const [keyboardTip, setKeyboardTip] = useState(false);
  const focusIdx = Math.min(focusIndex, Math.max(0, ordered.length - 1));

  const select = env.select;
  const indexOf = (target: EventTarget): number | undefined => {
    const idx = (target as Element).getAttribute?.('data-index');
    return idx === null || idx === undefined ? undefined : Number(idx);
  };
  const onClick = useCallback(
    (e: MouseEvent<HTMLDivElement>) => {
      const i = indexOf(e.target);
      if (i === undefined || ordered[i] === undefined) return;
      setFocusIndex(i);
      select(ordered[i].value, e.shiftKey || e.ctrlKey || e.metaKey ? 'toggle' : 'replace');
    },
    [ordered, select],
  );
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    if (ordered.length === 0) return;
    if (NAV_KEYS.has(e.key)) {
      e.preventDefault();
      const next = hexNeighbor(layout, focusIdx, e.key as HexNavKey);
      setFocusIndex(next);
      setKeyboardTip(true);
      body.current?.querySelector<SVGElement>(`[data-index="${next}"]`)?.focus();
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      select(ordered[focusIdx].value, e.shiftKey || e.ctrlKey || e.metaKey ? 'toggle' : 'replace');
    } else if (e.key === 'Escape') {
      e.preventDefault();
      select(undefined, 'clear');
    }
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>): void => {
    const i = indexOf(e.target);
    if (i !== hover) setHover(i);
  };

  const counts = useMemo(() => healthCounts(cells), [cells]);
  const tipIndex = hover ?? (keyboardTip ? focusIdx : undefined);
  const tipCell = tipIndex === undefined ? undefined : ordered[tipIndex];
  const tipPos = tipIndex === undefined ? undefined : layout.cells[tipIndex];

  return (
    <PanelFrame
      panel={panel}
      {...frameState(data, queries)}
      className="hex-panel"
      skeleton="grid"
      badges={<span className="badge">{cells.length} {VIEW_TITLES[view]?.toLowerCase() ?? view}</span>}
      actions={
        <>
          {views.length > 1 && (
            <SegmentedControl
              ariaLabel="Hex grid view"
              testId="hex-view"
              options={views.map((v) => ({ value: v, label: VIEW_TITLES[v] ?? v }))}
              value={view}
              onChange={env.setHexView}
            />
          )}
          <ThresholdsEditor rules={rules} defaults={opts.health} queries={queries} overrides={env.thresholds} onChange={env.setThresholds} />
        </>
      }
    >
      <div
        ref={body}
        className="hex-body"
        onClick={onClick}
        onKeyDown={onKeyDown}
        onPointerMove={onPointerMove}
        onPointerLeave={() => setHover(undefined)}
        onFocus={(e) => {
          const i = indexOf(e.target);
          if (i === undefined) return;
          setFocusIndex(i);
          // Tabbing into the grid shows the focused cell's tooltip, as hovering would.
          if ((e.target as Element).matches(':focus-visible')) setKeyboardTip(true);
        }}
        onBlur={() => setKeyboardTip(false)}
      >
        {width > 0 && ordered.length > 0 && (
          <HexGrid layout={layout} cells={ordered} selected={selected} focusIndex={focusIdx} alerts={cellAlerts} ariaLabel={`${panel.title}: ${cells.length} cells grouped by ${opts.groupBy}`} />
        )}
        {tipCell !== undefined && tipPos !== undefined && (
          <HexTooltip cell={tipCell} alerts={cellAlerts.get(tipCell.id)} x={tipPos.x} y={tipPos.y} size={layout.size} width={layout.width} queries={queries} rules={rules} lifecycle={opts.lifecycle ?? NO_LIFECYCLE} cellsRefId={opts.cells} />
        )}
      </div>
      <div className="hex-footer">
        <ul className="hex-legend" aria-label="Health legend">
          {HEALTH_STATES.map((s) => (
            <li key={s} data-testid={`hex-legend-${s}`} data-health={s} title={`${HEALTH_NAME[s]}: ${HEALTH_MEANING[s]}`}>
              <HexSwatch state={s} />
              <span aria-hidden="true" className="hex-legend-glyph">
                {HEALTH_GLYPH[s]}
              </span>
              <span>{HEALTH_NAME[s]}</span>
              <span className="num muted">{counts[s]}</span>
            </li>
          ))}
          {(['firing', 'pending'] as const).map((s) => (
            <li key={s} data-testid={`hex-legend-alert-${s}`} data-count={alertCounts[s]} title={s === 'firing' ? 'Cells with a firing alert' : 'Cells whose alerts are only pending'}>
              <svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true">
                <AlertMarker state={s} x={7} y={7} r={5.5} />
              </svg>
              <span>Alert {s}</span>
              <span className="num muted">{alertCounts[s]}</span>
            </li>
          ))}
        </ul>
        <details className="hex-legend-help" data-testid="hex-legend-help">
          <summary>What the states mean</summary>
          <dl>
            {HEALTH_STATES.map((s) => (
              <div key={s} className="row">
                <dt>
                  <HexSwatch state={s} /> {HEALTH_NAME[s]}
                </dt>
                <dd>{HEALTH_MEANING[s]}</dd>
              </div>
            ))}
          </dl>
        </details>
        {env.ctx.selection.length > 0 ? (
          <div className="hex-selection" data-testid="hex-selection">
            <span>
              {env.ctx.selection.length} selected: <span className="mono">{env.ctx.selection.slice(0, 4).join(', ')}</span>
              {env.ctx.selection.length > 4 ? ` +${env.ctx.selection.length - 4}` : ''}
            </span>
            <button type="button" className="btn small" onClick={() => select(undefined, 'clear')}>
              Clear <kbd>Esc</kbd>
            </button>
          </div>
        ) : (
          <div className="hex-hint muted">Click a cell to filter every panel · shift-click to add · arrows to move</div>
        )}
      </div>
    </PanelFrame>
  );
});
