// Drift detection against a living fleet: the simulator's scenarios scraped into the embedded store
// in virtual time (60 s scrapes, as a sparse production setup), the DriftRunner reading it through
// the same QueryClient the server uses. A quality fault must be found on the dimension it hits
// within ten simulated minutes of its onset, a prompt-length shift must raise an input drift, a
// steady fleet must raise none, and a replay over the history must equal the live ticks.
import { describe, expect, it } from 'vitest';
import { FakeTimers } from '../../src/model/testing/fake-timers.js';
import type { SeriesSample, SeriesSink } from '../../src/model/index.js';
import type { QueryClient } from '../../src/query/index.js';
import { DriftRunner, type TrackedDriftEvent } from '../../src/quality/drift/index.js';
import { runLiveFleet, type LiveFleet } from '../dashboards/live-fleet.js';

const MIN = 60_000;
const SCRAPE_S = 60;
const STEADY_MS = 12 * 60 * MIN;

/** A sink that keeps what it is given. */
function memorySink(): SeriesSink & { samples: SeriesSample[] } {
  const samples: SeriesSample[] = [];
  return { samples, write: (s) => (samples.push(...s), Promise.resolve()) };
}

/** A client that counts the range queries it passes on. */
function countingClient(c: QueryClient): QueryClient & { ranges: number } {
  const out = Object.create(c) as QueryClient & { ranges: number };
  out.ranges = 0;
  out.range = (...args) => {
    out.ranges++;
    return c.range(...args);
  };
  return out;
}

/** A fleet run with a DriftRunner ticking live on virtual timers beside the scrapes. */
async function liveRun(o: Parameters<typeof runLiveFleet>[0]): Promise<{ fleet: LiveFleet; live: DriftRunner; liveSink: ReturnType<typeof memorySink>; startMs: number }> {
  let timers: FakeTimers | null = null;
  let live: DriftRunner | null = null;
  const liveSink = memorySink();
  let startMs = 0;
  const fleet = await runLiveFleet({
    ...o,
    scrapeIntervalS: SCRAPE_S,
    onStep: async (nowMs, _appendable, client) => {
      if (timers === null || live === null) {
        startMs = nowMs - 1000;
        timers = new FakeTimers(startMs);
        live = new DriftRunner({ client, sink: liveSink, clock: timers.clock, timers });
        live.start();
      }
      await timers.advance(nowMs - timers.now);
      await live.idle();
    },
  });
  if (live === null) throw new Error('the fleet never stepped');
  const runner: DriftRunner = live;
  await runner.stop();
  return { fleet, live: runner, liveSink, startMs };
}

const brief = (e: TrackedDriftEvent) => ({ component: e.component, subject: e.subject, test: e.test });

