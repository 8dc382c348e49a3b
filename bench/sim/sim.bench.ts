/**
 * Cost of simulating a 1,000-instance fleet (one GPU and one Llama-3.1-8B replica each, vLLM :
 * SGLang : DJL/LMI = 6 : 3 : 1, a DCGM exporter per instance, front door, platform and quality
 * exporters per component) at a 15 s scrape interval: per round, the CPU to advance 15 virtual
 * seconds (arrivals, routing, continuous batching, GPUs) and to render every target's exposition
 * once (text 0.0.4), and whether that stays under one core (`coreShare` < 1 means it does).
 * Rendering goes through the same code as `GET /targets/<id>/metrics`, without the socket.
 * `realtimeSimulateCpuSPerRound` repeats the simulation part with the 100 ms ticks that the
 * real-time driver uses at `--speed 1` (finer ticks cost more per virtual second).
 *
 * Env: BENCH_INSTANCES (default 1000), BENCH_ROUNDS (default 8), BENCH_WARMUP_S (default 120).
 */
import { Simulation, TargetRegistry, largeFleet } from '../../src/sim/index.js';

const instances = Number(process.env.BENCH_INSTANCES ?? 1000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 8);
const warmupS = Number(process.env.BENCH_WARMUP_S ?? 120);
const intervalMs = 15_000;

const cpuS = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

const t0 = Date.UTC(2025, 0, 6, 12);
let c = cpuS();
const sim = new Simulation({ scenario: { name: 'bench', description: '', fleet: largeFleet(instances), faults: [], durationMs: 3_600_000 }, seed: 1, startMs: t0 });
const registry = new TargetRegistry(sim);
const buildS = cpuS() - c;
sim.advanceTo(t0 + warmupS * 1000);

let simulateS = 0;
let renderS = 0;
let series = 0;
let bytes = 0;
let sink = 0;
for (let k = 0; k < rounds; k++) {
  c = cpuS();
  sim.advanceTo(sim.nowMs + intervalMs);
  registry.sync();
  simulateS += cpuS() - c;
  c = cpuS();
  series = 0;
  bytes = 0;
  for (const t of registry.list()) {
    if (!t.available()) continue;
    const fs = t.families();
    const text = fs.renderText();
    series += fs.seriesCount;
    bytes += text.length;
    sink += text.charCodeAt(text.length >> 1);
  }
  renderS += cpuS() - c;
}

// The real-time driver's tick at --speed 1.
const rt = new Simulation({ scenario: { name: 'bench', description: '', fleet: largeFleet(instances), faults: [], durationMs: 3_600_000 }, seed: 1, startMs: t0, tickMs: 100 });
rt.advanceTo(t0 + warmupS * 1000);
c = cpuS();
rt.advanceTo(rt.nowMs + 2 * intervalMs);
const realtimeS = (cpuS() - c) / 2;

const perRoundS = (simulateS + renderS) / rounds;
console.log(
  JSON.stringify({
    bench: 'sim',
    instances,
    targets: registry.list().length,
    series,
    bytesPerScrapeRound: bytes,
    requestsPerSec: Math.round(sim.fleet.components.reduce((n, x) => n + x.frontdoor.requests2xx, 0) / ((sim.nowMs - t0) / 1000)),
    buildCpuS: +buildS.toFixed(3),
    simulateCpuSPerRound: +(simulateS / rounds).toFixed(3),
    renderCpuSPerRound: +(renderS / rounds).toFixed(3),
    realtimeSimulateCpuSPerRound: +realtimeS.toFixed(3),
    cpuSPerRound: +perRoundS.toFixed(3),
    scrapeIntervalS: intervalMs / 1000,
    coreShare: +(perRoundS / (intervalMs / 1000)).toFixed(3),
    underOneCore: perRoundS < intervalMs / 1000,
    sink: sink > 0,
  }),
);
