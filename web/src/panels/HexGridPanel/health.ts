/**
 * Health of an instance (a hex-grid cell, an instance-table row), one word per meaning
 * (docs/design/health-states.md):
 *
 * - `down`: an engine on it crashed and is restarting, or cannot be scraped while its platform
 *   does not say it is starting;
 * - `critical`, `warning`: the worst verdict of the threshold rules (a query's value against its
 *   steps; steps work as Grafana's: a value is in the state of the highest step it reaches);
 * - `starting`: a replica on it is in its cold start (created, downloading, loading weights,
 *   warming up): capacity on its way, not a fault;
 * - `healthy`: every rule with a value is within its thresholds;
 * - `idle`: scraped, but no engine runs on it: paid for, serving nothing;
 * - `nodata`: none of the above could be judged.
 *
 * The lifecycle states come from per-instance queries (`LifecycleQueries`: a value above 0 is the
 * state), the others from the rules; an instance takes the worst, and a cell the worst over its
 * instances (`HEALTH_STATES` is the order).
 */
import type { LifecycleQueries, Threshold } from '../../../../src/dashboards/types.js';

/** A cell's health. */
export type HealthState = 'down' | 'critical' | 'warning' | 'starting' | 'healthy' | 'idle' | 'nodata';

/** A threshold rule's verdict on one value (the dashboards' step states). */
export type ThresholdState = Threshold['state'];

/** Every state, worst first: the legend's order and the ranking of "worst of". */
export const HEALTH_STATES: readonly HealthState[] = ['down', 'critical', 'warning', 'starting', 'healthy', 'idle', 'nodata'];

const RANK: Readonly<Record<HealthState, number>> = Object.fromEntries(HEALTH_STATES.map((s, i) => [s, HEALTH_STATES.length - i])) as Record<HealthState, number>;

/** The ordering used for sorting and for "worst of": higher is worse. */
export function healthRank(s: HealthState): number {
  return RANK[s];
}

/** Human names of the states. */
export const HEALTH_NAME: Readonly<Record<HealthState, string>> = {
  down: 'Down',
  critical: 'Critical',
  warning: 'Warning',
  starting: 'Starting',
  healthy: 'Healthy',
  idle: 'Idle',
  nodata: 'No data',
};

/** What each state means, for the legend's and the hover card's explanation. */
export const HEALTH_MEANING: Readonly<Record<HealthState, string>> = {
  down: 'an engine crashed and is restarting, or cannot be scraped',
  critical: 'a health rule is past its critical threshold',
  warning: 'a health rule is past its warning threshold',
  starting: 'cold start in progress: the replica is being created, downloads or loads its model, or warms up',
  healthy: 'every health rule is within its thresholds',
  idle: 'the instance is scraped and paid for, but runs no engine',
  nodata: 'nothing to judge yet: no health rule has a value',
};

/** The glyph of each state (cells draw it when they are large enough; the legend always does). */
export const HEALTH_GLYPH: Readonly<Record<HealthState, string>> = {
  down: '▼',
  critical: '✖',
  warning: '▲',
  starting: '◔',
  healthy: '✓',
  idle: '◌',
  nodata: '?',
};

/** The cell state of a threshold verdict. */
export function fromThreshold(s: ThresholdState): HealthState {
  return s === 'ok' ? 'healthy' : s;
}

/** The state of `value` under `thresholds` (unordered steps); `ok` below every step, undefined for a missing value. */
export function thresholdState(value: number | undefined, thresholds: readonly Threshold[]): ThresholdState | undefined {
  if (value === undefined || Number.isNaN(value)) return undefined;
  let state: ThresholdState = 'ok';
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
  readonly state: ThresholdState;
}

/** An instance's state and the verdict of each rule that had a value. */
export interface InstanceHealth {
  readonly state: HealthState;
  readonly reasons: HealthReason[];
}

/**
 * The state of one instance from its values (refId → value): the worst of the rules' verdicts
 * and of the lifecycle states whose query is above 0; `nodata` when nothing applies.
 */
export function instanceHealth(values: Readonly<Record<string, number | undefined>>, rules: readonly HealthRule[], lifecycle: LifecycleQueries = {}): InstanceHealth {
  let state: HealthState = 'nodata';
  const worse = (s: HealthState): void => {
    if (RANK[s] > RANK[state]) state = s;
  };
  const reasons: HealthReason[] = [];
  for (const rule of rules) {
    const v = values[rule.refId];
    const s = thresholdState(v, rule.thresholds);
    if (s === undefined || v === undefined) continue;
    reasons.push({ refId: rule.refId, value: v, state: s });
    worse(fromThreshold(s));
  }
  for (const s of ['down', 'starting', 'idle'] as const) {
    const refId = lifecycle[s];
    const v = refId === undefined ? undefined : values[refId];
    if (v !== undefined && v > 0) worse(s);
  }
  return { state, reasons };
}

/** The refIds the lifecycle states are read from. */
export function lifecycleRefIds(lifecycle: LifecycleQueries | undefined): string[] {
  return lifecycle === undefined ? [] : [lifecycle.down, lifecycle.starting, lifecycle.idle].filter((r): r is string => r !== undefined);
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
