// A simulated fleet scraped in virtual time (test/dashboards/live-fleet.ts) with the cost evaluator
// ticking beside it, and the simulator's own ground truth of what each component costs: every
// simulated second, the GPUs its replicas hold times the simulator's GPU price
// (src/sim/data/instance-types.ts), integrated over virtual time from the simulation's state.
import type { SeriesSample, SeriesSink } from '../../src/model/index.js';
import { createCostEvaluator, defaultBenchmarkCatalog, defaultPriceCatalog, type CostEvaluator, type CostSummary } from '../../src/cost/index.js';
import type { FaultSpec, Simulation } from '../../src/sim/index.js';
import { runLiveFleet, type LiveFleet } from '../dashboards/live-fleet.js';

/** A run's results. */
export interface CostRun {
  readonly fleet: LiveFleet;
  readonly evaluator: CostEvaluator;
  /** Every sample the evaluator wrote. */
  readonly samples: SeriesSample[];
  /** Ground truth: `endpoint/component` → dollars over the run (from the evaluator's first tick on). */
  readonly truthDollars: Map<string, number>;
  /** The summary at the end. */
  readonly summary: CostSummary;
  readonly firstTickMs: number;
}

/** Options of `runCostFleet`. */
export interface CostRunOptions {
  readonly scenario: string;
  readonly durationMs: number;
  readonly faults?: readonly FaultSpec[];
  readonly scrapeIntervalS?: number;
  readonly tickMs?: number;
  /** The first tick (ms after the start); the fleet needs a few scrapes first. */
  readonly firstTickAfterMs?: number;
}

function addTruth(sim: Simulation, into: Map<string, number>, seconds: number): void {
  for (const c of sim.fleet.components) {
    let perHour = 0;
    for (const r of c.replicas) perHour += (r.gpuIndices.length * r.instance.type.pricePerHourUsd) / r.instance.type.gpuCount;
    const k = `${c.endpoint.spec.name}/${c.spec.name}`;
    into.set(k, (into.get(k) ?? 0) + (perHour * seconds) / 3600);
  }
}

/** Runs `scenario` for `durationMs` with the cost evaluator ticking every `tickMs` (default 60 s). */
export async function runCostFleet(o: CostRunOptions): Promise<CostRun> {
  const samples: SeriesSample[] = [];
  const sink: SeriesSink = {
    write: (s) => {
      for (const x of s) samples.push(x);
      return Promise.resolve();
    },
  };
  const tickMs = o.tickMs ?? 60_000;
  const truthDollars = new Map<string, number>();
  let evaluator: CostEvaluator | undefined;
  let firstTickMs = 0;
  let startMs: number | undefined;
  let sim: Simulation | undefined;
  const fleet = await runLiveFleet({
    scenario: o.scenario,
    durationMs: o.durationMs,
    scrapeIntervalS: o.scrapeIntervalS ?? 60,
    ...(o.faults === undefined ? {} : { faults: o.faults }),
    onStep: async (nowMs, _appendable, client) => {
      startMs ??= nowMs - 1000;
      evaluator ??= createCostEvaluator({ client, sink, prices: defaultPriceCatalog, benchmarks: defaultBenchmarkCatalog, intervalMs: tickMs, scrapeIntervalMs: (o.scrapeIntervalS ?? 60) * 1000 });
      if (firstTickMs > 0 && sim !== undefined) addTruth(sim, truthDollars, 1);
      if (nowMs % tickMs === 0 && nowMs - startMs >= (o.firstTickAfterMs ?? 5 * 60_000)) {
        if (firstTickMs === 0) firstTickMs = nowMs;
        await evaluator.evaluate(nowMs);
      }
    },
    onSimulation: (s) => {
      sim = s;
    },
  });
  const summary = await evaluator!.summary(fleet.nowMs);
  return { fleet, evaluator: evaluator!, samples, truthDollars, summary, firstTickMs };
}

/** The last value each series of `name` was written with, by its labels. */
export function lastValues(samples: readonly SeriesSample[], name: string): Map<string, { labels: Readonly<Record<string, string>>; value: number }> {
  const out = new Map<string, { labels: Readonly<Record<string, string>>; value: number }>();
  for (const s of samples) if (s.labels.__name__ === name && !Number.isNaN(s.value)) out.set(JSON.stringify(s.labels), { labels: s.labels, value: s.value });
  return out;
}
