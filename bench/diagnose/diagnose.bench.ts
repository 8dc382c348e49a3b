/**
 * Diagnosis accuracy: every fault scenario of the simulator, variations of them, combinations of
 * two faults and decoys (cases.ts), each replayed through the real scrape path, TSDB and PromQL
 * engine in virtual time at a 15 s scrape interval (test/dashboards/live-fleet.ts), diagnosed every
 * 30 simulated seconds from a minute before onset. Then the steady demo fleet (two-hour diurnal
 * cycle, bursts, autoscaling) for BENCH_STEADY_HOURS, diagnosed every 5 minutes, for false insights.
 *
 * Scored per run: top-1 and top-3 at the scoring time (8 min after onset, or 30 s before the
 * fault ends if sooner; a combination counts top-1 when either cause leads and top-3 when both
 * are in the first three), the delay from onset to the first correct top-1, and, for decoys and
 * the steady fleet, a fault named first (anything but `none` or `load`; for a decoy also counted over
 * every diagnosis of its last 5 minutes before scoring). A cause is correct when
 * its id matches and its scope contradicts no label of the fault's scope. One JSON line; a line
 * per run on stderr.
 *
 * Env: BENCH_STEADY_HOURS (default 24), BENCH_CASES (a substring: only runs whose name has it).
 */
import { createDiagnoser, type Cause, type Diagnosis } from '../../src/diagnose/index.js';
import type { FaultSpec } from '../../src/sim/index.js';
import { runLiveFleet } from '../../test/dashboards/live-fleet.js';
import { BENCH_CASES, type BenchCase } from './cases.js';

const STEADY_HOURS = Number(process.env.BENCH_STEADY_HOURS ?? 24);
const ONLY = process.env.BENCH_CASES ?? '';
const SCRAPE_S = 15;
const EVERY_MS = 30_000;
const MIN = 60_000;

const SCOPE_KEYS: Readonly<Record<string, string>> = { endpoint: 'endpoint', component: 'component', instance: 'instance', az: 'az', instanceType: 'instance_type', replica: 'replica' };

/** Whether `c` names fault `f`: the same kind, and no scope label that contradicts the fault's. */
function names(c: Cause, f: FaultSpec): boolean {
  if (c.cause !== f.kind) return false;
  return Object.entries(f.scope).every(([k, v]) => {
    const got = c.scope[SCOPE_KEYS[k] ?? k];
    return got === undefined || got === v;
  });
}

const benign = (d: Diagnosis) => d.causes[0].cause === 'none' || d.causes[0].cause === 'load';

interface RunResult {
  readonly c: BenchCase;
  readonly top1: boolean;
  readonly top3: boolean;
  readonly delayS: number | null;
  /** Decoys: diagnoses (every 30 s from 5 min before the scoring time) that named a fault first. */
  readonly falseNamed: number;
  readonly line: string;
}

async function runCase(c: BenchCase): Promise<RunResult> {
  const decoy = c.split === 'decoy';
  const onset = c.faults.length === 0 ? (c.decoyAtMs ?? 0) - 5 * MIN : Math.min(...c.faults.map((f) => f.startMs));
  const end = c.faults.length === 0 ? c.durationMs : Math.min(...c.faults.map((f) => f.endMs));
  const scoreAt = c.decoyAtMs ?? Math.min(onset + 8 * MIN, end - 30_000);
  let start: number | undefined;
  let delayS: number | null = null;
  let scored: Diagnosis | undefined;
  let falseNamed = 0;
  const fleet = await runLiveFleet({
    scenario: c.scenario,
    durationMs: c.durationMs,
    scrapeIntervalS: SCRAPE_S,
    faults: c.faults,
    seed: c.seed,
    onStep: async (nowMs, _app, client) => {
      start ??= nowMs - 1000;
      const el = nowMs - start;
      const atScore = el === scoreAt;
      if (!atScore && (el < onset - MIN || el % EVERY_MS !== 0)) return;
      const d = await createDiagnoser(client)({ timeMs: nowMs });
      if (atScore) scored = d;
      if (decoy && el >= onset && !benign(d)) falseNamed++;
      if (!decoy && delayS === null && el >= onset && c.faults.some((f) => names(d.causes[0], f))) delayS = (el - onset) / 1000;
    },
  });
  await fleet.close();
  if (scored === undefined) throw new Error(`${c.name}: not scored`);
  const top = scored.causes.slice(0, 3);
  const top1 = decoy ? benign(scored) : c.faults.some((f) => names(scored!.causes[0], f));
  const top3 = decoy ? top1 : c.faults.every((f) => top.some((x) => names(x, f)));
  const line = `${c.split} ${c.name}: top1 ${top1} top3 ${top3} ${decoy ? `fault named in ${falseNamed} diagnoses` : `delay ${delayS ?? '-'} s`}; ${top.map((x) => `${x.cause}${JSON.stringify(x.scope)}=${x.confidence}`).join(' ')}`;
  return { c, top1, top3, delayS, falseNamed, line };
}

