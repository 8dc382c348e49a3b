import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCleanups } from '../model/testing/cleanups.js';
import { loadScrapeConfigFile } from '../ingest/index.js';
import { matcher, noopLogger, type UnixMs } from '../model/index.js';
import { NormalizingAppendable } from '../normalize/index.js';
import { parseScenarioSpec, startSimulation, type GroundTruthEntry } from '../sim/index.js';
import { collectSeries } from '../storage/index.js';
import { Db } from '../tsdb/index.js';
import { tempDir } from '../tsdb/testing/temp-dir.js';
import { replayHistory, type HistoryReport } from './demo-history.js';
import { demoScrapeConfig } from './demo.js';

const NOW: UnixMs = Date.UTC(2026, 0, 6, 12, 0, 7, 250);
const HISTORY_MS = 20 * 60_000;
const SCENARIO = readFileSync(new URL('../../docs/examples/scenario.json', import.meta.url), 'utf8');
const cleanups = useCleanups();

/** One replay of the example scenario file into a fresh store, with a fixed clock: its report, ground truth and every series. */
async function replayOnce(seed: number, faults?: string, listen = '127.0.0.1:0', slowClock = false) {
  const t = tempDir('history');
  cleanups.push(t.remove);
  const fileSdPath = path.join(t.dir, 'sim', 'file_sd.json');
  const configFile = path.join(t.dir, 'scrape.yml');
  writeFileSync(configFile, demoScrapeConfig(fileSdPath, '15s'));
  const spec = parseScenarioSpec(faults === undefined ? SCENARIO : faults);
  // The slow clock: every virtual second of replay costs ten seconds of wall time.
  const ref: { sim?: { simulation: { nowMs: number } } } = {};
  const clock = (): UnixMs => (slowClock && ref.sim !== undefined ? NOW + 10 * (ref.sim.simulation.nowMs - (NOW - HISTORY_MS)) : NOW);
  const sim = await startSimulation({ scenario: spec, seed, mode: 'manual', startMs: NOW - HISTORY_MS, fileSdPath, speed: 4, clock, listen });
  ref.sim = sim;
  cleanups.push(() => sim.close());
  const db = await Db.open({ dir: path.join(t.dir, 'data'), fsync: { mode: 'never' }, clock, logger: noopLogger });
  cleanups.push(() => db.close());
  const progress: number[] = [];
  const report = await replayHistory({
    sim,
    appendable: new NormalizingAppendable(db, { keepRaw: false }),
    scrapeConfig: await loadScrapeConfigFile(configFile),
    fileSdPath,
    clock,
    logger: noopLogger,
    hostname: 'test',
    progressEveryMs: 0,
    onProgress: (p) => progress.push(p.replayedMs),
  });
  const q = db.querier(0, Number.MAX_SAFE_INTEGER);
  const series = collectSeries(q.select([matcher('=~', '__name__', '.+')])).map((s) => ({ labels: s.labels.toString(), samples: s.samples }));
  q.close();
  return { report, truth: sim.groundTruth(), series, sim, progress, address: sim.address };
}

