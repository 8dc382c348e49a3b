// The diagnoser over hand-written series in the embedded store (test/rules/harness.ts: a Db and the
// PromQL engine behind EngineQueryClient): platform overhead, which no simulator fault produces,
// and the choice of baseline (the same hour yesterday where the store holds it).
import { afterEach, describe, expect, it } from 'vitest';
import { createDiagnoser } from '../../src/diagnose/index.js';
import { loadSeries, openRulesDb, type InputSeries, type RulesDb } from '../rules/harness.js';

const STEP_MS = 15_000;
const MIN = 60_000;
const DAY = 24 * 60 * MIN;

/** A counter's values, one per step, from segments of [increase per step, steps]. */
function counter(segments: readonly (readonly [number, number])[]): string {
  const out: number[] = [0];
  for (const [inc, n] of segments) for (let i = 0; i < n; i++) out.push(out[out.length - 1] + inc);
  return out.map((v) => String(Math.round(v * 1000) / 1000)).join(' ');
}

const ID = 'endpoint="ep", component="c", job="gateway"';
let db: RulesDb | undefined;
afterEach(async () => {
  await db?.close();
  db = undefined;
});

async function open(series: InputSeries[], startMs = 0): Promise<RulesDb> {
  db = await openRulesDb();
  await loadSeries(db.db, series, STEP_MS, startMs);
  return db;
}

describe('platform overhead', () => {
  // 80 minutes of 2 requests/s; in the last 5 the gateway's own time per request goes from 15 ms
  // to 300 ms, while the engines' time stays at 2 s (or doubles, in the second case).
  const steps = 320;
  const late = 20;
  const series = (engineLate: number): InputSeries[] => [
    { series: `llm_client_overhead_latency_seconds_count{${ID}}`, values: counter([[30, steps]]) },
    { series: `llm_client_overhead_latency_seconds_sum{${ID}}`, values: counter([[0.45, steps - late], [9, late]]) },
    { series: `llm_e2e_request_latency_seconds_count{${ID}}`, values: counter([[30, steps]]) },
    { series: `llm_e2e_request_latency_seconds_sum{${ID}}`, values: counter([[60, steps - late], [60 * engineLate, late]]) },
    { series: `llm_client_requests_total{${ID}, status_class="2xx"}`, values: counter([[30, steps]]) },
  ];

  it.each([
    ['the gateway slower, the engines not: platform-overhead first', 1, true],
    ['the engines twice as slow too: not the platform', 2, false],
  ])('%s', async (_name, engineLate, want) => {
    const { client } = await open(series(engineLate));
    const d = await createDiagnoser(client)({ timeMs: steps * STEP_MS });
    const c = d.causes.find((x) => x.cause === 'platform-overhead');
    if (want) {
      expect(d.causes[0].cause).toBe('platform-overhead');
      expect(d.causes[0].scope).toEqual({ endpoint: 'ep', component: 'c' });
      expect(d.causes[0].evidence[0]).toEqual({
        query: 'sum by (endpoint, component) (rate(llm_client_overhead_latency_seconds_sum{endpoint="ep", component="c"}[1m])) / sum by (endpoint, component) (rate(llm_client_overhead_latency_seconds_count{endpoint="ep", component="c"}[1m]))',
        baseline: expect.closeTo(0.015, 3),
        incident: expect.closeTo(0.3, 3),
      });
      expect(d.causes[0].onsetMs).toBeGreaterThanOrEqual((steps - late - 4) * STEP_MS);
    } else {
      expect(c?.confidence ?? 0).toBeLessThan(0.5);
    }
  });
});

describe('the baseline', () => {
  // A day and 70 minutes of requests: 1/s, except 3/s around the same hour yesterday and in the
  // last 5 minutes. Against yesterday that is how this hour runs; against the preceding hour it
  // is demand that tripled.
  const total = (DAY + 70 * MIN) / STEP_MS;
  const t = total * STEP_MS;
  const peak = (fromMs: number, toMs: number) => [Math.round(fromMs / STEP_MS), Math.round(toMs / STEP_MS)];
  function demand(withYesterday: boolean): InputSeries[] {
    const [y0, y1] = peak(t - DAY - 30 * MIN, t - DAY + 30 * MIN);
    const [n0] = peak(t - 5 * MIN, t);
    const segs: [number, number][] = withYesterday ? [[15, y0], [45, y1 - y0], [15, n0 - y1], [45, total - n0]] : [[15, n0], [45, total - n0]];
    return [
      { series: `llm_client_requests_total{${ID}, status_class="2xx"}`, values: counter(segs) },
      { series: 'up{job="gateway"}', values: withYesterday ? `1x${total}` : `_x${Math.round((DAY + 40 * MIN) / STEP_MS)} 1x${Math.round((30 * MIN) / STEP_MS)}` },
    ];
  }

  it.each([
    ['the same hour yesterday, where the store holds it', true, 'none'],
    ['the preceding hour otherwise', false, 'load'],
  ])('%s', async (_name, withYesterday, want) => {
    const { client } = await open(demand(withYesterday));
    const d = await createDiagnoser(client)({ timeMs: t });
    const load = d.causes.find((c) => c.cause === 'load');
    expect(load === undefined ? 'none' : 'load').toBe(want);
  });
});

describe('match[]', () => {
  it('narrows the readings to the selected components', async () => {
    const other = 'endpoint="ep", component="other", job="gateway"';
    const { client } = await open([
      { series: `llm_client_requests_total{${ID}, status_class="5xx"}`, values: counter([[0, 300], [3, 20]]) },
      { series: `llm_client_requests_total{${ID}, status_class="2xx"}`, values: counter([[30, 320]]) },
      { series: `llm_client_requests_total{${other}, status_class="2xx"}`, values: counter([[30, 320]]) },
    ]);
    const diagnose = createDiagnoser(client);
    expect((await diagnose({ timeMs: 320 * STEP_MS })).causes[0].cause).toBe('engine-errors');
    expect((await diagnose({ timeMs: 320 * STEP_MS, match: ['{component="other"}'] })).causes[0].cause).toBe('none');
    await expect(diagnose({ timeMs: 320 * STEP_MS, match: ['{component='] })).rejects.toMatchObject({ errorType: 'bad_data' });
  });
});
