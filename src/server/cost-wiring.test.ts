import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, test } from 'vitest';
import { ConfigError } from '../config/index.js';
import { MemoryLogger, type UnixMs } from '../model/index.js';
import { useCleanups } from '../model/testing/cleanups.js';
import { FakeTimers, flushAsync } from '../model/testing/fake-timers.js';
import { HttpCostClient, HttpQueryClient } from '../query/index.js';
import { tempDir } from '../tsdb/testing/temp-dir.js';
import { parseScenarioSpec } from '../sim/index.js';
import { parseCostConfig } from './cost-config.js';
import { COST_HISTORY_CHUNK_MS, COST_HISTORY_LAG_MS, costHistoryDeriver, wireCost } from './cost-wiring.js';
import { startDemo } from './demo.js';
import type { ServeOptions } from './serve.js';
import { FIXTURE_COST_MODULE } from './testing/cost-fixture.js';
import { DX_END_MS, DX_START_MS, startDiagnosisServer } from './testing/diagnosis-fixture.js';

const cleanups = useCleanups();

describe('the cost: section', () => {
  test.each([
    ['nothing', 'scrape_configs: []\n', {}],
    ['an empty section', 'cost:\n', {}],
    [
      'every field',
      'cost:\n  price_catalog_file: prices.yml\n  benchmark_file: /etc/b.yml\n  evaluation_interval: 30s\n  idle_utilization_below: 0.05\n  idle_window: 1h\n',
      { priceCatalogFile: '/cfg/prices.yml', benchmarkFile: '/etc/b.yml', evaluationIntervalMs: 30_000, idleUtilizationBelow: 0.05, idleWindowMs: 3_600_000 },
    ],
  ])('reads %s', (_name, text, want) => {
    expect(parseCostConfig(text, '/cfg')).toEqual(want);
  });

  test.each([
    ['an unknown field', 'cost:\n  price_file: p.yml\n', 'line 2: field price_file not found in type cost.Config'],
    ['a ratio above 1', 'cost:\n  idle_utilization_below: 5\n', 'line 2: cost.idle_utilization_below: want a ratio between 0 and 1, got 5'],
    ['a ratio that is text', 'cost:\n  idle_utilization_below: low\n', 'line 2: cost.idle_utilization_below: want a ratio between 0 and 1, got "low"'],
    ['an empty path', 'cost:\n  benchmark_file: ""\n', 'line 2: cost.benchmark_file: is empty'],
    ['a zero interval', 'cost:\n  evaluation_interval: 0s\n', 'line 2: cost.evaluation_interval: must be greater than 0'],
    ['a list', 'cost: [a]\n', 'cost'],
  ])('refuses %s, naming the line', (_name, text, message) => {
    expect(() => parseCostConfig(text, '/cfg')).toThrow(ConfigError);
    expect(() => parseCostConfig(text, '/cfg')).toThrow(message);
  });
});

