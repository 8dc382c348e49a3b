/**
 * What the gateway measures against what the simulator did. The simulation runs in real time
 * (speed 1, 10 ms ticks), so the engines' token times are wall-clock times; each of three
 * concurrent streams lands on its own replica, and that replica's own histograms (TTFT,
 * inter-token latency, E2E, measured in the engine model's virtual time) are the ground truth for
 * that request. The gateway's per-request timings come from its sample sink.
 *
 * Tolerance: the simulator stamps a request's arrival at its last tick (up to one timer interval,
 * 20 ms, before the request really arrived), and timers on a loaded machine slip by a few ms; so
 * TTFT and E2E must agree within 100 ms + 10 % (typically they agree within 20 ms), the mean
 * inter-token gap within 5 ms + 10 % (typically 1 %). Both sides run in this process on real
 * timers, so a stall of the process (a busy machine) shifts one against the other: the worst
 * event-loop delay seen during the requests is added to every tolerance (to the overhead bound too).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningGateway } from '../../src/gateway/index.js';
import type { MemorySampleSink } from '../../src/gateway/index.js';
import type { MemoryStorage } from '../../src/storage/testing/index.js';
import { startSimulation, type RunningSimulation } from '../../src/sim/index.js';
import { MODEL, gatewayForSim, threeAzScenario } from './testing/sim-fleet.js';

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

interface EngineTimes {
  ttftSum: number;
  ttftCount: number;
  itlSum: number;
  itlCount: number;
  e2eSum: number;
  e2eCount: number;
}

function engineTimes(replica: string): EngineTimes {
  const h = run.simulation.fleet.replicas.find((r) => r.id === replica)!.stats!.h;
  return { ttftSum: h.ttft!.sum, ttftCount: h.ttft!.count, itlSum: h.itl!.sum, itlCount: h.itl!.count, e2eSum: h.e2e!.sum, e2eCount: h.e2e!.count };
}

async function stream(): Promise<string> {
  const body = { model: MODEL, messages: [{ role: 'user', content: 'x'.repeat(12_000 - 16) }], stream: true, max_tokens: 20 };
  const r = await fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return r.text();
}

describe('gateway measurements against the simulated engines', () => {
  it('TTFT, inter-chunk latency and E2E agree with the engines; overhead is small and separate from model latency', async () => {
    const replicas = run.simulation.fleet.replicas.map((r) => r.id);
    const before = new Map(replicas.map((id) => [id, engineTimes(id)]));
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const bodies = await Promise.all([stream(), stream(), stream()]);
    loop.disable();
    const stallS = loop.max / 1e9;
    for (const b of bodies) expect(b.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(samples.samples).toHaveLength(3);
    expect(new Set(samples.samples.map((s) => s.labels.replica)).size).toBe(3);
    for (const s of samples.samples) {
      const id = s.labels.replica;
      const a = engineTimes(id);
      const b = before.get(id)!;
      expect(a.ttftCount - b.ttftCount).toBe(1);
      const truth = { ttft: a.ttftSum - b.ttftSum, itl: (a.itlSum - b.itlSum) / (a.itlCount - b.itlCount), e2e: a.e2eSum - b.e2eSum };
      const t = s.timings;
      expect(truth.ttft).toBeGreaterThan(0.3); // 3,000 prompt tokens on an L4
      expect(Math.abs(t.ttftS! - truth.ttft), `TTFT ${t.ttftS} vs ${truth.ttft} (stall ${stallS})`).toBeLessThanOrEqual(0.1 + 0.1 * truth.ttft + stallS);
      expect(Math.abs(t.meanItlS! - truth.itl), `ITL ${t.meanItlS} vs ${truth.itl}`).toBeLessThanOrEqual(0.005 + 0.1 * truth.itl + stallS / 19);
      expect(Math.abs(t.e2eS - truth.e2e), `E2E ${t.e2eS} vs ${truth.e2e} (stall ${stallS})`).toBeLessThanOrEqual(0.1 + 0.1 * truth.e2e + stallS);
      expect(t.chunks).toBe(20);
      // Overhead: everything that is not the upstream; small, and the two add up to E2E.
      expect(t.overheadS!).toBeLessThan(0.05 + stallS);
      expect(t.modelS! + t.overheadS!).toBeCloseTo(t.e2eS, 6);
      expect(t.modelS!).toBeGreaterThan(t.ttftS! - 0.05);
    }
    // The histograms written through the Appendable hold the same requests.
    await gw.flush();
    const sum = (name: string): number => store.latest(name, { stream: 'true' });
    expect(sum('llm_client_time_to_first_token_seconds_count')).toBe(3);
    expect(sum('llm_client_inter_token_latency_seconds_count')).toBe(3 * 19);
    expect(sum('llm_client_time_to_first_token_seconds_sum')).toBeCloseTo(samples.samples.reduce((n, s) => n + s.timings.ttftS!, 0), 6);
    expect(sum('llm_client_overhead_latency_seconds_sum')).toBeLessThan(0.15 + 3 * stallS);
  });
});
