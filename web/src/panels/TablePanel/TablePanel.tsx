/**
 * A table of instant queries joined on labels (`Panel.joinOn`, default `instance`): sortable
 * columns, a Health column where the panel has one (`Panel.healthColumn`: each row judged as the
 * hex grid judges an instance, health.ts; its lifecycle queries are read, not shown), statistical
 * outliers marked per column (Tukey's fences, see model/outliers.ts), rows
 * that select their instance on click (shift/ctrl-click adds), and windowed rendering so 1,000
 * rows cost what 30 do.
 */
import { memo, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode, type UIEvent } from 'react';
import type { Panel } from '../../../../src/dashboards/types.js';
import { formatValue } from '../../format/units.js';
import { HEALTH_GLYPH, HEALTH_MEANING, HEALTH_NAME, healthRank, instanceHealth, lifecycleRefIds, thresholdState, type HealthState } from '../HexGridPanel/health.js';
import { HexSwatch } from '../HexGridPanel/HexGrid.js';
import { outlierFlags, type OutlierFlag } from '../model/outliers.js';
import { buildPanelQueries, viewLabel } from '../model/panel-queries.js';
import { joinTable, sortRows, type TableRow } from '../model/table-join.js';
import { PanelBadges } from '../PanelBadges/PanelBadges.js';
import { PanelFrame } from '../PanelFrame/PanelFrame.js';
import { frameState } from '../PanelFrame/frame-state.js';
import type { PanelEnv } from '../panel-env.js';
import { usePanelData } from '../use-panel-data.js';
import './TablePanel.css';

const ROW_HEIGHT = 30;
const OVERSCAN = 8;

interface Sort {
  readonly refId?: string;
  readonly label?: string;
  /** Sort by the Health column (worst first when descending). */
  readonly health?: boolean;
  readonly dir: 'asc' | 'desc';
}