describe('the in-step history replay', () => {
  it('replays behind the writer in chunks on the tick grid, never a tick twice, and the rest at the end', async () => {
    const calls: [UnixMs, UnixMs][] = [];
    const d = costHistoryDeriver(async (from, to) => (calls.push([from, to]), (to - from) / 15_000 + 1), () => 15_000, new MemoryLogger());
    const start = 1_000_000_000_000 + 7_000;
    const ctx = {} as never;
    // The writer moves on a second at a time for three hours.
    for (let t = start; t <= start + 3 * 3_600_000; t += 1000) await d.advance?.({ startMs: start, endMs: t }, ctx);
    await d.derive({ startMs: start, endMs: start + 3 * 3_600_000 }, ctx);
    const grid = (t: UnixMs): boolean => t % 15_000 === 0;
    expect(calls.every(([f, t]) => grid(f) && grid(t) && t >= f)).toBe(true);
    // Contiguous: each chunk starts one tick after the previous one ended, from the first tick of the span.
    expect(calls[0][0]).toBe(Math.ceil(start / 15_000) * 15_000);
    for (let i = 1; i < calls.length; i++) expect(calls[i][0]).toBe(calls[i - 1][1] + 15_000);
    expect(calls.at(-1)?.[1]).toBe(Math.floor((start + 3 * 3_600_000) / 15_000) * 15_000);
    // Every in-step chunk but the last is at least a chunk long and ends at least the lag behind the writer.
    for (const [f, t] of calls.slice(0, -1)) expect(t - f).toBeGreaterThanOrEqual(COST_HISTORY_CHUNK_MS - 15_000);
    expect(calls.length).toBeGreaterThanOrEqual((3 * 3_600_000 - COST_HISTORY_LAG_MS) / COST_HISTORY_CHUNK_MS);
  });

  it('leaves out a chunk that fails and goes on, so a cost failure never stops the history', async () => {
    const calls: UnixMs[] = [];
    const logger = new MemoryLogger();
    const d = costHistoryDeriver(async (from) => {
      calls.push(from);
      if (calls.length === 2) throw new Error('out of bounds');
      return 1;
    }, () => 15_000, logger);
    for (let t = 0; t <= 3_600_000; t += 60_000) await d.advance?.({ startMs: 0, endMs: t }, {} as never);
    await d.derive({ startMs: 0, endMs: 3_600_000 }, {} as never);
    expect(calls.length).toBeGreaterThan(2);
    expect(calls[2]).toBeGreaterThan(calls[1]);
    expect(logger.lines.filter((l) => l.level === 'warn').map((l) => l.fields.err)).toEqual(['out of bounds']);
  });
});

/** A configuration file naming a price catalog, in a temp dir. */
function configWithPrices(prices: string): { configFile: string; pricesFile: string } {
  const t = tempDir('cost-wiring');
  cleanups.push(t.remove);
  const configFile = join(t.dir, 'infersight.yml');
  const pricesFile = join(t.dir, 'prices.yml');
  writeFileSync(configFile, 'cost:\n  price_catalog_file: prices.yml\n  evaluation_interval: 15s\n');
  writeFileSync(pricesFile, prices);
  return { configFile, pricesFile };
}

