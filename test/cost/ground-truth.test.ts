// The cost view against the simulator's ground truth: its instance prices and GPU allocation,
// integrated over virtual time from the simulation's own state (cost-fleet.ts). The fleet is
// scraped every 60 s and the evaluator ticks every 60 s, as test/rules/pack-steady.test.ts runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METRIC } from '../../src/semconv/index.js';
import { lastValues, runCostFleet, type CostRun } from './cost-fleet.js';

const MIN = 60_000;
const DAY_MS = 24 * 60 * MIN;

/** Each component's accumulated cost as the evaluator last wrote it, by `endpoint/component`. */
function accumulated(r: CostRun): Map<string, number> {
  return new Map([...lastValues(r.samples, METRIC.LLM_COST_DOLLARS_TOTAL).values()].map((x) => [`${x.labels.endpoint}/${x.labels.component}`, x.value]));
}

describe('cost per component over a simulated day with autoscaling', () => {
  let run: CostRun;
  beforeAll(async () => {
    run = await runCostFleet({ scenario: 'demo', durationMs: DAY_MS });
    // About two minutes on a quiet machine; several under load.
  }, 1_200_000);
  afterAll(() => run.fleet.close());

  it('is within 1 % of the ground truth for every component', () => {
    const got = accumulated(run);
    expect([...got.keys()].sort()).toEqual([...run.truthDollars.keys()].sort());
    for (const [k, truth] of run.truthDollars) {
      expect(truth, k).toBeGreaterThan(10);
      expect(Math.abs(got.get(k)! / truth - 1), `${k}: ${got.get(k)} against ${truth}`).toBeLessThan(0.01);
    }
  });

  it('scaled during the day (the test covers autoscaling)', () => {
    const gpus = [...run.samples].filter((s) => s.labels.__name__ === METRIC.LLM_COMPONENT_GPUS && s.labels.component === 'gpt-oss-20b').map((s) => s.value);
    expect(Math.max(...gpus)).toBeGreaterThan(Math.min(...gpus.filter((x) => !Number.isNaN(x))));
  });

  it('does not flag the healthy fleet at low demand below its benchmark', () => {
    expect(run.summary.findings.filter((f) => f.kind === 'below-benchmark')).toEqual([]);
    for (const c of run.summary.components) if (c.benchmarkEfficiency !== null) expect(c.benchmarkEfficiency, c.component).toBeGreaterThan(0.75);
  });
});

describe('idle GPUs', () => {
  it('finds the instance no replica holds', async () => {
    const r = await runCostFleet({ scenario: 'idle-instance', durationMs: 20 * MIN });
    try {
      expect(r.summary.idle.gpus).toBe(1);
      // One ml.g6.xlarge GPU at the simulator's price.
      expect(r.summary.idle.dollarsPerHour).toBeCloseTo(1.167, 6);
      const f = r.summary.findings.filter((x) => x.kind === 'idle-gpus');
      expect(f.map((x) => x.scope)).toEqual([{ endpoint: 'spare-prod' }]);
      expect(f[0].text).toMatch(/^spare-prod: 1 of 3 GPUs idle \(1 held by no replica\) for \d+m, \$28\.01 a day$/);
      expect(f[0].dollarsPerDay).toBeCloseTo(1.167 * 24, 6);
    } finally {
      await r.fleet.close();
    }
  }, 300_000);
});

describe('bound verdicts', () => {
  it('reads the decode-heavy replica memory-bound and the prefill-heavy one compute-bound', async () => {
    const r = await runCostFleet({ scenario: 'bound-mix', durationMs: 20 * MIN });
    try {
      const by = new Map(r.summary.verdicts.map((v) => [v.component, v]));
      expect(by.get('decode-heavy')?.bound, by.get('decode-heavy')?.reason).toBe('memory');
      expect(by.get('prefill-heavy')?.bound, by.get('prefill-heavy')?.reason).toBe('compute');
      expect(by.get('decode-heavy')?.reason).toMatch(/^DRAM \d+% busy against tensor \d+%: decode-heavy, memory-bound$/);
    } finally {
      await r.fleet.close();
    }
  }, 300_000);
});

describe('throughput below benchmark', () => {
  it('flags the misconfigured engine, and only it', async () => {
    const r = await runCostFleet({
      scenario: 'demo',
      durationMs: 40 * MIN,
      faults: [{ kind: 'throughput-below-benchmark', startMs: 10 * MIN, endMs: 60 * MIN, scope: { instanceType: 'ml.g5.12xlarge', component: 'gpt-oss-20b' } }],
    });
    try {
      const eff = new Map(r.summary.components.map((c) => [c.component, c.benchmarkEfficiency]));
      expect(eff.get('gpt-oss-20b')).toBeLessThan(0.7);
      expect(eff.get('qwen2-5-7b-instruct')).toBeGreaterThan(0.75);
      const below = r.summary.findings.filter((f) => f.kind === 'below-benchmark');
      expect(below.map((f) => f.scope.component)).toEqual(['gpt-oss-20b']);
      expect(below[0].text).toMatch(/^gpt-oss-20b: generates \d+% of its benchmark at the concurrency it runs/);
      expect(below[0].dollarsPerDay).toBeGreaterThan(0);
    } finally {
      await r.fleet.close();
    }
  }, 300_000);
});
