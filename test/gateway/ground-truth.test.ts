/**
 * What the gateway measures against what the simulator did. The simulation runs in real time
 * (speed 1, 10 ms ticks); each of three concurrent streams lands on its own replica, and that
 * replica's own histograms are the ground truth for that request. This test checks only what
 * does not depend on the wall clock: one request per replica, every chunk forwarded, model time
 * and overhead adding up to E2E, and the histograms written through the Appendable holding the
 * same requests. How close the gateway's TTFT, inter-token latency and E2E come to the engine's is
 * a timing, measured by bench/gateway/ground-truth.bench.ts and never asserted here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemorySampleSink, RunningGateway } from '../../src/gateway/index.js';
import type { MemoryStorage } from '../../src/storage/testing/index.js';
import { startSimulation, type RunningSimulation } from '../../src/sim/index.js';
import { measureThreeStreams } from './testing/ground-truth.js';
import { gatewayForSim, threeAzScenario } from './testing/sim-fleet.js';

let run: RunningSimulation;
let gw: RunningGateway;
let store: MemoryStorage;
let samples: MemorySampleSink;

beforeAll(async () => {
  run = await startSimulation({ scenario: threeAzScenario(), mode: 'realtime', speed: 1, tickMs: 10, seed: 21 });
  ({ gw, store, samples } = await gatewayForSim(run, { sampling: { rate: 1 } }));
});
afterAll(async () => {
  await gw.close();
  await run.close();
});

describe('gateway measurements against the simulated engines', () => {
  it('one request per replica, every chunk forwarded; model time and overhead add up to E2E; the histograms hold the same requests', async () => {
    const { bodies, requests } = await measureThreeStreams(run, gw, samples);
    for (const b of bodies) expect(b.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((r) => r.replica)).size).toBe(3);
    for (const { engineRequests, truth, timings: t } of requests) {
      expect(engineRequests).toBe(1);
      expect(truth.ttftS).toBeGreaterThan(0.3); // 3,000 prompt tokens on an L4, in the engine model's time
      expect(t.chunks).toBe(20);
      expect(t.modelS! + t.overheadS!).toBeCloseTo(t.e2eS, 6);
    }
    await gw.flush();
    const sum = (name: string): number => store.latest(name, { stream: 'true' });
    expect(sum('llm_client_time_to_first_token_seconds_count')).toBe(3);
    expect(sum('llm_client_inter_token_latency_seconds_count')).toBe(3 * 19);
    expect(sum('llm_client_time_to_first_token_seconds_sum')).toBeCloseTo(requests.reduce((n, r) => n + r.timings.ttftS!, 0), 6);
    expect(sum('llm_client_overhead_latency_seconds_sum')).toBeCloseTo(requests.reduce((n, r) => n + r.timings.overheadS!, 0), 6);
  });
});