describe('cost in the server', () => {
  const start = (timers: FakeTimers, extra: Partial<ServeOptions> = {}): Promise<string> =>
    startDiagnosisServer(cleanups, { clock: timers.clock, cost: { module: FIXTURE_COST_MODULE, timers }, ...extra });

  it('refuses to start on a broken catalog with one line naming file:line:column', async () => {
    const { configFile, pricesFile } = configWithPrices('instances:\n  g5.xlarge: -1\n');
    const err = await wireCost({ module: FIXTURE_COST_MODULE, configFile, clock: () => 0, logger: new MemoryLogger() }, () => null, () => null).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toBe(`${pricesFile}:2:3: g5.xlarge: price must be a positive number`);
  });

  it('is on by default, with src/cost and the shipped catalogs', async () => {
    const base = await startDiagnosisServer(cleanups);
    const res = await fetch(`${base}/api/v1/cost/catalog`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; data: { prices: { takenOn: string } } };
    expect(body.status).toBe('success');
    expect(body.data.prices.takenOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('is off with `module: null`: the routes answer unavailable', async () => {
    const base = await startDiagnosisServer(cleanups, { cost: { module: null } });
    const res = await fetch(`${base}/api/v1/cost/summary`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'error', errorType: 'unavailable', error: 'cost is not available on this server' });
  });

  it('replays over a backfill the deriver did not see, then ticks live at its interval', async () => {
    const timers = new FakeTimers(DX_END_MS);
    const base = await start(timers, { backfill: { description: 'test', run: async () => undefined, rulesFromMs: DX_START_MS } });
    const q = new HttpQueryClient({ url: base });
    // The fixture's up series: one replica of each component on a g5.xlarge, one GPU each.
    const past = await q.instant('llm_cost_dollars_per_hour', DX_END_MS - 30 * 60_000);
    expect(past.data).toMatchObject({ resultType: 'vector', result: [{ metric: { component: 'llama-a' }, value: [expect.any(Number), '1.006'] }, { metric: { component: 'qwen-b' } }] });
    const metrics = async (): Promise<string> => (await fetch(`${base}/metrics`)).text();
    const replayed = /infersight_cost_evaluations_total\{mode="replay"\} (\d+)/.exec(await metrics())?.[1];
    expect(Number(replayed)).toBeGreaterThan(0);
    expect(await metrics()).toContain('infersight_cost_evaluations_total{mode="live"} 0');
    await timers.advance(15_000);
    await flushAsync();
    expect(await metrics()).toContain('infersight_cost_evaluations_total{mode="live"} 1');
    const live = await q.instant('llm_cost_dollars_total', DX_END_MS + 15_000);
    expect(live.data).toMatchObject({ result: [{ value: [DX_END_MS / 1000 + 15, expect.any(String)] }, {}] });
  });

  it('reloads the catalogs with the rules: a broken file keeps the last good one in force', async () => {
    const timers = new FakeTimers(DX_END_MS);
    const { configFile, pricesFile } = configWithPrices('instances:\n  g5.xlarge: 2\n');
    const base = await start(timers, { scrape: { configFile }, web: { enableLifecycle: true } });
    const cost = new HttpCostClient({ url: base });
    const price = async (): Promise<number | undefined> => (await cost.catalog()).data.prices.instances.find((i) => i.instanceType === 'g5.xlarge')?.effectivePerHourUsd;
    expect(await price()).toBe(2);
    expect((await cost.catalog()).data.prices.file).toBe(pricesFile);
    writeFileSync(pricesFile, 'instances:\n  g5.xlarge: 3\n  bogus: zero\n');
    const broken = await fetch(`${base}/-/reload`, { method: 'POST' });
    expect(broken.status).toBe(500);
    expect(await broken.text()).toContain(`${pricesFile}:3:3: bogus: price must be a positive number`);
    expect(await price()).toBe(2);
    writeFileSync(pricesFile, 'instances:\n  g5.xlarge: 3\n');
    expect((await fetch(`${base}/-/reload`, { method: 'POST' })).status).toBe(200);
    expect(await price()).toBe(3);
    const m = await (await fetch(`${base}/metrics`)).text();
    expect(m).toContain('infersight_cost_catalog_reloads_total{result="success"} 1');
    expect(m).toContain('infersight_cost_catalog_reloads_total{result="failure"} 1');
  });
});

describe('cost over the demo history', () => {
  it('covers the whole history, hours behind the head, written in step with it', async () => {
    const now: UnixMs = Date.UTC(2026, 0, 6, 12, 0, 7, 250);
    // Past the hour the head accepts behind its newest sample, and no longer: the demo replays the rule pack after it.
    const historyMs = 70 * 60_000;
    const t = tempDir('cost-demo');
    cleanups.push(t.remove);
    const timers = new FakeTimers(now);
    const demo = await startDemo({
      listen: '127.0.0.1:0',
      storage: { dir: t.dir, fsync: { mode: 'never' } },
      logger: new MemoryLogger(),
      clock: () => now,
      ui: false,
      gateway: false,
      scenario: parseScenarioSpec(readFileSync(new URL('../../docs/examples/scenario.json', import.meta.url), 'utf8')),
      seed: 1,
      history: { durationMs: historyMs },
      diagnose: { createDiagnoser: null },
      cost: { module: FIXTURE_COST_MODULE, timers },
    });
    cleanups.push(() => demo.close());
    await demo.server.ready;
    const q = new HttpQueryClient({ url: `http://127.0.0.1:${demo.server.http.address.port}` });
    // Over an hour behind the newest sample: the head would refuse it after the history.
    const early = await q.instant('count(llm_component_gpus)', now - 65 * 60_000);
    expect(early.data).toMatchObject({ resultType: 'vector', result: [{ value: [expect.any(Number), expect.any(String)] }] });
    const ticks = await q.instant('count_over_time(llm_component_gpus[90m])', now);
    const perSeries = ticks.data.resultType === 'vector' ? ticks.data.result.map((s) => Number(s.value[1])) : [];
    // Every 15 s tick of the history once (a replica that came later has fewer), none twice.
    expect(Math.max(...perSeries)).toBeLessThanOrEqual(historyMs / 15_000 + 1);
    expect(Math.max(...perSeries)).toBeGreaterThanOrEqual(historyMs / 15_000 - 2);
  }, 300_000);
});
