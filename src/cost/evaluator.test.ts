import { describe, expect, it } from 'vitest';
import type { SeriesSample } from '../model/index.js';
import type { QueryClient } from '../query/index.js';
import { benchmarkCatalog } from './benchmark-catalog.js';
import { createCostEvaluator } from './evaluator.js';
import { parsePriceCatalog } from './price-catalog.js';
import { costQueries, type QueryName } from './queries.js';

const PRICES = parsePriceCatalog('instance_types:\n  - { name: box4, price_per_hour: 8, gpus: 4, gpu_model: NVIDIA L4, gpu_memory_gib: 24 }\n', 'p.yml');
const QUERIES = costQueries({ rateMs: 300_000, idleMs: 1_800_000, freshMs: 20_000 });
const NAME = new Map(Object.entries(QUERIES).map(([k, v]) => [v, k as QueryName]));

type Row = { metric: Record<string, string>; value: number };
/** The fleet: one instance of four GPUs, replica a (GPUs 0,1) of component c; until `goneMs` replica b (GPU 2) too. */
function fleet(tMs: number, goneMs: number): Partial<Record<QueryName, Row[]>> {
  const id = { endpoint: 'e', component: 'c', model: 'm', instance: 'i1', instance_type: 'box4' };
  const replicas = [{ metric: { ...id, replica: 'a', gpu: '0,1' }, value: 1 }];
  if (tMs < goneMs) replicas.push({ metric: { ...id, replica: 'b', gpu: '2' }, value: 1 });
  return {
    replicas,
    gpus: ['0', '1', '2', '3'].map((gpu) => ({ metric: { endpoint: 'e', instance: 'i1', instance_type: 'box4', gpu }, value: 0.5 })),
  };
}

/** A QueryClient over `fleet`, counting queries; the restore query answers `stored`. */
function fakeClient(goneMs: number, stored: number | null, counts: { instant: number; range: number }): QueryClient {
  const vector = (rows: Row[]) => ({ data: { resultType: 'vector' as const, result: rows.map((r) => ({ metric: r.metric, value: [0, String(r.value)] as [number, string] })) }, warnings: [], infos: [] });
  return {
    instant: (q: string, tMs: number) => {
      counts.instant++;
      if (q.includes('last_over_time(llm_cost_dollars_total')) return Promise.resolve(vector(stored === null ? [] : [{ metric: { endpoint: 'e', component: 'c', model: 'm' }, value: stored }]));
      return Promise.resolve(vector(fleet(tMs, goneMs)[NAME.get(q)!] ?? []));
    },
    range: (q: string, fromMs: number, toMs: number, stepMs: number) => {
      counts.range++;
      const series = new Map<string, { metric: Record<string, string>; values: [number, string][] }>();
      for (let t = fromMs; t <= toMs; t += stepMs) {
        for (const r of fleet(t, goneMs)[NAME.get(q)!] ?? []) {
          const k = JSON.stringify(r.metric);
          const s = series.get(k) ?? { metric: r.metric, values: [] };
          s.values.push([t / 1000, String(r.value)]);
          series.set(k, s);
        }
      }
      return Promise.resolve({ data: { resultType: 'matrix' as const, result: [...series.values()] }, warnings: [], infos: [] });
    },
  } as unknown as QueryClient;
}

function evaluator(goneMs: number, stored: number | null) {
  const samples: SeriesSample[] = [];
  const counts = { instant: 0, range: 0 };
  const ev = createCostEvaluator({
    client: fakeClient(goneMs, stored, counts),
    sink: { write: (s) => (samples.push(...s), Promise.resolve()) },
    prices: () => PRICES,
    benchmarks: () => benchmarkCatalog([]),
    intervalMs: 60_000,
  });
  return { ev, samples, counts };
}

const last = (samples: readonly SeriesSample[], name: string, extra: Record<string, string> = {}) =>
  samples.filter((s) => s.labels.__name__ === name && Object.entries(extra).every(([k, v]) => s.labels[k] === v)).at(-1);

describe('createCostEvaluator', () => {
  it('splits the instance by GPUs held and accumulates the cost from 0', async () => {
    const { ev, samples } = evaluator(Infinity, null);
    for (let t = 60_000; t <= 3_600_000; t += 60_000) await ev.evaluate(t);
    // Three of four GPUs of an $8 instance: $6 an hour; the first tick is 0, then 59 minutes.
    expect(last(samples, 'llm_cost_dollars_per_hour')?.value).toBe(6);
    expect(last(samples, 'llm_component_gpus')?.value).toBe(3);
    expect(last(samples, 'llm_cost_dollars_total')?.value).toBeCloseTo((6 * 59) / 60, 9);
    expect(last(samples, 'llm_idle_gpus', { reason: 'unallocated' })?.value).toBe(1);
    expect(last(samples, 'llm_idle_cost_dollars_per_hour')?.value).toBe(2);
    expect(last(samples, 'llm_instance_price_dollars_per_hour')?.labels.pricing).toBe('on-demand');
    const s = await ev.summary(3_600_000);
    expect(s.idle).toEqual({ gpus: 1, dollarsPerHour: 2 });
    expect(s.findings.map((f) => f.text)).toEqual(['e: 1 of 4 GPUs idle (1 held by no replica) for 59m, $48.00 a day']);
  });

  it('continues the stored accumulated cost after a restart', async () => {
    const { ev, samples } = evaluator(Infinity, 100);
    await ev.evaluate(60_000);
    await ev.evaluate(120_000);
    expect(last(samples, 'llm_cost_dollars_total')?.value).toBeCloseTo(100 + 6 / 60, 9);
  });

  it('replays as live ticks would, with one range query per query and hour', async () => {
    const live = evaluator(1_800_000, null);
    for (let t = 60_000; t <= 7_200_000; t += 60_000) await live.ev.evaluate(t);
    const replay = evaluator(1_800_000, null);
    expect(await replay.ev.replay(60_000, 7_200_000)).toBe(120);
    const strip = (xs: readonly SeriesSample[]) => xs.map((x) => `${JSON.stringify(x.labels)} ${x.tMs} ${x.value}`).sort();
    expect(strip(replay.samples)).toEqual(strip(live.samples));
    // 120 ticks at 60 s: a 240-tick chunk holds them all.
    expect(replay.counts.range).toBe(Object.keys(QUERIES).length);
    // Replica b went at 30 min: its bound series got a stale marker.
    expect(replay.samples.some((s) => s.labels.replica === 'b' && Number.isNaN(s.value))).toBe(true);
  });
});
