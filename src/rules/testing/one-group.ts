/**
 * A one-group harness for the unit tests of src/rules/eval: a group over a scripted query client
 * and a recording appendable, evaluated by hand on a virtual clock.
 */
import { VirtualTimers, type UnixMs } from '../../model/index.js';
import type { InstantQueryData, QueryOptions } from '../../query/index.js';
import { RecordingAppendable, ScriptedQueryClient, vectorResult } from './doubles.js';
import { groupSpec } from './specs.js';
import type { Alert, RuleSpec } from '../types.js';
import { RuleGroup } from '../eval/group.js';
import { groupPorts, type RuleManagerOptions } from '../eval/manager.js';

/** The harness' first evaluation time (a whole minute). */
export const T0: UnixMs = Date.UTC(2025, 0, 6, 9, 0, 0);
/** The harness' interval. */
export const STEP = 60_000;

/** A script of one series: its value at each step, null where the query returns nothing. */
export function seriesScript(values: readonly (number | null)[], metric: Record<string, string> = { __name__: 'up', instance: 'a' }) {
  return (_q: string, tMs: UnixMs): InstantQueryData => {
    const v = values[Math.round((tMs - T0) / STEP)] ?? null;
    return vectorResult(tMs, v === null ? [] : [[metric, v]]);
  };
}

/** Builds the harness. */
export function oneGroup(
  rules: readonly RuleSpec[],
  answer: (q: string, tMs: UnixMs, o: QueryOptions | undefined) => InstantQueryData | Promise<InstantQueryData>,
  o: { limit?: number; queryOffsetMs?: number; options?: Partial<RuleManagerOptions> } = {},
) {
  const timers = new VirtualTimers(T0);
  const appendable = new RecordingAppendable();
  const client = new ScriptedQueryClient(answer);
  const sent: Alert[][] = [];
  const ports = groupPorts({ query: client, appendable, clock: timers.clock, timers, notify: { send: (a) => void sent.push([...a]) }, ...o.options });
  const group = new RuleGroup(groupSpec('g', rules, { intervalMs: STEP, limit: o.limit, queryOffsetMs: o.queryOffsetMs }), { defaultIntervalMs: STEP, defaultQueryOffsetMs: 0, restored: true }, ports);
  /** Evaluates at step `i` (time T0 + i × STEP). */
  const step = async (i: number): Promise<void> => {
    timers.moveTo(T0 + i * STEP);
    await group.evaluate(T0 + i * STEP);
  };
  return { timers, appendable, client, sent, group, step };
}