/** The panel. */
export const TablePanel = memo(function TablePanel({ panel, env, heightPx }: { panel: Panel; env: PanelEnv; heightPx: number }): ReactNode {
  const queries = useMemo(() => buildPanelQueries(panel, env.ctx), [panel, env.ctx]);
  const data = usePanelData(queries, env.ctx.window);
  const joinOn = useMemo(() => panel.joinOn ?? ['instance'], [panel]);
  const [sort, setSort] = useState<Sort>({ label: joinOn[0], dir: 'asc' });
  const [scrollTop, setScrollTop] = useState(0);
  const scroller = useRef<HTMLDivElement>(null);

  const rows = useMemo(
    () => (data.answers === undefined ? [] : joinTable(data.answers.map((a) => ({ refId: a.query.refId, samples: a.instant ?? [] })), joinOn)),
    [data.answers, joinOn],
  );
  const health = panel.healthColumn;
  const columns = useMemo(() => {
    const hidden = new Set(lifecycleRefIds(health?.lifecycle));
    return queries.filter((q) => !q.reference && !hidden.has(q.refId));
  }, [queries, health]);
  const rowHealth = useMemo(() => {
    const m = new Map<string, HealthState>();
    if (health !== undefined) for (const r of rows) m.set(r.key, instanceHealth(r.values, health.rules, health.lifecycle).state);
    return m;
  }, [rows, health]);
  // Label columns: the join labels, then up to three more the first query keeps (instance type, AZ, endpoint).
  const labelColumns = useMemo(() => {
    const extra = new Set<string>();
    for (const r of rows.slice(0, 50)) for (const k of Object.keys(r.labels)) if (k !== '__name__' && !joinOn.includes(k)) extra.add(k);
    return [...joinOn, ...[...extra].sort().slice(0, 3)];
  }, [rows, joinOn]);
  const outliers = useMemo(() => {
    const m = new Map<string, Map<string, OutlierFlag>>();
    for (const c of columns) {
      const flags = outlierFlags(rows.map((r) => r.values[c.refId]));
      const byRow = new Map<string, OutlierFlag>();
      flags.forEach((f, i) => {
        if (f !== undefined) byRow.set(rows[i].key, f);
      });
      m.set(c.refId, byRow);
    }
    return m;
  }, [rows, columns]);
  const sorted = useMemo(() => {
    if (sort.health !== true) return sortRows(rows, sort, sort.dir);
    const sign = sort.dir === 'asc' ? 1 : -1;
    const rank = (r: TableRow): number => healthRank(rowHealth.get(r.key) ?? 'nodata');
    return rows.map((r, i) => ({ r, i })).sort((a, b) => sign * (rank(a.r) - rank(b.r)) || a.i - b.i).map((x) => x.r);
  }, [rows, sort, rowHealth]);
  const outlierCount = useMemo(() => new Set([...outliers.values()].flatMap((m) => [...m.keys()])).size, [outliers]);

  // Selecting from the table: the view whose label is the table's first join label.
  const views = Object.entries(env.ctx.dashboard.rows.flatMap((r) => r.panels).find((p) => p.hexgrid !== undefined)?.hexgrid?.views ?? {});
  const rowView = views.find(([, label]) => label === joinOn[0])?.[0];
  const selectedLabel = viewLabel(env.ctx.dashboard, env.ctx.hexView);
  const selected = new Set(selectedLabel === joinOn[0] ? env.ctx.selection : []);

  const bodyHeight = Math.max(90, heightPx - 44 - 34 - 22);
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(sorted.length, Math.ceil((scrollTop + bodyHeight) / ROW_HEIGHT) + OVERSCAN);
  const visible = sorted.slice(first, last);

  const onRow = (r: TableRow, e: MouseEvent | KeyboardEvent): void => {
    if (rowView === undefined) return;
    env.select(r.labels[joinOn[0]], e.shiftKey || e.ctrlKey || e.metaKey ? 'toggle' : 'replace', rowView);
  };
  const header = (key: string, title: string, s: Omit<Sort, 'dir'>, numeric: boolean): ReactNode => {
    const active = s.health === true ? sort.health === true : s.refId !== undefined ? sort.refId === s.refId : sort.label === s.label && sort.refId === undefined && sort.health !== true;
    return (
      <th key={key} scope="col" aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'} className={numeric ? 'numeric' : ''}>
        <button
          type="button"
          className="th-button"
          onClick={() => setSort({ ...s, dir: active ? (sort.dir === 'asc' ? 'desc' : 'asc') : numeric ? 'desc' : 'asc' })}
        >
          {title}
          <span className="sort-arrow" aria-hidden="true">
            {active ? (sort.dir === 'asc' ? '▲' : '▼') : '↕'}
          </span>
        </button>
      </th>
    );
  };

  return (
    <PanelFrame
      panel={panel}
      {...frameState(data, queries)}
      style={{ height: heightPx }}
      skeleton="table"
      badges={
        <>
          <PanelBadges />
          {outlierCount > 0 && (
            <span className="badge outlier-badge" title="Values beyond Tukey's fences (Q1 − 1.5·IQR, Q3 + 1.5·IQR) of their column">
              ◆ {outlierCount} outlier{outlierCount === 1 ? '' : 's'}
            </span>
          )}
          <span className="badge">{rows.length} rows</span>
        </>
      }
    >
      <div
        ref={scroller}
        className="table-scroll"
        style={{ height: bodyHeight + 34 }}
        onScroll={(e: UIEvent<HTMLDivElement>) => setScrollTop(e.currentTarget.scrollTop)}
      >
        <table className="data-table" data-testid={`table-${panel.id}`} aria-rowcount={sorted.length + 1}>
          <thead>
            <tr>
              {labelColumns.map((l) => header(`l-${l}`, l, { label: l }, false))}
              {health !== undefined && header('health', 'Health', { health: true }, true)}
              {columns.map((c) => header(`q-${c.refId}`, c.title, { refId: c.refId }, true))}
            </tr>
          </thead>
          <tbody>
            {first > 0 && <tr style={{ height: first * ROW_HEIGHT }} aria-hidden="true" />}
            {visible.map((r, i) => {
              const isSel = selected.has(r.labels[joinOn[0]] ?? '');
              return (
                <tr
                  key={r.key}
                  data-testid="table-row"
                  data-key={r.key}
                  aria-rowindex={first + i + 2}
                  aria-selected={isSel}
                  className={`${isSel ? 'selected' : ''} ${rowView !== undefined ? 'clickable' : ''}`}
                  tabIndex={rowView !== undefined ? 0 : undefined}
                  onClick={(e) => onRow(r, e)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter' || e.key === ' ') {
                      e.preventDefault();
                      onRow(r, e);
                    }
                  }}
                >
                  {labelColumns.map((l, k) => (
                    <td key={l} className={k === 0 ? 'label-cell key' : 'label-cell'}>
                      {r.labels[l] ?? ''}
                    </td>
                  ))}
                  {health !== undefined && <HealthCell state={rowHealth.get(r.key) ?? 'nodata'} />}
                  {columns.map((c) => {
                    const flag = outliers.get(c.refId)?.get(r.key);
                    const v = r.values[c.refId];
                    const state = c.thresholds === undefined ? undefined : thresholdState(v, c.thresholds);
                    return (
                      <td
                        key={c.refId}
                        className={`numeric num${flag !== undefined ? ' outlier' : ''}${state !== undefined && state !== 'ok' ? ` th-${state}` : ''}`}
                        data-outlier={flag}
                        data-health={state}
                        title={flag === undefined ? undefined : `Outlier: ${flag === 'high' ? 'above' : 'below'} the rest of the column (Tukey's fences)`}
                      >
                        {state !== undefined && state !== 'ok' && (
                          <span className="th-mark" aria-label={state}>
                            {state === 'critical' ? '✖' : '▲'}
                          </span>
                        )}
                        {flag !== undefined && (
                          <span className="outlier-mark" aria-label={`${flag} outlier`}>
                            {flag === 'high' ? '◆▲' : '◆▼'}
                          </span>
                        )}
                        {formatValue(v, c.unit)}
                      </td>
                    );
                  })}
                </tr>
              );
            })}
            {last < sorted.length && <tr style={{ height: (sorted.length - last) * ROW_HEIGHT }} aria-hidden="true" />}
          </tbody>
        </table>
      </div>
    </PanelFrame>
  );
});

/** One row's health: the state's swatch, glyph and name, its meaning on hover. */
function HealthCell({ state }: { state: HealthState }): ReactNode {
  return (
    <td className={`health-cell ${state}`} data-testid="table-health" data-health={state} title={HEALTH_MEANING[state]}>
      <HexSwatch state={state} />
      <span aria-hidden="true" className="health-glyph">
        {HEALTH_GLYPH[state]}
      </span>
      {HEALTH_NAME[state]}
    </td>
  );
}