describe('replayHistory', () => {
  it('gives the same ground truth and the same samples of every series for the same seed', async () => {
    // Scrape phases hash the target's address, so the second run reuses the first one's port.
    const a = await replayOnce(3);
    await a.sim.close();
    const b = await replayOnce(3, undefined, a.address);
    await b.sim.close();
    expect(a.series.length).toBeGreaterThan(500);
    expect(b.truth).toEqual(a.truth);
    expect(b.series.map((s) => s.labels)).toEqual(a.series.map((s) => s.labels));
    for (let i = 0; i < a.series.length; i++) expect(b.series[i].samples, a.series[i].labels).toEqual(a.series[i].samples);
    const c = await replayOnce(4, undefined, a.address);
    expect(c.series).not.toEqual(a.series); // the seed matters, so the comparison above can fail
  });

  it('writes through the scrape pipeline: up and scrape_* series with file_sd labels, stamped at 15 s phases inside the span, then goes live', async () => {
    const { report, series, sim, progress } = await replayOnce(1);
    expect(report satisfies HistoryReport).toMatchObject({ startMs: NOW - HISTORY_MS, endMs: NOW, skippedMs: 0 });
    expect(report.samples).toBeGreaterThan(10_000);
    const up = series.filter((s) => s.labels.startsWith('up{'));
    expect(up.length).toBeGreaterThanOrEqual(sim.targets().length);
    for (const s of up) {
      const ts = s.samples.map((x) => x.tMs);
      expect(Math.min(...ts)).toBeGreaterThanOrEqual(NOW - HISTORY_MS);
      expect(Math.max(...ts)).toBeLessThan(NOW);
      // One scrape per interval at a fixed phase: no duplicate, nothing out of order.
      for (let i = 1; i < ts.length; i++) expect(ts[i] - ts[i - 1]).toBe(15_000);
    }
    const engine = up.find((s) => s.labels.includes('job="vllm"'));
    expect(engine?.labels).toMatch(/component="llama".*instance="chat-i\d".*replica="llama-r\d"/);
    expect(engine?.samples.at(-1)?.value).toBe(1);
    for (const name of ['scrape_duration_seconds', 'scrape_samples_scraped', 'scrape_series_added']) expect(series.some((s) => s.labels.startsWith(`${name}{`))).toBe(true);
    // Normalized into the catalog, as live.
    expect(series.some((s) => s.labels.startsWith('llm_time_to_first_token_seconds_bucket{') && s.labels.includes('engine="sglang"'))).toBe(true);
    expect(sim.live).toBe(true);
    expect(sim.simulation.speed).toBe(4);
    expect(progress.at(-1)).toBeGreaterThan(HISTORY_MS - 1000);
  });

  it('stops chasing a clock it cannot catch up with: the rest is simulated without samples, then live', async () => {
    const { report, series, sim } = await replayOnce(1, undefined, '127.0.0.1:0', true);
    // The history up to the replay's start (NOW) is stored; what passed meanwhile is a gap.
    expect(report.endMs).toBeGreaterThanOrEqual(NOW);
    expect(report.endMs).toBeLessThan(NOW + 2000);
    expect(report.skippedMs).toBeGreaterThan(9 * HISTORY_MS);
    for (const s of series) for (const x of s.samples) expect(x.tMs).toBeLessThan(report.endMs);
    expect(sim.live).toBe(true);
    expect(sim.simulation.nowMs).toBeGreaterThanOrEqual(report.endMs + report.skippedMs);
  });

  it('places the scenario faults relative to the replay start and reports absolute start and end', async () => {
    const spec = JSON.parse(SCENARIO) as { faults: unknown[] };
    spec.faults = [
      { kind: 'slow-instance', startMs: '5m', endMs: '10m', scope: { instance: 'chat-i1' } },
      { kind: 'engine-errors', startMs: '15m', endMs: '30m', scope: { component: 'qwen' } },
    ];
    const { truth } = await replayOnce(1, JSON.stringify(spec));
    const start = NOW - HISTORY_MS;
    const at = (g: GroundTruthEntry) => [g.kind, g.startMs, g.endMs, g.virtualStartMs, g.virtualEndMs];
    // The first fault lies inside the history (speed 1: wall = virtual); the second straddles the
    // hand-over at NOW, after which virtual time runs 4 times as fast as the clock.
    expect(truth.map(at)).toEqual([
      ['slow-instance', start + 5 * 60_000, start + 10 * 60_000, start + 5 * 60_000, start + 10 * 60_000],
      ['engine-errors', start + 15 * 60_000, NOW + (10 * 60_000) / 4, start + 15 * 60_000, start + 30 * 60_000],
    ]);
  });
});
