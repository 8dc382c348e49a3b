/**
 * Health of a hex-grid cell: each rule (a query's value against its thresholds) gives a state,
 * and the cell takes the worst; a cell with no value for any rule is `unknown`. Threshold steps
 * work as Grafana's: a value is in the state of the highest step whose `value` it reaches.
 */
import type { Threshold } from '../../../../src/dashboards/types.js';

/** A cell's health. */
export type HealthState = 'ok' | 'warning' | 'critical' | 'unknown';

/** Worst first. */
const RANK: Readonly<Record<HealthState, number>> = { critical: 3, warning: 2, ok: 1, unknown: 0 };

/** The ordering used for sorting and for "worst of". */
export function healthRank(s: HealthState): number {
  return RANK[s];
}

/** The state of `value` under `thresholds` (unordered steps); `ok` below every step, undefined for a missing value. */
export function thresholdState(value: number | undefined, thresholds: readonly Threshold[]): Exclude<HealthState, 'unknown'> | undefined {
  if (value === undefined || Number.isNaN(value)) return undefined;
  let state: Threshold['state'] = 'ok';
  let best = Number.NEGATIVE_INFINITY;
  for (const t of thresholds) {
    if (value >= t.value && t.value >= best) {
      best = t.value;
      state = t.state;
    }
  }
  return state;
}

/** A health rule: a query's value and its thresholds. */
export interface HealthRule {
  readonly refId: string;
  readonly thresholds: readonly Threshold[];
}

/** One rule's verdict for a cell. */
export interface HealthReason {
  readonly refId: string;
  readonly value: number;
  readonly state: Exclude<HealthState, 'unknown'>;
}

/** The worst state over the rules, with the verdict of each rule that had a value. */
export function cellHealth(values: Readonly<Record<string, number | undefined>>, rules: readonly HealthRule[]): { state: HealthState; reasons: HealthReason[] } {
  let state: HealthState = 'unknown';
  const reasons: HealthReason[] = [];
  for (const rule of rules) {
    const v = values[rule.refId];
    const s = thresholdState(v, rule.thresholds);
    if (s === undefined || v === undefined) continue;
    reasons.push({ refId: rule.refId, value: v, state: s });
    if (RANK[s] > RANK[state]) state = s;
  }
  return { state, reasons };
}

/**
 * Rules with thresholds overridden from the UI: `overrides[refId] = [warning, critical]` replaces
 * that rule's steps with ok / warning / critical at those values.
 */
export function applyThresholdOverrides(rules: readonly HealthRule[], overrides: Readonly<Record<string, readonly number[]>>): HealthRule[] {
  return rules.map((r) => {
    const o = overrides[r.refId];
    if (o === undefined || o.length < 2) return r;
    return {
      refId: r.refId,
      thresholds: [
        { value: Number.NEGATIVE_INFINITY, state: 'ok' },
        { value: o[0], state: 'warning' },
        { value: o[1], state: 'critical' },
      ],
    };
  });
}

/** A rule's [warning, critical] values (NaN where the rule has no such step), for the thresholds editor. */
export function ruleLimits(rule: HealthRule): [number, number] {
  const first = (state: Threshold['state']): number => {
    const vals = rule.thresholds.filter((t) => t.state === state).map((t) => t.value);
    return vals.length === 0 ? Number.NaN : Math.min(...vals);
  };
  return [first('warning'), first('critical')];
}
