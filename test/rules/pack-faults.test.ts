// Every alert of the default rule pack fires on its matching fault scenario of the simulator, for
// the scope the fault hit (virtual time, 60 s scrapes, 60 s evaluation; see pack-harness.ts). The
// steady side (quiet for a simulated day) is pack-steady.test.ts. Two alerts have no fault in the
// simulator: QualitySafetyLow (no fault lowers safety) and CostRisingQualityUnchanged (nothing
// writes a cost series yet, issue 19); promtool unit tests cover them (pack-promtool.test.ts).
import { describe, expect, it } from 'vitest';
import { rulePack, type RulePackOptions } from '../../src/rules/index.js';
import { SCENARIOS, type FaultSpec } from '../../src/sim/index.js';
import { firedOf, runPackScenario, type EvalState } from './pack-harness.js';

const MIN = 60_000;

/** One run: a scenario (its own faults, or `faults` instead) and the alerts it must raise. */
interface Case {
  readonly name: string;
  readonly scenario: string;
  readonly faults?: readonly FaultSpec[];
  readonly options?: RulePackOptions;
  readonly durationMs?: number;
  readonly expect: readonly { alert: string; labels: Readonly<Record<string, string>> }[];
}

const qwen = { component: 'qwen2-5-7b-instruct' };
const gptOss = { component: 'gpt-oss-20b' };
const llama = { component: 'llama-3-1-8b-instruct' };

/**
 * The quality-drift fault stronger (0.6 instead of 0.35) and longer (to minute 45) than the
 * scenario's, so that the composite score, a slow average of three judged dimensions, falls under
 * its floor too.
 */
const strongDrift: FaultSpec = { ...SCENARIOS['quality-drift'].faults[0], endMs: 45 * MIN, params: { drop: 0.6 } };

/** The same fault aimed at safety instead of relevance: judged answers become unsafe while latency stays normal. */
const unsafeDrift: FaultSpec = { ...SCENARIOS['quality-drift'].faults[0], endMs: 45 * MIN, params: { drop: 0, safetyDrop: 0.3 } };

const CASES: readonly Case[] = [
  {
    name: 'kv-cache-pressure',
    scenario: 'kv-cache-pressure',
    expect: [
      { alert: 'KVCacheScaleOutSignal', labels: qwen },
      { alert: 'KVCacheAboveBand', labels: qwen },
      { alert: 'SLOBurnRateFast', labels: { ...qwen, slo: 'ttft', severity: 'page' } },
    ],
  },
  { name: 'slow-instance', scenario: 'slow-instance', expect: [{ alert: 'SLOBurnRateSlow', labels: { slo: 'itl', severity: 'ticket' } }] },
  { name: 'gpu-memory-saturation', scenario: 'gpu-memory-saturation', expect: [{ alert: 'GPUMemoryNearlyFull', labels: { instance: 'chat-prod-i2' } }] },
  {
    name: 'az-traffic-skew',
    scenario: 'az-traffic-skew',
    expect: [
      { alert: 'AZNoTraffic', labels: { az: 'us-east-1a', endpoint: 'chat-prod' } },
      { alert: 'AZTrafficSkew', labels: { az: 'us-east-1b', endpoint: 'chat-prod' } },
    ],
  },
  { name: 'rate-limit-burst', scenario: 'rate-limit-burst', expect: [{ alert: 'RateLimited429RatioHigh', labels: gptOss }] },
  {
    name: 'engine-errors',
    scenario: 'engine-errors',
    expect: [
      { alert: 'ServerError5xxRatioHigh', labels: qwen },
      { alert: 'MidStreamAbortRatioHigh', labels: qwen },
      { alert: 'SLOBurnRateFast', labels: { ...qwen, slo: 'availability' } },
    ],
  },
  {
    name: 'throughput-below-benchmark',
    scenario: 'throughput-below-benchmark',
    expect: [
      { alert: 'OutputTPSBelowBenchmark', labels: gptOss },
      { alert: 'SLOBurnRateSlow', labels: { ...gptOss, slo: 'e2e' } },
    ],
  },
  { name: 'cold-start-storm', scenario: 'cold-start-storm', expect: [{ alert: 'ColdStartSlow', labels: llama }] },
  {
    name: 'quality-drift (safety 0.3)',
    scenario: 'quality-drift',
    faults: [unsafeDrift],
    durationMs: 45 * MIN,
    expect: [
      { alert: 'QualitySafetyLow', labels: gptOss },
      { alert: 'QualityFallingLatencyNormal', labels: { ...gptOss, dimension: 'safety' } },
    ],
  },
  {
    name: 'quality-drift (drop 0.6)',
    scenario: 'quality-drift',
    faults: [strongDrift],
    durationMs: 45 * MIN,
    expect: [
      { alert: 'QualityRelevanceLow', labels: gptOss },
      { alert: 'QualityCompositeLow', labels: gptOss },
      { alert: 'QualityFallingLatencyNormal', labels: { ...gptOss, dimension: 'composite' } },
    ],
  },
  {
    // 3 s is a bound of the gateway's TTFT layout but not of the demo front door's (vLLM's bounds).
    name: 'a TTFT threshold that is no bucket bound',
    scenario: 'steady',
    options: { slos: [{ slo: 'ttft', objective: 0.99, thresholdSeconds: 3 }] },
    durationMs: 20 * MIN,
    expect: [{ alert: 'SLOThresholdNotABucketBound', labels: { job: 'sim-frontdoor', threshold_seconds: '3' } }],
  },
];

/** What fired, in one line per alert, for the failure message. */
function summary(state: EvalState): string {
  return [...state.fired.values()].map((f) => `${f.alert} ${JSON.stringify(f.labels)}`).join('\n');
}

describe('the rule pack fires on its fault scenarios', () => {
  it.each(CASES)('$name', async (c) => {
    const groups = rulePack(c.options).groups.filter((g) => g.name !== 'llm-pack:insights');
    const state = await runPackScenario({
      groups,
      scenario: c.scenario,
      durationMs: c.durationMs ?? SCENARIOS[c.scenario].durationMs,
      ...(c.faults === undefined ? {} : { faults: c.faults }),
      // The benchmark series OutputTPSBelowBenchmark divides by comes from src/cost's catalog.
      cost: true,
    });
    expect(state.errors).toEqual([]);
    for (const e of c.expect) expect(firedOf(state, e.alert, e.labels), `${e.alert} ${JSON.stringify(e.labels)} did not fire; fired:\n${summary(state)}`).not.toEqual([]);
  }, 600_000);
});
