import { afterEach, describe, expect, it } from 'vitest';
import { scrape, total } from './testing/scrape.js';
import { startSimulation, type RunningSimulation } from './start.js';
import type { ScenarioSpec } from './spec.js';
import { scenarioByName } from './scenarios.js';

const MIN = 60_000;
const NOW = Date.UTC(2026, 0, 6, 12);
let run: RunningSimulation | undefined;
afterEach(async () => {
  await run?.close();
  run = undefined;
});

const withFaults = (faults: ScenarioSpec['faults']): ScenarioSpec => ({ ...scenarioByName('steady'), faults });

/** What `component`'s front door has counted, as a scraper reads it. */
function requests(r: RunningSimulation, component: string): number {
  expect(r.targetMetrics(`frontdoor-${component}`, '').body).toContain('llm_client_requests_total');
  return total(scrape(r.targets().find((t) => t.id === `frontdoor-${component}`)!), 'llm_client_requests_total');
}

describe('startSimulation: a manual run started in the past goes live', () => {
  it('keeps virtual time equal to wall time until goLive, then runs at speed from the simulation state', async () => {
    let wall = NOW;
    const r = (run = await startSimulation({
      scenario: withFaults([
        { kind: 'slow-instance', startMs: 10 * MIN, endMs: 20 * MIN, scope: { instance: 'chat-prod-i1' } },
        { kind: 'engine-errors', startMs: 50 * MIN, endMs: 70 * MIN, scope: { component: 'qwen2-5-7b-instruct' } },
      ]),
      mode: 'manual',
      startMs: NOW - 60 * MIN,
      speed: 6,
      clock: () => wall,
    }));
    expect(r.live).toBe(false);
    expect(r.targetMetrics('no-such-target', '').status).toBe(404);
    expect(r.simulation.tickMs).toBe(1000);
    // The platform exporter no longer states the benchmark (src/cost's catalog owns it).
    expect(r.targetMetrics('platform-gpt-oss-20b', '').body).not.toContain('llm_benchmark_output_tokens_per_second');
    await r.advanceTo(NOW);
    await r.goLive();
    expect(r.live).toBe(true);
    expect(r.simulation.speed).toBe(6);
    // The real-time tick at speed 6 (600 ms of virtual time per 100 ms of wall time).
    expect(r.simulation.tickMs).toBe(600);
    // Ground truth: identity before the hand-over at NOW, then six virtual minutes per wall minute.
    expect(r.groundTruth().map((g) => [g.startMs - NOW, g.endMs - NOW])).toEqual([
      [-50 * MIN, -40 * MIN],
      [-10 * MIN, (10 * MIN) / 6],
    ]);
    // Nothing jumps: the first live tick continues from where the replay stopped.
    const before = r.simulation.nowMs;
    wall += 1000;
    await r.goLive(); // a no-op once live
    expect(r.simulation.nowMs).toBe(before);
  });

  it('goes live at once in realtime mode', async () => {
    const r = (run = await startSimulation({ scenario: 'steady', speed: 10, clock: () => NOW }));
    expect(r.live).toBe(true);
    expect(r.simulation.startMs).toBe(NOW);
    expect(r.simulation.speed).toBe(10);
    expect(requests(r, 'qwen2-5-7b-instruct')).toBeGreaterThanOrEqual(0);
  });
});
