/**
 * How close the gateway's client-side timings come to the simulated engines' own: three
 * concurrent streams (3,000-token prompts, 20 tokens) through the gateway in front of a real-time
 * simulation (speed 1, 10 ms ticks), ROUNDS times; each request is compared with the histograms
 * of the replica that served it. Prints the worst absolute error of TTFT, mean inter-token
 * latency and E2E, the worst overhead, and the worst event-loop stall seen, in milliseconds.
 * What test/gateway/ground-truth.test.ts asserted with wall-clock tolerances before: the
 * simulator stamps an arrival at its last tick (up to 20 ms early), so expect TTFT and E2E within
 * about 20 ms and the inter-token mean within about 1 % on an idle machine.
 *
 * Env: ROUNDS (default 5).
 */
import { startSimulation } from '../../src/sim/index.js';
import { measureThreeStreams } from '../../test/gateway/testing/ground-truth.js';
import { gatewayForSim, threeAzScenario } from '../../test/gateway/testing/sim-fleet.js';

const rounds = Number(process.env.ROUNDS ?? 5);
const run = await startSimulation({ scenario: threeAzScenario(), mode: 'realtime', speed: 1, tickMs: 10, seed: 21 });
const { gw, samples } = await gatewayForSim(run, { sampling: { rate: 1 } });
const worst = { ttftErrMs: 0, meanItlErrMs: 0, e2eErrMs: 0, overheadMs: 0, stallMs: 0 };
try {
  for (let i = 0; i < rounds; i++) {
    const { requests, stallS } = await measureThreeStreams(run, gw, samples);
    worst.stallMs = Math.max(worst.stallMs, stallS * 1000);
    for (const { truth, timings: t } of requests) {
      worst.ttftErrMs = Math.max(worst.ttftErrMs, Math.abs(t.ttftS! - truth.ttftS) * 1000);
      worst.meanItlErrMs = Math.max(worst.meanItlErrMs, Math.abs(t.meanItlS! - truth.meanItlS) * 1000);
      worst.e2eErrMs = Math.max(worst.e2eErrMs, Math.abs(t.e2eS - truth.e2eS) * 1000);
      worst.overheadMs = Math.max(worst.overheadMs, t.overheadS! * 1000);
    }
  }
} finally {
  await gw.close();
  await run.close();
}
const round = (v: number): number => Math.round(v * 100) / 100;
process.stdout.write(`${JSON.stringify({ bench: 'gateway-ground-truth', rounds, ...Object.fromEntries(Object.entries(worst).map(([k, v]) => [k, round(v)])) })}\n`);
