/**
 * The runs of the diagnosis bench, as data: every fault scenario of the simulator as it ships
 * ("tuned": what the detectors were developed against, seed 1), variations of each with other
 * magnitudes, scopes, onsets and seeds ("held-out": never looked at while tuning), combinations of
 * two faults, and decoys (a diurnal peak, a healthy scale-out) whose right answer is `none` or
 * `load`.
 */
import type { CauseId } from '../../src/diagnose/index.js';
import { SCENARIOS, type FaultSpec } from '../../src/sim/index.js';

const MIN = 60_000;

/** One bench run. */
export interface BenchCase {
  readonly name: string;
  readonly split: 'tuned' | 'held-out' | 'decoy';
  /** The simulator scenario whose fleet runs (`steady` plus `faults`, or a scenario with its own). */
  readonly scenario: string;
  readonly faults: readonly FaultSpec[];
  readonly seed: number;
  /** The causes a right answer names (a decoy: empty, so `none` or `load`). */
  readonly expect: readonly CauseId[];
  /** For a decoy: when the diagnosis is scored, ms after the start. */
  readonly decoyAtMs?: number;
  readonly durationMs: number;
}

const f = (kind: FaultSpec['kind'], startMin: number, endMin: number, scope: FaultSpec['scope'], params?: FaultSpec['params']): FaultSpec => ({
  kind,
  startMs: startMin * MIN,
  endMs: endMin * MIN,
  scope,
  ...(params === undefined ? {} : { params }),
});

/** Run length: 11 minutes past the first onset. */
const len = (faults: readonly FaultSpec[]) => Math.min(...faults.map((x) => x.startMs)) + 11 * MIN;

const tuned: BenchCase[] = Object.values(SCENARIOS)
  .filter((s) => s.faults.length > 0)
  .map((s) => ({ name: s.name, split: 'tuned', scenario: 'steady', faults: s.faults, seed: 1, expect: [s.faults[0].kind], durationMs: len(s.faults) }));

const held = (name: string, seed: number, ...faults: FaultSpec[]): BenchCase => ({
  name,
  split: 'held-out',
  scenario: 'steady',
  faults,
  seed,
  expect: faults.map((x) => x.kind),
  durationMs: len(faults),
});

const heldOut: BenchCase[] = [
  held('kv-cache-pressure gpt-oss ×2/×2.5 @7', 2, f('kv-cache-pressure', 7, 25, { component: 'gpt-oss-20b' }, { promptScale: 2, outputScale: 2.5 })),
  held('az-traffic-skew 1c→1a @6', 3, f('az-traffic-skew', 6, 25, { endpoint: 'chat-prod', az: 'us-east-1c' }, { toAz: 'us-east-1a' })),
  held('cold-start-storm ×3 30MB/s @6', 2, f('cold-start-storm', 6, 25, { component: 'llama-3-1-8b-instruct' }, { rateMultiplier: 3, downloadMBps: 30 })),
  held('gpu-memory-saturation i3 0.7 @6', 2, f('gpu-memory-saturation', 6, 25, { instance: 'chat-prod-i3' }, { kvShare: 0.7 })),
  held('prompt-length-shift qwen ×2.2 @6', 4, f('prompt-length-shift', 6, 25, { component: 'qwen2-5-7b-instruct' }, { promptScale: 2.2 })),
  held('slow-instance i3 ×2 @6', 2, f('slow-instance', 6, 25, { instance: 'chat-prod-i3' }, { slowdown: 2 })),
  held('slow-instance llama-prod-i2 ×3 @7', 5, f('slow-instance', 7, 25, { instance: 'llama-prod-i2' }, { slowdown: 3 })),
  held('rate-limit-burst qwen ×4 @6', 5, f('rate-limit-burst', 6, 12, { component: 'qwen2-5-7b-instruct' }, { rateMultiplier: 4 })),
  held('engine-errors gpt-oss light @6', 3, f('engine-errors', 6, 20, { component: 'gpt-oss-20b' }, { http500: 0.02, http503: 0.01, midStreamAbort: 0.02 })),
  held('throughput-below-benchmark qwen 6 seqs @6', 2, f('throughput-below-benchmark', 6, 25, { instanceType: 'ml.g5.12xlarge', component: 'qwen2-5-7b-instruct' }, { maxNumSeqs: 6, slowdown: 1.4 })),
  held('quality-drift qwen 0.25 @5', 2, f('quality-drift', 5, 25, { component: 'qwen2-5-7b-instruct' }, { drop: 0.25 })),
  held('slow-instance i3 + engine-errors llama @6', 6, f('slow-instance', 6, 25, { instance: 'chat-prod-i3' }), f('engine-errors', 6, 25, { component: 'llama-3-1-8b-instruct' })),
  held('rate-limit gpt-oss + quality-drift qwen @5', 7, f('rate-limit-burst', 5, 11, { component: 'gpt-oss-20b' }), f('quality-drift', 5, 25, { component: 'qwen2-5-7b-instruct' })),
];

const decoys: BenchCase[] = [
  // The demo's two-hour diurnal cycle: at minute 30 demand peaks against the trough before it.
  { name: 'decoy: diurnal peak', split: 'decoy', scenario: 'demo', faults: [], seed: 3, expect: [], decoyAtMs: 30 * MIN, durationMs: 31 * MIN },
  // Demand ×1.8 on Llama with normal downloads: the autoscaler adds replicas and they serve in time.
  {
    name: 'decoy: healthy scale-out',
    split: 'decoy',
    scenario: 'steady',
    faults: [f('cold-start-storm', 5, 25, { component: 'llama-3-1-8b-instruct' }, { rateMultiplier: 1.8, downloadMBps: 400 })],
    seed: 4,
    expect: [],
    decoyAtMs: 14 * MIN,
    durationMs: 16 * MIN,
  },
];

/** Every run of the bench. */
export const BENCH_CASES: readonly BenchCase[] = [...tuned, ...heldOut, ...decoys];
