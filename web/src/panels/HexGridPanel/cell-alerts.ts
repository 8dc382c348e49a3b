/**
 * Which active alerts (`/api/v1/alerts`) concern which hex cell. A cell carries the identity
 * labels of its series (`endpoint`, `component`, `instance`, `replica`; several values when it
 * merges several series); an alert concerns the cell when it has at least one of these labels
 * and each identity label it has names one of the cell's values. So an instance alert lands on
 * its instance's cell, a replica alert on the cell that runs the replica, and an SLO alert
 * (`endpoint`, `component`) on every cell that serves the component; an alert without identity
 * labels (fleet-wide) lands on none. The cell's state is its worst alert's: firing, then pending.
 * Pure; linear in cells plus alerts times the cells sharing their first identity label.
 */
import type { ActiveAlert } from '../../../../src/query/index.js';
import type { HexCellData } from './hex-cells.js';

/** The labels alerts are matched to cells on, most specific first. */
export const IDENTITY_LABELS: readonly string[] = ['instance', 'replica', 'component', 'endpoint'];

/** A cell's alerts. */
export interface CellAlerts {
  /** The worst state among them. */
  readonly state: 'firing' | 'pending';
  readonly firing: number;
  readonly pending: number;
  /** Firing first, then pending; by alert name within each. */
  readonly alerts: readonly ActiveAlert[];
}

/** "2 alerts firing, 1 pending": the accessible text of a cell's alerts. */
export function cellAlertsText(a: CellAlerts | undefined): string {
  if (a === undefined) return 'no alerts';
  const parts: string[] = [];
  if (a.firing > 0) parts.push(`${a.firing} ${a.firing === 1 ? 'alert' : 'alerts'} firing`);
  if (a.pending > 0) parts.push(a.firing > 0 ? `${a.pending} pending` : `${a.pending} ${a.pending === 1 ? 'alert' : 'alerts'} pending`);
  return parts.join(', ');
}

/** Cell id → its alerts; cells without alerts are absent. */
export function matchCellAlerts(cells: readonly HexCellData[], alerts: readonly ActiveAlert[]): Map<string, CellAlerts> {
  const out = new Map<string, CellAlerts>();
  if (alerts.length === 0 || cells.length === 0) return out;
  // label \u0001 value → the cells that have it.
  const index = new Map<string, HexCellData[]>();
  for (const c of cells) {
    for (const l of IDENTITY_LABELS) {
      for (const v of c.labelSets[l] ?? []) {
        const k = `${l}\u0001${v}`;
        let list = index.get(k);
        if (list === undefined) index.set(k, (list = []));
        list.push(c);
      }
    }
  }
  const found = new Map<string, ActiveAlert[]>();
  for (const a of alerts) {
    const ids = IDENTITY_LABELS.filter((l) => a.labels[l] !== undefined && a.labels[l] !== '');
    if (ids.length === 0) continue;
    for (const c of index.get(`${ids[0]}\u0001${a.labels[ids[0]]}`) ?? []) {
      if (!ids.every((l) => c.labelSets[l] === undefined || c.labelSets[l].includes(a.labels[l]))) continue;
      let list = found.get(c.id);
      if (list === undefined) found.set(c.id, (list = []));
      list.push(a);
    }
  }
  for (const [id, list] of found) {
    const sorted = [...list].sort((x, y) => (x.state === y.state ? (x.labels.alertname ?? '').localeCompare(y.labels.alertname ?? '') : x.state === 'firing' ? -1 : 1));
    const firing = sorted.filter((x) => x.state === 'firing').length;
    out.set(id, { state: firing > 0 ? 'firing' : 'pending', firing, pending: sorted.length - firing, alerts: sorted });
  }
  return out;
}
