// Runs rule groups over a simulated fleet in virtual time: the fleet of test/dashboards/live-fleet.ts
// (simulator, real scrape manager, normalizer, TSDB, PromQL engine behind a QueryClient), with the
// groups evaluated live at every tick of their interval, recorded series written back into the
// store, and every alert's pending and firing state tracked with its `for`.
//
// `evaluateGroup` is the ONE place that evaluates rules: the real `RuleGroup` of src/rules/eval,
// evaluated at each tick of the group's interval in virtual time (as `runRulesOver` does).
import { createCostEvaluator, defaultBenchmarkCatalog, defaultPriceCatalog, type CostEvaluator } from '../../src/cost/index.js';
import { MemoryLogger, systemTimers } from '../../src/model/index.js';
import { exprToString, parseExpr } from '../../src/promql/index.js';
import type { QueryClient } from '../../src/query/index.js';
import { RuleGroup, groupPorts, type RuleGroupSpec } from '../../src/rules/index.js';
import type { FaultSpec } from '../../src/sim/index.js';
import { appendableSink } from '../../src/server/series-sink.js';
import type { Appendable } from '../../src/storage/index.js';
import { runLiveFleet } from '../dashboards/live-fleet.js';

/** One alert that fired: its name, its labels (result labels plus the rule's), and when it first fired. */
export interface FiredAlert {
  readonly alert: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly firstFiredMs: number;
  readonly value: number;
}

/** The state of a set of groups, and everything that fired. */
export interface EvalState {
  /** The real rule groups (src/rules/eval), created at their first evaluation. */
  readonly groups: Map<RuleGroupSpec, RuleGroup>;
  /** Firing alerts, keyed by alert name and labels, with the first time they fired. */
  readonly fired: Map<string, FiredAlert>;
  /** Rules whose evaluation failed (an expression the engine refused), with their error. */
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

/**
 * Evaluates one group at `tMs` with the real evaluator: a `RuleGroup` of src/rules/eval (rules in
 * order, each committed before the next, `for`, `keep_firing_for`, ALERTS, stale markers), whose
 * alerts are read after each evaluation to note what fired and when.
 */
export async function evaluateGroup(g: RuleGroupSpec, tMs: number, client: QueryClient, appendable: Appendable, state: EvalState, evalIntervalMs = 60_000): Promise<void> {
  let group = state.groups.get(g);
  if (group === undefined) {
    const ports = groupPorts({ query: client, appendable, clock: () => tMs, timers: systemTimers, logger: new MemoryLogger(), formatExpr: (e) => exprToString(parseExpr(e)) });
    group = new RuleGroup(g, { defaultIntervalMs: evalIntervalMs, defaultQueryOffsetMs: 0, restored: true }, ports);
    state.groups.set(g, group);
  }
  await group.evaluate(tMs);
  for (const [i, r] of group.rules.entries()) {
    if (r.health === 'err' && state.errors.length < 20) state.errors.push(`${r.name}: ${r.lastError ?? ''}`);
    if (r.kind === 'recording') {
      const n = group.seriesInPreviousEval[i].size;
      state.recorded.set(r.name, (state.recorded.get(r.name) ?? 0) + n);
      continue;
    }
    for (const a of r.activeAlerts()) {
      if (a.state !== 'firing') continue;
      const labels = a.labels.toRecord();
      const k = JSON.stringify(Object.entries(labels).sort(([x], [y]) => (x < y ? -1 : 1)));
      if (!state.fired.has(k)) state.fired.set(k, { alert: r.name, labels, firstFiredMs: a.firedAtMs ?? tMs, value: a.value });
    }
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
  /**
   * Run src/cost's evaluator beside the rules (default false), as the server does: it writes the
   * benchmark series the throughput alerts divide by and the cost series the cost alerts read.
   */
  readonly cost?: boolean;
}

/** Runs the fleet with the groups evaluated live; returns what fired and the query errors. */
export async function runPackScenario(o: PackScenarioOptions): Promise<EvalState> {
  const state = newEvalState();
  const evalMs = o.evalIntervalMs ?? 60_000;
  let startMs: number | undefined;
  // The cost evaluator writes the benchmark series the pack's throughput alerts divide by, as the
  // server runs it beside the rules (src/cost's benchmark catalog owns it, not the simulator).
  let cost: CostEvaluator | undefined;
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
      if (o.cost === true) cost ??= createCostEvaluator({ client, sink: appendableSink(appendable), prices: defaultPriceCatalog, benchmarks: defaultBenchmarkCatalog, intervalMs: evalMs, scrapeIntervalMs: (o.scrapeIntervalS ?? 60) * 1000 });
      if (cost !== undefined && elapsed > 0 && elapsed % evalMs === 0) await cost.evaluate(nowMs);
      for (const g of o.groups) {
        if (elapsed > 0 && elapsed % (g.intervalMs ?? evalMs) === 0) await evaluateGroup(g, nowMs, client, appendable, state, evalMs);
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
