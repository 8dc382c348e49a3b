/**
 * The whole quality loop of `startDemo` on loopback, with src/quality's real parts: the demo's real
 * clients → the gateway (sampling) → its `SampleSink` → the pipeline → the embedded sample store
 * (PGlite) → stage 1 → the simulator's judge (`infersight-sim-judge`, through the `openai` client)
 * → `llm_quality_score` written by the one quality writer → a PromQL query through the API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noopLogger, systemClock } from '../../src/model/index.js';
import { STAGE1_CHECKS } from '../../src/quality/index.js';
import type { QualitySamplesData, QualityStatusData } from '../../src/query/index.js';
import { startDemo, type RunningDemo } from '../../src/server/index.js';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';
import { waitFor } from '../peers/peers.js';

let demo: RunningDemo;
let base: string;
const dir = tempDir('quality-loop');

beforeAll(async () => {
  demo = await startDemo({
    listen: '127.0.0.1:0',
    storage: { dir: dir.dir },
    speed: 60,
    scrapeInterval: '1s',
    gateway: { listen: '127.0.0.1:0', listenRequired: true, share: 0.5, maxPerSec: 8 },
    logger: noopLogger,
    clock: systemClock,
    // Every sampled pair judged, so that a few requests reach the judge.
    quality: { flushIntervalMs: 1000, defaults: { sampling: 1 } },
  });
  await demo.server.ready;
  const a = demo.server.http.address;
  base = `http://${a.address}:${a.port}`;
}, 120_000);
afterAll(async () => {
  await demo.close();
  dir.remove();
});

async function get<T>(path: string): Promise<T> {
  const body = (await (await fetch(base + path)).json()) as { status: string; data: T };
  if (body.status !== 'success') throw new Error(`${path}: ${JSON.stringify(body)}`);
  return body.data;
}

describe('infersight demo: the quality loop with the real parts', () => {
  it('sampled pairs of real requests are stored with every stage-1 check, judged by the simulator, and their scores are PromQL series', async () => {
    const samples = await waitFor(
      'sampled pairs',
      async () => {
        const d = await get<QualitySamplesData>('/api/v1/quality/samples?limit=20');
        return d.samples.length >= 2 ? d.samples : undefined;
      },
      90_000,
    );
    for (const s of samples) {
      expect(s.pair.model).not.toBe('');
      expect(s.pair.component).not.toBe('');
      const stage1 = s.evaluations.filter((e) => e.stage === 1).map((e) => e.evaluator);
      expect(new Set(stage1)).toEqual(new Set(STAGE1_CHECKS.map((c) => `stage1:${c}`)));
    }
    // The judge's verdicts arrive as stage-2 evaluations…
    const judged = await waitFor(
      'judged pairs',
      async () => {
        const d = await get<QualitySamplesData>('/api/v1/quality/samples?limit=50');
        const j = d.samples.flatMap((s) => s.evaluations.filter((e) => e.stage === 2 && e.error === null));
        return j.length > 0 ? j : undefined;
      },
      90_000,
    );
    expect(judged[0].evaluator).toMatch(/^judge:/);
    // …and as `llm_quality_score` series written by the quality path: `accuracy` is a dimension only
    // the judge scores (the simulator's scraped exporter has none), and the quality path writes no `job`.
    const series = await waitFor(
      'judged scores as series',
      async () => {
        const d = await get<{ result: { metric: Record<string, string>; value: [number, string] }[] }>(`/api/v1/query?query=${encodeURIComponent('llm_quality_score{job=""}')}`);
        return d.result.length > 0 ? d.result : undefined;
      },
      60_000,
    );
    for (const s of series) {
      expect(s.metric.model).not.toBe('');
      expect(Number(s.value[1])).toBeGreaterThanOrEqual(0);
      expect(Number(s.value[1])).toBeLessThanOrEqual(1);
    }
    const status = await get<QualityStatusData>('/api/v1/quality/status');
    expect(status.store.kind).toBe('pglite');
    expect(status.judge).toMatchObject({ model: 'infersight-sim-judge', baseURL: `${demo.sim.url}/v1` });
  }, 240_000);
});
