/**
 * Drift replay cost: the quality-drift scenario's fleet scraped at 60 s for BENCH_HOURS simulated
 * hours (test/dashboards/live-fleet.ts), then `DriftRunner.replay` over the whole span, as
 * `demo --history` would run it: wall time and range queries per simulated hour, ticks per second,
 * and the events found. The fleet run itself is not counted. One JSON line.
 *
 * Env: BENCH_HOURS (default 3), ROUNDS (replays of the same data, the best one kept; default 3).
 */
import type { QueryClient } from '../../src/query/index.js';
import { DriftRunner } from '../../src/quality/drift/index.js';
import { runLiveFleet } from '../../test/dashboards/live-fleet.js';

const HOURS = Number(process.env.BENCH_HOURS ?? 3);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const HOUR_MS = 3600_000;

const fleet = await runLiveFleet({ scenario: 'quality-drift', durationMs: HOURS * HOUR_MS, scrapeIntervalS: 60 });
const fromMs = fleet.nowMs - HOURS * HOUR_MS + 1;
let best = Number.POSITIVE_INFINITY;
let queries = 0;
let ticks = 0;
let events = 0;
let samples = 0;
for (let r = 0; r < ROUNDS; r++) {
  let ranges = 0;
  const client: QueryClient = Object.create(fleet.client) as QueryClient;
  client.range = (...args) => {
    ranges++;
    return fleet.client.range(...args);
  };
  let written = 0;
  const runner = new DriftRunner({ client, sink: { write: (s) => ((written += s.length), Promise.resolve()) }, clock: () => fleet.nowMs });
  const t0 = performance.now();
  ticks = await runner.replay(fromMs, fleet.nowMs);
  const ms = performance.now() - t0;
  if (ms < best) best = ms;
  queries = ranges;
  events = runner.events(fromMs, fleet.nowMs).length;
  samples = written;
}
await fleet.close();
console.log(
  JSON.stringify({
    bench: 'quality/drift-replay',
    simulatedHours: HOURS,
    replayMsPerSimHour: Math.round((best / HOURS) * 10) / 10,
    queriesPerSimHour: queries / HOURS,
    ticksPerSec: Math.round(ticks / (best / 1000)),
    samplesWritten: samples,
    events,
  }),
);
