// Each detector against its fault scenario and against the steady fleet: the simulator scraped
// into the embedded TSDB in virtual time at 15 s (test/dashboards/live-fleet.ts: manual clock, real
// scrape manager, normalizer and PromQL engine behind EngineQueryClient), diagnosed by the real
// `createDiagnoser` at a fixed time after the fault's onset. The accuracy over varied magnitudes,
// scopes, onsets and seeds is the bench's (bench/diagnose); these pin each shipped scenario.
import { beforeAll, describe, expect, it } from 'vitest';
import { CAUSE_IDS, DETECTORS, createDiagnoser, type Diagnosis } from '../../src/diagnose/index.js';
import { SCENARIOS, type FaultSpec } from '../../src/sim/index.js';
import { runLiveFleet } from '../dashboards/live-fleet.js';

const MIN = 60_000;
const SCOPE_LABEL: Readonly<Record<string, string>> = { instanceType: 'instance_type' };

/** Runs `scenario` and diagnoses at each of `atMs` (ms after the start). */
async function diagnoseAt(scenario: string, atMs: readonly number[]): Promise<Diagnosis[]> {
  const out: Diagnosis[] = [];
  let start: number | undefined;
  const fleet = await runLiveFleet({
    scenario,
    durationMs: Math.max(...atMs),
    scrapeIntervalS: 15,
    onStep: async (nowMs, _app, client) => {
      start ??= nowMs - 1000;
      if (atMs.includes(nowMs - start)) out.push(await createDiagnoser(client)({ timeMs: nowMs }));
    },
  });
  await fleet.close();
  return out;
}

/** How long after onset each scenario is diagnosed: quality scores are slow means, and a cold start is slow only once its download has run for minutes. */
const AFTER_MS: Readonly<Record<string, number>> = { 'quality-drift': 7 * MIN, 'cold-start-storm': 4 * MIN };

const FAULTS = Object.values(SCENARIOS).filter((s) => s.faults.length > 0);

describe('each detector names its fault scenario', () => {
  it.each(FAULTS.map((s) => [s.name, s.faults[0]] as [string, FaultSpec]))('%s', async (name, fault) => {
    const at = fault.startMs + (AFTER_MS[name] ?? 3 * MIN);
    const [d] = await diagnoseAt(name, [at]);
    const top = d.causes[0];
    expect(top.cause, JSON.stringify(d.causes.slice(0, 3))).toBe(fault.kind);
    expect(top.confidence).toBeGreaterThanOrEqual(0.5);
    for (const [k, v] of Object.entries(fault.scope)) {
      const got = top.scope[SCOPE_LABEL[k] ?? k];
      if (got !== undefined) expect(got).toBe(v);
    }
    expect(Object.keys(top.scope).length).toBeGreaterThan(0);
    expect(top.evidence.length).toBeGreaterThan(0);
    expect(top.evidence[0].incident).not.toBeNull();
    expect(top.summary).toMatch(/\.$/);
    // The onset is the cause's own signal starting: after the baseline, no later than the diagnosis.
    expect(top.onsetMs).not.toBeNull();
    expect((top.onsetMs ?? 0) - d.timeMs).toBeLessThanOrEqual(0);
    expect(d.timeMs - (top.onsetMs ?? 0)).toBeLessThanOrEqual(at - fault.startMs + 2 * MIN);
  }, 300_000);
});

describe('the steady fleet', () => {
  let diagnoses: Diagnosis[] = [];
  beforeAll(async () => {
    diagnoses = await diagnoseAt('steady', [6 * MIN, 12 * MIN, 18 * MIN, 24 * MIN]);
  }, 300_000);

  it('answers none (or load: demand, nothing broken) first', () => {
    expect(diagnoses.map((d) => d.causes[0].cause).filter((c) => c !== 'none' && c !== 'load')).toEqual([]);
    expect(diagnoses).toHaveLength(4);
  });

  it.each(DETECTORS.filter((d) => d.cause !== 'load').map((d) => d.cause))('%s stays under the naming threshold', (cause) => {
    for (const d of diagnoses) {
      const c = d.causes.find((x) => x.cause === cause);
      expect(c?.confidence ?? 0, c?.summary).toBeLessThan(0.5);
    }
  });

  it('gives every cause id a detector or the ranking', () => {
    expect([...DETECTORS.map((d) => d.cause), 'none'].sort()).toEqual([...CAUSE_IDS].sort());
  });
});
