/**
 * The hex-grid tooltip (`data-testid="hex-tooltip"`): the cell's identity (instance type,
 * engine, component, replica, AZ), every query's value, the health state with what it
 * means and the rule or lifecycle count that decided it, and the cell's active alerts
 * (`hex-tooltip-alerts`, firing first).
 */
import type { ReactNode } from 'react';
import type { LifecycleQueries } from '../../../../src/dashboards/types.js';
import { formatValue } from '../../format/units.js';
import type { BuiltQuery } from '../model/panel-queries.js';
import { HEALTH_GLYPH, HEALTH_MEANING, HEALTH_NAME, type HealthRule } from './health.js';
import { cellAlertsText, type CellAlerts } from './cell-alerts.js';
import type { HexCellData } from './hex-cells.js';
import { HexSwatch } from './HexGrid.js';

const IDENTITY: readonly [string, string][] = [
  ['instance_type', 'Instance type'],
  ['engine', 'Engine'],
  ['component', 'Component'],
  ['replica', 'Replica'],
  ['instance', 'Instance'],
  ['endpoint', 'Endpoint'],
  ['az', 'AZ'],
];

/** Props of `HexTooltip`. */
export interface HexTooltipProps {
  readonly cell: HexCellData;
  /** The cell's active alerts, if any. */
  readonly alerts: CellAlerts | undefined;
  /** Centre of the cell in the grid's coordinates. */
  readonly x: number;
  readonly y: number;
  readonly size: number;
  readonly width: number;
  readonly queries: readonly BuiltQuery[];
  readonly rules: readonly HealthRule[];
  /** The panel's lifecycle queries (which count put the cell in down, starting or idle). */
  readonly lifecycle: LifecycleQueries;
  /** refId of the query that defines the cells (not shown as a value). */
  readonly cellsRefId: string;
}

/** The tooltip. */
export function HexTooltip({ cell, alerts, x, y, size, width, queries, rules, lifecycle, cellsRefId }: HexTooltipProps): ReactNode {
  const left = x > width - 300;
  const style = left ? { right: width - x + size + 6, top: Math.max(0, y - 20) } : { left: x + size + 6, top: Math.max(0, y - 20) };
  const byRef = new Map(cell.reasons.map((r) => [r.refId, r]));
  return (
    <div className="hex-tooltip" style={style} role="tooltip" data-testid="hex-tooltip">
      <div className="hex-tooltip-head">
        <HexSwatch state={cell.health} />
        <span className="hex-tooltip-title mono">{cell.value}</span>
        <span className={`badge ${cell.health}`} data-testid="hex-tooltip-health" data-health={cell.health}>
          {HEALTH_GLYPH[cell.health]} {HEALTH_NAME[cell.health]}
        </span>
      </div>
      <dl className="hex-tooltip-grid">
        {IDENTITY.filter(([k]) => cell.labels[k] !== undefined && cell.labels[k] !== cell.value).map(([k, title]) => (
          <div key={k} className="row">
            <dt>{title}</dt>
            <dd>{shortList(cell.labels[k])}</dd>
          </div>
        ))}
      </dl>
      <dl className="hex-tooltip-grid values">
        {queries
          .filter((q) => q.refId !== cellsRefId && !q.reference)
          .map((q) => {
            const reason = byRef.get(q.refId);
            return (
              <div key={q.refId} className={`row ${reason?.state ?? ''}`}>
                <dt>{q.title}</dt>
                <dd className="num">
                  {reason !== undefined && reason.state !== 'ok' && <span aria-hidden="true">{HEALTH_GLYPH[reason.state]} </span>}
                  {formatValue(cell.values[q.refId], q.unit)}
                </dd>
              </div>
            );
          })}
        <div className="row">
          <dt>Status</dt>
          <dd>{statusText(cell, rules, lifecycle, queries)}</dd>
        </div>
      </dl>
      {alerts !== undefined && (
        <div className={`hex-tooltip-alerts ${alerts.state}`} data-testid="hex-tooltip-alerts" data-alert={alerts.state}>
          <div className="hex-tooltip-alerts-head">{cellAlertsText(alerts)}</div>
          <ul>
            {alerts.alerts.slice(0, MAX_ALERTS).map((a) => (
              <li key={JSON.stringify(a.labels)} data-state={a.state}>
                <span aria-hidden="true">{a.state === 'firing' ? '✖' : '▲'}</span> <b>{a.labels.alertname ?? '(unnamed)'}</b>
                {a.labels.severity !== undefined && <span className="muted"> {a.labels.severity}</span>}
                <span className="visually-hidden"> {a.state}</span>
                {a.annotations.summary !== undefined && <div className="muted">{a.annotations.summary}</div>}
              </li>
            ))}
          </ul>
          {alerts.alerts.length > MAX_ALERTS && <div className="muted">+{alerts.alerts.length - MAX_ALERTS} more on the Alerts page</div>}
        </div>
      )}
      <p className="hex-tooltip-meaning muted">
        {HEALTH_NAME[cell.health]}: {HEALTH_MEANING[cell.health]}.
      </p>
    </div>
  );
}

/** Alerts listed in a tooltip; the rest are counted. */
const MAX_ALERTS = 4;

/** "a, b, c, d, e" → "a, b, c +2": merged cells can cover many replicas. */
function shortList(joined: string, max = 3): string {
  const parts = joined.split(', ');
  return parts.length <= max ? joined : `${parts.slice(0, max).join(', ')} +${parts.length - max}`;
}

function statusText(cell: HexCellData, rules: readonly HealthRule[], lifecycle: LifecycleQueries, queries: readonly BuiltQuery[]): string {
  const count = (refId: string | undefined): number => (refId === undefined ? 0 : (cell.values[refId] ?? 0));
  const thresholds = cell.reasons.filter((r) => r.state !== 'ok' && r.state === cell.health);
  switch (cell.health) {
    case 'nodata':
      return rules.length === 0 ? 'no health rules' : 'no data for the health rules';
    case 'healthy':
      return 'within all thresholds';
    case 'down':
    case 'starting':
    case 'idle': {
      const ref = lifecycle[cell.health];
      const q = queries.find((x) => x.refId === ref);
      return q === undefined ? HEALTH_NAME[cell.health] : `${q.title}: ${formatValue(count(q.refId), 'count')}`;
    }
    default:
      return thresholds
        .map((r) => {
          const q = queries.find((x) => x.refId === r.refId);
          const rule = rules.find((x) => x.refId === r.refId);
          const step = rule?.thresholds.filter((t) => t.state === r.state && t.value <= r.value).sort((a, b) => b.value - a.value)[0];
          const unit = q?.unit ?? 'none';
          return `${q?.title ?? r.refId} ${formatValue(r.value, unit)}${step === undefined ? '' : ` ≥ ${formatValue(step.value, unit)}`}`;
        })
        .join('; ');
  }
}
