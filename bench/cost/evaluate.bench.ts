/**
 * The cost evaluator's price: a fleet scraped through the real scrape path, TSDB and PromQL engine
 * in virtual time at a 15 s scrape interval (test/dashboards/live-fleet.ts) for BENCH_HOURS (3 h by
 * default, the demo's history), then a replay of the whole span (what the server does over the
 * demo's history at start) and BENCH_TICKS live ticks at its end. Per fleet: the demo and, when
 * BENCH_LARGE is set (e.g. 1000), `fleet-<BENCH_LARGE>` over BENCH_LARGE_HOURS (default 1).
 *
 * One JSON line: `<fleet>.replayMs`, `<fleet>.replayMsPerSimHour`, `<fleet>.tickMs` (mean of the
 * live ticks), `<fleet>.ticks`, `<fleet>.samplesPerTick`.
 */
import type { SeriesSample } from '../../src/model/index.js';
import { createCostEvaluator, defaultBenchmarkCatalog, defaultPriceCatalog } from '../../src/cost/index.js';
import { runLiveFleet } from '../../test/dashboards/live-fleet.js';

const HOURS = Number(process.env.BENCH_HOURS ?? 3);
const LARGE = Number(process.env.BENCH_LARGE ?? 0);
const LARGE_HOURS = Number(process.env.BENCH_LARGE_HOURS ?? 1);
const TICKS = Number(process.env.BENCH_TICKS ?? 20);

async function measure(scenario: string, hours: number): Promise<Record<string, number>> {
  const t0 = performance.now();
  const fleet = await runLiveFleet({ scenario, durationMs: hours * 3_600_000, scrapeIntervalS: 15 });
  process.stderr.write(`cost bench: ${scenario} simulated ${hours} h in ${Math.round(performance.now() - t0)} ms\n`);
  let written = 0;
  const sink = {
    write: (s: readonly SeriesSample[]) => {
      written += s.length;
      return Promise.resolve();
    },
  };
  const from = fleet.nowMs - hours * 3_600_000 + 5 * 60_000;
  const to = fleet.nowMs - TICKS * 15_000;
  const ev = createCostEvaluator({ client: fleet.client, sink, prices: defaultPriceCatalog, benchmarks: defaultBenchmarkCatalog });
  const r0 = performance.now();
  const ticks = await ev.replay(from, to);
  const replayMs = performance.now() - r0;
  const replayed = written;
  const l0 = performance.now();
  for (let i = 1; i <= TICKS; i++) await ev.evaluate(to + i * 15_000);
  const tickMs = (performance.now() - l0) / TICKS;
  await fleet.close();
  const simHours = (to - from) / 3_600_000;
  return { replayMs: Math.round(replayMs), replayMsPerSimHour: Math.round(replayMs / simHours), ticks, tickMs: Math.round(tickMs * 10) / 10, samplesPerTick: Math.round(replayed / Math.max(1, ticks)) };
}

const out: Record<string, number> = {};
for (const [k, v] of Object.entries(await measure('demo', HOURS))) out[`demo.${k}`] = v;
if (LARGE > 0) for (const [k, v] of Object.entries(await measure(`fleet-${LARGE}`, LARGE_HOURS))) out[`fleet${LARGE}.${k}`] = v;
process.stdout.write(`${JSON.stringify(out)}\n`);
