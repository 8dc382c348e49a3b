// Runs rule groups over a simulated fleet in virtual time: the fleet of test/dashboards/live-fleet.ts
// (simulator, real scrape manager, normalizer, TSDB, PromQL engine behind a QueryClient), with the
// groups evaluated live at every tick of their interval, recorded series written back into the
// store, and every alert's pending and firing state tracked with its `for`.
//
// `evaluateGroup` is the ONE place that evaluates rules. Until src/rules/eval (rules-eval) lands it
// is a small stand-in: each expression as an instant query at the tick, recording rules appended
// and committed rule by rule (so later rules of the group read them, as in Prometheus), alerts
// pending from their first active tick and firing once active for `for`. Swap in the real
// RuleManager here and every pack test runs on it.
import { Labels } from '../../src/model/index.js';
import { parseSampleValue, type QueryClient } from '../../src/query/index.js';
import type { RuleGroupSpec } from '../../src/rules/index.js';
import type { FaultSpec } from '../../src/sim/index.js';
import type { Appendable } from '../../src/storage/index.js';
import { runLiveFleet } from '../dashboards/live-fleet.js';

/** One alert that fired: its name, its labels (result labels plus the rule's), and when it first fired. */
export interface FiredAlert {
  readonly alert: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly firstFiredMs: number;
  readonly value: number;
}

/** What the evaluator keeps between ticks for one group. */
export interface GroupState {
  /** Per alerting rule (by index in the group) and label set: when it became active. */
  readonly activeSince: Map<number, Map<string, number>>;
}

/** The state of a set of groups, and everything that fired. */
export interface EvalState {
  readonly groups: Map<RuleGroupSpec, GroupState>;
  /** Firing alerts, keyed by alert name and labels, with the first time they fired. */
  readonly fired: Map<string, FiredAlert>;
  /** Queries that failed (an expression the engine refused), with their error. */
  readonly errors: string[];
  /** Samples written per recorded series name. */
  readonly recorded: Map<string, number>;
  /** The first evaluation time. */
  startMs: number;
}

/** A fresh evaluation state. */
export function newEvalState(): EvalState {
  return { groups: new Map(), fired: new Map(), errors: [], recorded: new Map(), startMs: 0 };
}

function key(labels: Readonly<Record<string, string>>): string {
  return JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Evaluates one group at `tMs`: THE function to replace with the real rule manager. */
export async function evaluateGroup(g: RuleGroupSpec, tMs: number, client: QueryClient, appendable: Appendable, state: EvalState): Promise<void> {
  let gs = state.groups.get(g);
  if (gs === undefined) {
    gs = { activeSince: new Map() };
    state.groups.set(g, gs);
  }
  for (const [i, r] of g.rules.entries()) {
    let result: { metric: Record<string, string>; value: number }[];
    try {
      const res = await client.instant(r.expr, tMs);
      const d = res.data;
      result =
        d.resultType === 'vector'
          ? d.result.map((s) => ({ metric: s.metric, value: parseSampleValue(s.value[1]) }))
          : d.resultType === 'scalar'
            ? [{ metric: {}, value: parseSampleValue(d.result[1]) }]
            : [];
    } catch (e) {
      if (state.errors.length < 20) state.errors.push(`${r.kind === 'recording' ? r.record : r.alert}: ${(e as Error).message}`);
      continue;
    }
    if (r.kind === 'recording') {
      const app = appendable.appender();
      for (const s of result) {
        const { __name__: _drop, ...rest } = s.metric;
        app.append(0, Labels.from({ ...rest, ...r.labels, __name__: r.record }), tMs, s.value);
      }
      await app.commit();
      state.recorded.set(r.record, (state.recorded.get(r.record) ?? 0) + result.length);
      continue;
    }
    let active = gs.activeSince.get(i);
    if (active === undefined) {
      active = new Map();
      gs.activeSince.set(i, active);
    }
    const now = new Set<string>();
    for (const s of result) {
      const { __name__: _drop, ...rest } = s.metric;
      const labels = { ...rest, ...r.labels, alertname: r.alert };
      const k = key(labels);
      now.add(k);
      const since = active.get(k) ?? tMs;
      active.set(k, since);
      if (tMs - since >= r.forMs && !state.fired.has(k)) state.fired.set(k, { alert: r.alert, labels, firstFiredMs: tMs, value: s.value });
    }
    for (const k of [...active.keys()]) if (!now.has(k)) active.delete(k);
  }
}

/** Options of `runPackScenario`. */
export interface PackScenarioOptions {
  readonly groups: readonly RuleGroupSpec[];
  readonly scenario: string;
  readonly durationMs: number;
  readonly faults?: readonly FaultSpec[];
  readonly seed?: number;
  /** Scrape interval, seconds (default 60: a coarse interval keeps a simulated day affordable). */
  readonly scrapeIntervalS?: number;
  /** The global evaluation interval for groups without their own (default 60 s). */
  readonly evalIntervalMs?: number;
}

/** Runs the fleet with the groups evaluated live; returns what fired and the query errors. */
export async function runPackScenario(o: PackScenarioOptions): Promise<EvalState> {
  const state = newEvalState();
  const evalMs = o.evalIntervalMs ?? 60_000;
  let startMs: number | undefined;
  const fleet = await runLiveFleet({
    scenario: o.scenario,
    durationMs: o.durationMs,
    scrapeIntervalS: o.scrapeIntervalS ?? 60,
    ...(o.faults === undefined ? {} : { faults: o.faults }),
    ...(o.seed === undefined ? {} : { seed: o.seed }),
    onStep: async (nowMs, appendable, client) => {
      if (startMs === undefined) {
        startMs = nowMs;
        state.startMs = nowMs;
      }
      const elapsed = nowMs - startMs;
      for (const g of o.groups) {
        if (elapsed > 0 && elapsed % (g.intervalMs ?? evalMs) === 0) await evaluateGroup(g, nowMs, client, appendable, state);
      }
    },
  });
  await fleet.close();
  return state;
}

/** The fired alerts named `alert` whose labels include `match`. */
export function firedOf(state: EvalState, alert: string, match: Readonly<Record<string, string>> = {}): FiredAlert[] {
  return [...state.fired.values()].filter((f) => f.alert === alert && Object.entries(match).every(([k, v]) => f.labels[k] === v));
}