describe('DriftRunner on the simulated fleet', () => {
  it('finds the quality-drift fault on relevance within ten minutes of its onset, and a replay equals the live ticks', async () => {
    const { fleet, live, liveSink, startMs } = await liveRun({ scenario: 'quality-drift', durationMs: 95 * MIN });
    try {
      const onsetMs = startMs + 5 * MIN; // the scenario's fault starts at minute 5
      const events = live.events(startMs, fleet.nowMs);
      const relevance = events.find((e) => e.component === 'gpt-oss-20b' && e.subject.kind === 'score' && e.subject.dimension === 'relevance');
      expect(relevance, JSON.stringify(events.map(brief))).toBeDefined();
      expect(relevance?.test).toBe('page-hinkley');
      expect(relevance!.detectedMs - onsetMs).toBeLessThanOrEqual(10 * MIN);
      // The estimate: the exporter's mean lags the fault, so the change shows in the scores a few minutes late.
      expect(relevance!.onsetMs - onsetMs).toBeGreaterThanOrEqual(0);
      expect(relevance!.onsetMs - onsetMs).toBeLessThanOrEqual(6 * MIN);
      expect(relevance!.summary).toMatch(/relevance score fell/);
      // The fault ends at minute 30: the scores recover (slowly: the exporter's mean moves with its samples) and the drift resolves.
      expect(relevance!.resolvedMs).not.toBeNull();
      // Only the faulty component drifts, and not on safety (the fault leaves it alone), nor on its inputs.
      expect(events.filter((e) => e.component !== 'gpt-oss-20b').map(brief)).toEqual([]);
      expect(events.filter((e) => e.subject.kind === 'input' || (e.subject.kind === 'score' && e.subject.dimension === 'safety')).map(brief)).toEqual([]);
      // The event series: 1 while open, a stale marker once resolved.
      const series = liveSink.samples.filter((s) => s.labels.__name__ === 'llm_quality_drift_event' && s.labels.component === 'gpt-oss-20b' && s.labels.subject === 'relevance');
      expect(series.filter((s) => s.value === 1).length).toBeGreaterThan(0);
      expect(Number.isNaN(series.at(-1)?.value)).toBe(true);

      // The same history replayed (as `demo --history` would): the same ticks, results and series, in hourly chunks.
      const client = countingClient(fleet.client);
      const sink = memorySink();
      const replayed = new DriftRunner({ client, sink, clock: () => fleet.nowMs });
      // From just after the start: the live runner's first tick was the first minute after it.
      const ticks = await replayed.replay(startMs + 1, fleet.nowMs);
      expect(ticks).toBe(95);
      expect(replayed.events(startMs, fleet.nowMs)).toEqual(events);
      expect(sink.samples).toEqual(liveSink.samples);
      // Nine queries an hour (scores; prompt and output length, recent and baseline; flags and their totals).
      expect(client.ranges).toBeLessThanOrEqual(2 * 9);
    } finally {
      await fleet.close();
    }
  }, 300_000);

  it('raises an input drift on prompt length when gpt-oss-20b prompts triple', async () => {
    const faultStart = 80 * MIN;
    const { fleet, live, startMs } = await liveRun({
      scenario: 'steady',
      durationMs: 105 * MIN,
      faults: [{ kind: 'prompt-length-shift', startMs: faultStart, endMs: 100 * MIN, scope: { component: 'gpt-oss-20b' } }],
    });
    try {
      const events = live.events(startMs, fleet.nowMs);
      const prompt = events.filter((e) => e.subject.kind === 'input' && e.subject.feature === 'prompt_length');
      expect(prompt.map((e) => [e.component, e.test]).sort()).toEqual([
        ['gpt-oss-20b', 'ks'],
        ['gpt-oss-20b', 'psi'],
      ]);
      for (const e of prompt) {
        expect(e.detectedMs - (startMs + faultStart)).toBeLessThanOrEqual(10 * MIN);
        expect(Math.abs(e.onsetMs - (startMs + faultStart))).toBeLessThanOrEqual(3 * MIN);
        expect(e.summary).toMatch(/prompt length/);
      }
      expect(events.filter((e) => !(e.subject.kind === 'input' && e.subject.feature === 'prompt_length')).map(brief)).toEqual([]);
    } finally {
      await fleet.close();
    }
  }, 300_000);

  // Half a day, to keep the test near a minute on a quiet machine; the defaults were tuned on a whole
  // day (docs/design/quality-drift.md).
  it('raises no drift on a steady half day (the demo fleet: six two-hour load cycles, troughs included)', async () => {
    const fleet = await runLiveFleet({ scenario: 'demo', durationMs: STEADY_MS, scrapeIntervalS: SCRAPE_S });
    try {
      const startMs = fleet.nowMs - STEADY_MS;
      const sink = memorySink();
      const runner = new DriftRunner({ client: fleet.client, sink, clock: () => fleet.nowMs });
      expect(await runner.replay(startMs + 1, fleet.nowMs)).toBe(STEADY_MS / MIN);
      expect(runner.events(startMs, fleet.nowMs).map((e) => ({ ...brief(e), summary: e.summary }))).toEqual([]);
      // It did watch: a drift score for every component's dimensions and input lengths.
      const watched = new Set(sink.samples.filter((s) => s.labels.__name__ === 'llm_quality_drift_score').map((s) => `${s.labels.component}/${s.labels.dimension ?? s.labels.feature}`));
      expect(watched.size).toBeGreaterThanOrEqual(3 * 4 + 2);
    } finally {
      await fleet.close();
    }
  }, 600_000);
});