/** False insights on the steady fleet: runs of consecutive diagnoses that name a fault first. */
async function steady(hours: number): Promise<{ diagnoses: number; falseInsights: number; named: string[] }> {
  let diagnoses = 0;
  let falseInsights = 0;
  let open = false;
  const named: string[] = [];
  let start: number | undefined;
  const fleet = await runLiveFleet({
    scenario: 'demo',
    durationMs: hours * 60 * MIN,
    scrapeIntervalS: SCRAPE_S,
    seed: 11,
    onStep: async (nowMs, _app, client) => {
      start ??= nowMs - 1000;
      const el = nowMs - start;
      if (el < 10 * MIN || el % (5 * MIN) !== 0) return;
      const d = await createDiagnoser(client)({ timeMs: nowMs });
      diagnoses++;
      const bad = !benign(d);
      if (bad && !open) {
        falseInsights++;
        named.push(`+${el / MIN} min ${d.causes[0].cause}${JSON.stringify(d.causes[0].scope)}=${d.causes[0].confidence}`);
      }
      open = bad;
    },
  });
  await fleet.close();
  return { diagnoses, falseInsights, named };
}

function summary(rs: readonly RunResult[]) {
  const faulty = rs.filter((r) => r.c.split !== 'decoy');
  const delays = faulty.map((r) => r.delayS).filter((x): x is number => x !== null).sort((a, b) => a - b);
  const share = (p: (r: RunResult) => boolean, of: readonly RunResult[]) => (of.length === 0 ? null : Math.round((of.filter(p).length / of.length) * 1000) / 1000);
  return {
    runs: rs.length,
    top1Ratio: share((r) => r.top1, rs),
    top3Ratio: share((r) => r.top3, rs),
    within2MinRatio: share((r) => r.delayS !== null && r.delayS <= 120, faulty),
    delayP50Seconds: delays.length === 0 ? null : delays[Math.floor(delays.length / 2)],
    delayMaxSeconds: delays.length === 0 ? null : delays[delays.length - 1],
    neverCorrect: faulty.filter((r) => r.delayS === null).length,
    decoyFaultNamedDiagnoses: rs.reduce((a, r) => a + r.falseNamed, 0),
  };
}

const t0 = performance.now();
const results: RunResult[] = [];
for (const c of BENCH_CASES.filter((x) => x.name.includes(ONLY))) {
  const r = await runCase(c);
  process.stderr.write(`${r.line}\n`);
  results.push(r);
}
const st = STEADY_HOURS > 0 ? await steady(STEADY_HOURS) : { diagnoses: 0, falseInsights: 0, named: [] };
for (const n of st.named) process.stderr.write(`steady false insight ${n}\n`);
console.log(
  JSON.stringify({
    bench: 'diagnose',
    scrapeIntervalSeconds: SCRAPE_S,
    all: summary(results),
    tuned: summary(results.filter((r) => r.c.split === 'tuned')),
    heldOut: summary(results.filter((r) => r.c.split === 'held-out')),
    decoys: summary(results.filter((r) => r.c.split === 'decoy')),
    steadyHours: STEADY_HOURS,
    steadyDiagnoses: st.diagnoses,
    falseInsightsPerDay: STEADY_HOURS > 0 ? Math.round((st.falseInsights / STEADY_HOURS) * 24 * 100) / 100 : null,
    wallSeconds: Math.round((performance.now() - t0) / 1000),
  }),
);
