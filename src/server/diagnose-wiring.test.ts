import { describe, expect, it } from 'vitest';
import { HttpDiagnosisClient, HttpQueryClient, type InsightWire } from '../query/index.js';
import type { UnixMs } from '../model/index.js';
import { useCleanups } from '../model/testing/cleanups.js';
import { FakeTimers, flushAsync } from '../model/testing/fake-timers.js';
import type { ServeOptions } from './serve.js';
import { DX_END_MS, DX_INCIDENT_MS, DX_RECOVERY_MS, DX_START_MS, kvOnlyDiagnoser, startDiagnosisServer } from './testing/diagnosis-fixture.js';

const cleanups = useCleanups();

const start = (timers: FakeTimers, extra: Partial<ServeOptions> = {}): Promise<string> =>
  startDiagnosisServer(cleanups, { clock: timers.clock, diagnose: { createDiagnoser: kvOnlyDiagnoser, timers, intervalMs: 15_000 }, ...extra });

/** The one insight the fixture's incident opens, in the order the checks read it. */
function summary(i: InsightWire): unknown {
  return { symptom: i.symptom, scope: i.scope, onset: i.onset, resolved: i.resolved !== null, causes: i.causes.map((c) => c.cause) };
}

describe('the insight runner in the server', () => {
  it('replays over a backfilled span as if it had run live: one TTFT insight with its cause, resolved, and its series', async () => {
    const timers = new FakeTimers(DX_END_MS);
    const base = await start(timers, { backfill: { description: 'test', run: async () => undefined, rulesFromMs: DX_START_MS } });
    const { data } = await new HttpDiagnosisClient({ url: base }).insights();
    // TTFT's P99 over 5 minutes crosses at the first scrape of the incident; two ticks open it.
    expect(data.insights.map(summary)).toEqual([
      { symptom: 'ttft', scope: { endpoint: 'chat', component: 'llama-a' }, onset: DX_INCIDENT_MS / 1000, resolved: true, causes: ['kv-cache-pressure'] },
    ]);
    const [i] = data.insights;
    expect(i.query).toBe(
      'max by (endpoint, component) (histogram_quantile(0.99, sum by (endpoint, component, engine, le) (rate(llm_time_to_first_token_seconds_bucket{endpoint="chat", component="llama-a"}[5m]))))',
    );
    expect(i.id).toBe(`ttft-${i.id.split('-')[1]}-${DX_INCIDENT_MS / 1000}`);
    expect(i.detected).toBe(DX_INCIDENT_MS / 1000 + 15);
    // The P99 keeps the slow requests in its 5-minute window after they end, then four calm ticks.
    expect(i.resolved).toBeGreaterThan(DX_RECOVERY_MS / 1000);
    expect(i.resolved).toBeLessThanOrEqual(DX_RECOVERY_MS / 1000 + 6 * 60);
    const q = new HttpQueryClient({ url: base });
    const during = await q.instant('llm_diagnosis_insight_open', DX_INCIDENT_MS + 5 * 60_000);
    expect(during.data).toMatchObject({ resultType: 'vector', result: [{ metric: { insight: i.id, symptom: 'ttft', component: 'llama-a' }, value: [expect.any(Number), '1'] }] });
    const cause = await q.instant('llm_diagnosis_cause_confidence_ratio', DX_INCIDENT_MS + 5 * 60_000);
    expect(cause.data).toMatchObject({ result: [{ metric: { cause: 'kv-cache-pressure' }, value: [expect.any(Number), '0.9'] }] });
    expect((await q.instant('llm_diagnosis_insight_open', DX_END_MS)).data).toMatchObject({ result: [] });
    // Narrowed to a time range: the insight is listed only where it was open.
    expect((await new HttpDiagnosisClient({ url: base }).insights({ startMs: DX_START_MS, endMs: DX_INCIDENT_MS - 1000 })).data.insights).toEqual([]);
  });

  it('opens the insight in live ticks as the clock moves', async () => {
    const timers = new FakeTimers(DX_INCIDENT_MS - 60_000);
    const base = await start(timers);
    const client = new HttpDiagnosisClient({ url: base });
    const open = async (): Promise<readonly InsightWire[]> => (await client.insights()).data.insights;
    expect(await open()).toEqual([]);
    const until: UnixMs = DX_INCIDENT_MS + 2 * 60_000;
    while (timers.now < until && (await open()).length === 0) {
      await timers.advance(15_000);
      await flushAsync();
    }
    expect((await open()).map(summary)).toEqual([
      { symptom: 'ttft', scope: { endpoint: 'chat', component: 'llama-a' }, onset: DX_INCIDENT_MS / 1000, resolved: false, causes: ['kv-cache-pressure'] },
    ]);
  });
});
