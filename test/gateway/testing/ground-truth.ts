/**
 * Three concurrent streams through the gateway, each landing on its own simulated replica, with
 * what the gateway measured beside what that replica's engine model recorded (its histograms'
 * sum and count before and after). Shared by test/gateway/ground-truth.test.ts, which checks what
 * does not depend on the wall clock, and bench/gateway/ground-truth.bench.ts, which reports how
 * far the wall-clock measurements are from the engine's (a timing, so never asserted in a test).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { MemorySampleSink, RunningGateway } from '../../../src/gateway/index.js';
import type { RunningSimulation } from '../../../src/sim/index.js';
import { MODEL } from './sim-fleet.js';

interface EngineTimes {
  ttftSum: number;
  ttftCount: number;
  itlSum: number;
  itlCount: number;
  e2eSum: number;
  e2eCount: number;
}

/** One request: the replica's own figures for it (seconds) and the gateway's sample. */
export interface MeasuredRequest {
  readonly replica: string;
  /** Requests the replica's TTFT histogram counted during the run (1 when the request landed alone). */
  readonly engineRequests: number;
  readonly truth: { readonly ttftS: number; readonly meanItlS: number; readonly e2eS: number };
  readonly timings: MemorySampleSink['samples'][number]['timings'];
}

function engineTimes(run: RunningSimulation, replica: string): EngineTimes {
  const h = run.simulation.fleet.replicas.find((r) => r.id === replica)!.stats!.h;
  return { ttftSum: h.ttft!.sum, ttftCount: h.ttft!.count, itlSum: h.itl!.sum, itlCount: h.itl!.count, e2eSum: h.e2e!.sum, e2eCount: h.e2e!.count };
}

async function stream(gw: RunningGateway): Promise<string> {
  const body = { model: MODEL, messages: [{ role: 'user', content: 'x'.repeat(12_000 - 16) }], stream: true, max_tokens: 20 };
  const r = await fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return r.text();
}

/**
 * Sends three streams at once (20 tokens each, a 3,000-token prompt) and returns the bodies, one
 * `MeasuredRequest` per gateway sample, and the worst event-loop delay seen meanwhile (seconds).
 */
export async function measureThreeStreams(run: RunningSimulation, gw: RunningGateway, samples: MemorySampleSink): Promise<{ bodies: string[]; requests: MeasuredRequest[]; stallS: number }> {
  const before = new Map(run.simulation.fleet.replicas.map((r) => [r.id, engineTimes(run, r.id)]));
  const from = samples.samples.length;
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const bodies = await Promise.all([stream(gw), stream(gw), stream(gw)]);
  loop.disable();
  const requests = samples.samples.slice(from).map((s): MeasuredRequest => {
    const replica = s.labels.replica;
    const a = engineTimes(run, replica);
    const b = before.get(replica)!;
    const truth = { ttftS: a.ttftSum - b.ttftSum, meanItlS: (a.itlSum - b.itlSum) / (a.itlCount - b.itlCount), e2eS: a.e2eSum - b.e2eSum };
    return { replica, engineRequests: a.ttftCount - b.ttftCount, truth, timings: s.timings };
  });
  return { bodies, requests, stallS: loop.max / 1e9 };
}
