/**
 * Hex-grid cells from the grid's instant queries (src/dashboards/types.ts, HexGridOptions). The
 * `cells` query returns one series per replica with the identity labels. A view merges the series
 * that share its label into one cell per group (an endpoint serving three AZs is three cells, one
 * in each AZ's block); a cell covers the instances (`joinOn`, default `instance`) of its series.
 * The other queries are fields, one series per instance: a cell shows its instances' values
 * combined — summed for rates and counts (tokens/s, req/s, count), the maximum otherwise
 * (latencies, ratios) — and takes the worst health over its instances (health.ts: the threshold
 * rules and the lifecycle queries of `opts.lifecycle`).
 */
import type { HexGridOptions, Unit } from '../../../../src/dashboards/types.js';
import type { InstantSample } from '../../../../src/query/index.js';
import { parseSampleValue } from '../../../../src/query/index.js';
import { HEALTH_STATES, healthRank, instanceHealth, lifecycleRefIds, type HealthReason, type HealthRule, type HealthState } from './health.js';

/** One cell's data. */
export interface HexCellData {
  /** Unique: the view label's value and the group. */
  readonly id: string;
  /** The view label's value (what a click selects). */
  readonly value: string;
  readonly group: string;
  /** The instances the cell covers (what the selection filters the other panels to). */
  readonly instances: readonly string[];
  /** Labels of the cell's series; several distinct values are joined with ", ". */
  readonly labels: Readonly<Record<string, string>>;
  /** The same labels as sets of values, sorted (what alerts are matched on: cell-alerts.ts). */
  readonly labelSets: Readonly<Record<string, readonly string[]>>;
  readonly values: Readonly<Record<string, number | undefined>>;
  readonly health: HealthState;
  /** The verdicts of the worst instance. */
  readonly reasons: readonly HealthReason[];
}

/** A query's answer and unit. */
export interface HexQueryResult {
  readonly refId: string;
  readonly unit: Unit;
  readonly samples: readonly InstantSample[];
}

const SUMMED: ReadonlySet<Unit> = new Set<Unit>(['tokens/s', 'req/s', 'count']);

/** How several instances' values combine in one cell. */
export function combineFor(unit: Unit): 'sum' | 'max' {
  return SUMMED.has(unit) ? 'sum' : 'max';
}

/** Builds the cells for `view` (a key of `opts.views`), in no particular order. */
export function buildHexCells(results: readonly HexQueryResult[], opts: HexGridOptions, view: string, rules: readonly HealthRule[]): HexCellData[] {
  const label = opts.views[view] ?? Object.values(opts.views)[0] ?? 'instance';
  const join = opts.joinOn ?? 'instance';
  const cellsResult = results.find((r) => r.refId === opts.cells);
  if (cellsResult === undefined) return [];

  const acc = new Map<string, { value: string; group: string; instances: Set<string>; labels: Map<string, Set<string>> }>();
  for (const s of cellsResult.samples) {
    const value = s.metric[label];
    if (value === undefined || value === '') continue;
    const group = s.metric[opts.groupBy] ?? '';
    const id = `${value}\u0001${group}`;
    let c = acc.get(id);
    if (c === undefined) acc.set(id, (c = { value, group, instances: new Set(), labels: new Map() }));
    const inst = s.metric[join];
    if (inst !== undefined && inst !== '') c.instances.add(inst);
    for (const [k, v] of Object.entries(s.metric)) {
      if (k === '__name__') continue;
      let set = c.labels.get(k);
      if (set === undefined) c.labels.set(k, (set = new Set()));
      set.add(v);
    }
  }

  // Fields: refId → instance → value (the first series of an instance wins).
  const fields: { refId: string; unit: Unit; byInstance: Map<string, number> }[] = [];
  for (const r of results) {
    if (r.refId === opts.cells) continue;
    const m = new Map<string, number>();
    for (const s of r.samples) {
      const inst = s.metric[join];
      if (inst === undefined || m.has(inst)) continue;
      const v = parseSampleValue(s.value[1]);
      if (!Number.isNaN(v)) m.set(inst, v);
    }
    fields.push({ refId: r.refId, unit: r.unit, byInstance: m });
  }

  const judgedRefs = new Set([...rules.map((r) => r.refId), ...lifecycleRefIds(opts.lifecycle)]);
  const judged = fields.filter((f) => judgedRefs.has(f.refId));
  const out: HexCellData[] = [];
  for (const [id, c] of acc) {
    const instances = [...c.instances].sort();
    const values: Record<string, number | undefined> = {};
    for (const f of fields) {
      const how = combineFor(f.unit);
      let v: number | undefined;
      for (const i of instances) {
        const x = f.byInstance.get(i);
        if (x === undefined) continue;
        v = v === undefined ? x : how === 'sum' ? v + x : Math.max(v, x);
      }
      values[f.refId] = v;
    }
    // Worst health over the instances; a cell without instances is judged on its combined values.
    let health: HealthState = 'nodata';
    let reasons: HealthReason[] = [];
    for (let k = 0; k < Math.max(1, instances.length); k++) {
      let vals: Record<string, number | undefined> = values;
      if (instances.length > 0) {
        vals = {};
        for (const f of judged) vals[f.refId] = f.byInstance.get(instances[k]);
      }
      const h = instanceHealth(vals, rules, opts.lifecycle);
      if (healthRank(h.state) > healthRank(health)) {
        health = h.state;
        reasons = h.reasons;
      }
    }
    const labels: Record<string, string> = {};
    const labelSets: Record<string, string[]> = {};
    for (const [k, set] of c.labels) {
      labelSets[k] = [...set].sort();
      labels[k] = labelSets[k].join(', ');
    }
    out.push({ id, value: c.value, group: c.group, instances, labels, labelSets, values, health, reasons });
  }
  return out;
}

/** Counts of cells per health state (the legend). */
export function healthCounts(cells: readonly HexCellData[]): Record<HealthState, number> {
  const counts = Object.fromEntries(HEALTH_STATES.map((s) => [s, 0])) as Record<HealthState, number>;
  for (const c of cells) counts[c.health]++;
  return counts;
}

/** View value → the instances of its cells (across groups), for the selection filter. */
export function cellInstanceMap(cells: readonly HexCellData[]): Map<string, string[]> {
  const m = new Map<string, Set<string>>();
  for (const c of cells) {
    let set = m.get(c.value);
    if (set === undefined) m.set(c.value, (set = new Set()));
    for (const i of c.instances) set.add(i);
  }
  return new Map([...m].map(([k, v]) => [k, [...v].sort()]));
}
